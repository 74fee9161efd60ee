// Pictures of a Link board: the ring around the board, each tile in its kind's colour, the line
// through cell centres (outside the board too), the marked tiles outlined; the SVG carries the
// same things as elements, the text picture as characters.
#include <gtest/gtest.h>

#include <string>

#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/render/link.hpp>
#include "render_test_util.hpp"

using namespace pathlab;
using namespace pathlab::render;

namespace {

using pathlab::testing::pixel;

// Two A's in the top row with a B between them: they connect over the top, through the ring.
link::Board board() {
  return link::parse_board("ABA\n.C.\n");
}

}  // namespace

TEST(LinkRender, TilesRingAndLineAreWhereTheBoardSays) {
  const link::Board b = board();
  const link::Connection c = link::connect(b, {0, 0}, {2, 0});
  ASSERT_TRUE(c.connected());
  ASSERT_EQ(c.points.front(), (Cell{0, 0}));  // starts at the first tile
  LinkPicture pic;
  pic.line = c.points;
  pic.cell_px = 20;
  const IndexedImage img = draw_link(b, pic);
  EXPECT_EQ(img.width, (3 + 2) * 20);
  EXPECT_EQ(img.height, (2 + 2) * 20);
  // Board cell (x, y) spans [(x + 1) * 20, (x + 2) * 20): sample near a tile's corner (inside
  // the inset, away from the letter).
  auto tile_pixel = [&](int x, int y) { return pixel(img, (x + 1) * 20 + 3, (y + 1) * 20 + 3); };
  EXPECT_EQ(tile_pixel(0, 0), link_kind_colour('A'));
  EXPECT_EQ(tile_pixel(2, 0), link_kind_colour('A'));
  EXPECT_EQ(tile_pixel(1, 0), link_kind_colour('B'));
  EXPECT_EQ(tile_pixel(1, 1), link_kind_colour('C'));
  EXPECT_NE(link_kind_colour('A'), link_kind_colour('B'));
  EXPECT_EQ(tile_pixel(0, 1), kFree);  // an empty cell
  // The line runs along the ring above the board: the centre of ring cell (1, -1) is on it.
  const bool over_top = c.points.size() == 4 && c.points[1].y == -1;
  ASSERT_TRUE(over_top) << "expected the line over the top ring";
  EXPECT_EQ(pixel(img, 2 * 20 + 10, 0 * 20 + 10), kLine);
  // A ring cell the line does not touch keeps the ring's colour.
  EXPECT_NE(pixel(img, 2, img.height - 3), kLine);
  EXPECT_NE(pixel(img, 2, img.height - 3), kFree);
}

TEST(LinkRender, MarkedTilesAreOutlined) {
  const link::Board b = board();
  LinkPicture pic;
  pic.marked = {{1, 1}};
  pic.cell_px = 20;
  const IndexedImage img = draw_link(b, pic);
  EXPECT_EQ(pixel(img, 2 * 20, 2 * 20 + 10), kColliding);  // left edge of tile (1, 1)
  EXPECT_NE(pixel(img, 1 * 20, 1 * 20 + 10), kColliding);  // tile (0, 0) is not marked
}

TEST(LinkRender, SvgAndTextCarryTheSameBoard) {
  const link::Board b = board();
  LinkPicture pic;
  pic.line = link::connect(b, {0, 0}, {2, 0}).points;
  const std::string svg = link_svg(b, pic);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("class=\"link\""), std::string::npos);
  std::size_t tiles = 0;
  for (std::size_t at = svg.find("class=\"tile\""); at != std::string::npos;
       at = svg.find("class=\"tile\"", at + 1)) {
    ++tiles;
  }
  EXPECT_EQ(tiles, b.tiles());
  const std::string text = link_text(b, pic, false);
  EXPECT_NE(text.find("ABA"), std::string::npos);
  EXPECT_NE(text.find("\u2500"), std::string::npos);  // the line's horizontal stroke on the ring
  EXPECT_THROW(write_link(b, pic, "/tmp/pathlab-link-test.gifx"), std::runtime_error);
}
