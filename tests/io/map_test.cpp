// Map reading on good inputs: the bundled example maps, format detection, the image options
// (cell size, threshold, gray terrain, markers) and the format names.
#include <pathlab/io/map.hpp>

#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io_test_util.hpp"

namespace {

using pathlab::Cell;
using pathlab::io::load_map;
using pathlab::io::Map;
using pathlab::io::MapFormat;
using pathlab::io::MapOptions;
using pathlab::io::parse_map;

using pathlab::testing::data_dir;
using pathlab::testing::maps_dir;
using pathlab::testing::slurp;

TEST(BundledMaps, SeedMazeIsTheUsersTextFormat) {
  const Map m = load_map(maps_dir + "seed_maze.txt");
  EXPECT_EQ(m.format, MapFormat::text);
  EXPECT_EQ(m.grid.width(), 30);
  EXPECT_EQ(m.grid.height(), 20);
  EXPECT_EQ(m.start, (Cell{7, 2}));
  EXPECT_EQ(m.goal, (Cell{9, 9}));
  EXPECT_TRUE(m.grid.passable(7, 2));
  EXPECT_TRUE(m.grid.passable(9, 9));
  // Row 0 after the ruler: "1    11111111                 $".
  EXPECT_FALSE(m.grid.passable(0, 0));
  EXPECT_TRUE(m.grid.passable(1, 0));
  EXPECT_FALSE(m.grid.passable(5, 0));
  EXPECT_FALSE(m.grid.passable(12, 0));
  EXPECT_TRUE(m.grid.passable(13, 0));
  EXPECT_TRUE(m.grid.passable(29, 0));
  // Row 4: 19 spaces then a wall.
  EXPECT_TRUE(m.grid.passable(0, 4));
  EXPECT_FALSE(m.grid.passable(19, 4));
}

TEST(BundledMaps, HybridIsAscii) {
  const Map m = load_map(maps_dir + "hybrid_30x20.txt");
  EXPECT_EQ(m.format, MapFormat::ascii);
  EXPECT_EQ(m.grid.width(), 30);
  EXPECT_EQ(m.grid.height(), 20);
  EXPECT_EQ(m.start, (Cell{2, 2}));
  EXPECT_EQ(m.goal, (Cell{27, 17}));
  EXPECT_FALSE(m.grid.passable(22, 0));
  EXPECT_TRUE(m.grid.passable(21, 0));
}

TEST(BundledMaps, LinkBoardIsTextWithoutRuler) {
  // Letters are tiles, i.e. free cells of the text format; there is no ruler, so all 8 rows stay.
  const Map m = load_map(maps_dir + "link_8x10.txt");
  EXPECT_EQ(m.format, MapFormat::text);
  EXPECT_EQ(m.grid.width(), 10);
  EXPECT_EQ(m.grid.height(), 8);
  EXPECT_EQ(m.grid.wall_count(), 0);
  EXPECT_FALSE(m.start.has_value());
  EXPECT_FALSE(m.goal.has_value());
}

TEST(BundledMaps, CaveImageWithCell4) {
  MapOptions o;
  o.cell = 4;
  const Map m = load_map(maps_dir + "cave_100.png", o);
  EXPECT_EQ(m.format, MapFormat::image);
  EXPECT_EQ(m.grid.width(), 100);
  EXPECT_EQ(m.grid.height(), 100);
  EXPECT_TRUE(m.grid.passable(10, 23));
  EXPECT_TRUE(m.grid.passable(71, 71));
  EXPECT_GT(m.grid.wall_count(), 100);
  EXPECT_LT(m.grid.wall_count(), 9000);
}

TEST(BundledMaps, CaveImageOnePixelPerCell) {
  const Map m = load_map(maps_dir + "cave_100.png");
  EXPECT_EQ(m.grid.width(), 400);
  EXPECT_EQ(m.grid.height(), 400);
  // Merging 4x4 pixels blocks a cell when any pixel is a wall, so walls only grow.
  MapOptions o;
  o.cell = 4;
  const Map merged = load_map(maps_dir + "cave_100.png", o);
  for (int y = 0; y < 400; ++y) {
    for (int x = 0; x < 400; ++x) {
      if (!m.grid.passable(x, y)) {
        ASSERT_FALSE(merged.grid.passable(x / 4, y / 4));
      }
    }
  }
}

TEST(BundledMaps, CellLargerThanTheImageCountsPartialBlocks) {
  MapOptions o;
  o.cell = 3;  // 400 = 3*133 + 1: the last column of pixels makes a cell of its own
  const Map m = load_map(maps_dir + "cave_100.png", o);
  EXPECT_EQ(m.grid.width(), 134);
  EXPECT_EQ(m.grid.height(), 134);
  o.cell = 1000;
  EXPECT_EQ(load_map(maps_dir + "cave_100.png", o).grid.cells(), 1);
}

TEST(TextFormat, CrlfPaddingAndTrailingBlankLines) {
  const Map m = parse_map("----+\r\n1 8$\r\n\r\n19$xx\r\n1\r\n\r\n\r\n", "t.txt");
  EXPECT_EQ(m.format, MapFormat::text);
  EXPECT_EQ(m.grid.width(), 3);
  EXPECT_EQ(m.grid.height(), 4);  // the empty line inside the map is an all-free row
  EXPECT_EQ(m.start, (Cell{2, 0}));
  EXPECT_EQ(m.goal, (Cell{1, 2}));
  EXPECT_FALSE(m.grid.passable(0, 0));
  EXPECT_TRUE(m.grid.passable(0, 1));
  EXPECT_FALSE(m.grid.passable(0, 3));
  EXPECT_TRUE(m.grid.passable(2, 3));  // short row padded
}

TEST(TextFormat, DollarEndsTheRowAndOtherCharactersAreFree) {
  const Map m = parse_map("0123456789\n1a0 .#$111\n", "t", {MapFormat::text});
  EXPECT_EQ(m.grid.width(), 6);
  EXPECT_EQ(m.grid.height(), 1);
  EXPECT_EQ(m.grid.wall_count(), 1);
}

TEST(TextFormat, ForcedTextKeepsAFirstRowThatIsNotARuler) {
  const Map m = parse_map("1111$\n1891$\n", "t", {MapFormat::text});
  EXPECT_EQ(m.grid.height(), 2);
  EXPECT_EQ(m.start, (Cell{1, 1}));
}

TEST(AsciiFormat, WallsMarkersAndPadding) {
  const Map m = parse_map("#@.\n S\r\n..G#\n", "a.txt");
  EXPECT_EQ(m.format, MapFormat::ascii);
  EXPECT_EQ(m.grid.width(), 4);
  EXPECT_EQ(m.grid.height(), 3);
  EXPECT_EQ(m.grid.wall_count(), 3);
  EXPECT_EQ(m.start, (Cell{1, 1}));
  EXPECT_EQ(m.goal, (Cell{2, 2}));
  EXPECT_TRUE(m.grid.passable(3, 0));  // padded
}

TEST(MovingAiFormat, GroundSwampAndBlockedKinds) {
  const Map m = parse_map("type octile\nheight 2\nwidth 4\nmap\n.GS@\nOTW.\n\n\n", "m");
  EXPECT_EQ(m.format, MapFormat::movingai);
  EXPECT_EQ(m.grid.width(), 4);
  EXPECT_EQ(m.grid.height(), 2);
  EXPECT_FALSE(m.start.has_value());  // 'S' is swamp, 'G' ground
  EXPECT_FALSE(m.goal.has_value());
  EXPECT_TRUE(m.grid.passable(1, 0));
  EXPECT_TRUE(m.grid.passable(2, 0));
  EXPECT_FALSE(m.grid.passable(3, 0));
  EXPECT_FALSE(m.grid.passable(0, 1));
  EXPECT_FALSE(m.grid.passable(1, 1));
  EXPECT_FALSE(m.grid.passable(2, 1));
  EXPECT_TRUE(m.grid.passable(3, 1));
}

TEST(MovingAiFormat, CrlfFixtureAndHeaderOrder) {
  const Map m = load_map(data_dir + "crlf.map");
  EXPECT_EQ(m.grid.width(), 5);
  EXPECT_EQ(m.grid.height(), 3);
  EXPECT_EQ(m.grid.wall_count(), 4);
  const Map swapped = parse_map("type octile\nwidth 2\nheight 1\nmap\n.@\n", "m");
  EXPECT_EQ(swapped.grid.width(), 2);
  EXPECT_EQ(swapped.grid.height(), 1);
}

TEST(Detection, ByContentAndName) {
  using pathlab::io::detect_format;
  EXPECT_EQ(detect_format("type octile\nheight 1\n", "x.txt"), MapFormat::movingai);
  EXPECT_EQ(detect_format("----+----+\n1 1$\n", "x"), MapFormat::text);
  EXPECT_EQ(detect_format("0123456789\n1 1\n", "x"), MapFormat::text);
  EXPECT_EQ(detect_format("##..\n.S.G\n", "x"), MapFormat::ascii);
  EXPECT_EQ(detect_format("    \n    \n", "x"), MapFormat::ascii);
  EXPECT_EQ(detect_format("1111\n1891\n", "x"), MapFormat::text);  // 0/1/8/9 rows, no ruler
  EXPECT_EQ(detect_format("1 1$\n181$\n", "x"), MapFormat::text);
  EXPECT_EQ(detect_format("##X#\n", "x"), MapFormat::ascii);  // the parser will name the 'X'
  EXPECT_EQ(detect_format("ABCD\nEFGH\n", "x"), MapFormat::text);
  EXPECT_EQ(detect_format("hello", "x.png"), MapFormat::image);
  EXPECT_EQ(detect_format("hello", "x.JPG"), MapFormat::image);
  EXPECT_EQ(detect_format("@@..", "x.map"), MapFormat::movingai);
  EXPECT_EQ(detect_format(std::string_view("\x89PNG\r\n\x1a\n", 8), "x.txt"), MapFormat::image);
  EXPECT_EQ(detect_format("GIF89a", "x"), MapFormat::image);
  EXPECT_EQ(detect_format("\xFF\xD8\xFF\xE0", "x"), MapFormat::image);
  // "BM" alone is not enough for a BMP (a text row could start so).
  EXPECT_EQ(detect_format("BMAD$\n", "x"), MapFormat::text);
}

TEST(Detection, ForcedFormatWins) {
  // A movingai-looking file forced to text is just text (every letter is a free cell).
  const Map m = parse_map("type octile\n1\n", "x", {MapFormat::text});
  EXPECT_EQ(m.format, MapFormat::text);
  EXPECT_EQ(m.grid.height(), 2);
  const Map a = parse_map("....\n", "x.map", {MapFormat::ascii});
  EXPECT_EQ(a.format, MapFormat::ascii);
}

TEST(FormatNames, RoundTrip) {
  using pathlab::io::parse_map_format;
  using pathlab::io::to_string;
  for (MapFormat f : {MapFormat::automatic, MapFormat::text, MapFormat::ascii, MapFormat::movingai,
                      MapFormat::image}) {
    EXPECT_EQ(parse_map_format(to_string(f)), f);
  }
  EXPECT_EQ(to_string(MapFormat::automatic), "auto");
  EXPECT_FALSE(parse_map_format("png").has_value());
  EXPECT_FALSE(parse_map_format("").has_value());
}

// Writes a small RGB image with stb through save_map, from a map whose cells become pixels.
class ImageOptions : public ::testing::Test {
 protected:
  std::string path_ = (std::filesystem::temp_directory_path() /
                       ("pathlab_io_image_" + std::to_string(::getpid()) + ".png"))
                          .string();
  void TearDown() override { std::filesystem::remove(path_); }
};

TEST_F(ImageOptions, MarkersAndThreshold) {
  Map m{pathlab::grid::Grid(6, 4), Cell{1, 1}, Cell{4, 2}, MapFormat::image};
  m.grid.set_blocked(0, 0, true);
  m.grid.set_blocked(5, 3, true);
  pathlab::io::save_map(m, path_);
  const Map back = load_map(path_);
  EXPECT_EQ(back.grid, m.grid);
  EXPECT_EQ(back.start, m.start);
  EXPECT_EQ(back.goal, m.goal);
  // Threshold 0: nothing is darker, so no walls at all.
  MapOptions none;
  none.threshold = 0;
  EXPECT_EQ(load_map(path_, none).grid.wall_count(), 0);
}

TEST_F(ImageOptions, GrayTerrainLevels) {
  Map m{pathlab::grid::Grid(9, 1), std::nullopt, std::nullopt, MapFormat::image};
  for (int c = 1; c <= 9; ++c) m.grid.set_terrain(c - 1, 0, static_cast<float>(c));
  pathlab::io::save_map(m, path_);
  MapOptions o;
  o.gray_terrain = true;
  const Map back = load_map(path_, o);
  for (int c = 1; c <= 9; ++c) EXPECT_EQ(back.grid.terrain(c - 1, 0), static_cast<float>(c));
  // Without gray_terrain the same light grays are plain free cells.
  const Map plain = load_map(path_);
  EXPECT_FALSE(plain.grid.has_terrain());
  EXPECT_EQ(plain.grid.wall_count(), 0);
}

TEST_F(ImageOptions, MergedCellTakesTheDarkestTerrain) {
  Map m{pathlab::grid::Grid(4, 2), std::nullopt, std::nullopt, MapFormat::image};
  m.grid.set_terrain(0, 0, 3.0f);
  m.grid.set_terrain(1, 1, 7.0f);
  m.grid.set_blocked(3, 0, true);
  pathlab::io::save_map(m, path_);
  MapOptions o;
  o.gray_terrain = true;
  o.cell = 2;
  const Map back = load_map(path_, o);
  ASSERT_EQ(back.grid.width(), 2);
  ASSERT_EQ(back.grid.height(), 1);
  EXPECT_EQ(back.grid.terrain(0, 0), 7.0f);
  EXPECT_FALSE(back.grid.passable(1, 0));
}

TEST(ImageOptionsValidation, BadOptionsAreInvalidArguments) {
  MapOptions o;
  o.cell = 0;
  EXPECT_THROW((void)parse_map("....", "x", o), std::invalid_argument);
  o.cell = 1;
  o.threshold = 256;
  EXPECT_THROW((void)parse_map("....", "x", o), std::invalid_argument);
}

TEST(ImageFixtures, ParseFromMemoryMatchesLoadMap) {
  // With the format forced, the name plays no part.
  const Map png = load_map(maps_dir + "cave_100.png");
  const std::string bytes = slurp(maps_dir + "cave_100.png");
  const Map again = parse_map(bytes, "cave.bin", {MapFormat::image});
  EXPECT_EQ(png.grid, again.grid);
}

TEST(ImageFixtures, GifAndJpeg) {
  // one.gif: a single black pixel; gray.jpg: an 8x6 gray ramp.
  const Map gif = load_map(data_dir + "one.gif");
  EXPECT_EQ(gif.format, MapFormat::image);
  EXPECT_EQ(gif.grid.cells(), 1);
  EXPECT_EQ(gif.grid.wall_count(), 1);
  // JPEG is refused with a message, not decoded (stb's decoder is not safe on every file).
  try {
    (void)load_map(data_dir + "gray.jpg");
    ADD_FAILURE() << "a JPEG was read";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("JPEG images are not read"), std::string::npos)
        << e.what();
  }
}

TEST(ImageFixtures, TransparencyIsWhiteAndMarkerBlobsUseTheirCentre) {
  // 8x4 RGBA pixels, cell 2: a transparent black area (free), an opaque black pixel (wall), a
  // 2x2 red blob spanning two cells (start in the cell of its centre) and one green pixel.
  const int w = 8, h = 4;
  std::vector<unsigned char> px(static_cast<std::size_t>(w) * h * 4, 255);
  const auto put = [&](int x, int y, unsigned char r, unsigned char g, unsigned char b,
                       unsigned char a) {
    unsigned char* p = &px[(static_cast<std::size_t>(y) * w + x) * 4];
    p[0] = r, p[1] = g, p[2] = b, p[3] = a;
  };
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) put(x, y, 0, 0, 0, 0);
  put(7, 0, 0, 0, 0, 255);
  put(3, 2, 255, 0, 0, 255);
  put(4, 2, 255, 0, 0, 255);
  put(3, 3, 255, 0, 0, 255);
  put(4, 3, 255, 0, 0, 255);
  put(6, 3, 0, 255, 0, 255);
  std::string bytes;
  ASSERT_TRUE(stbi_write_png_to_func(
      [](void* ctx, void* data, int size) {
        static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
      },
      &bytes, w, h, 4, px.data(), w * 4));
  MapOptions o;
  o.cell = 2;
  const Map m = parse_map(bytes, "rgba.png", o);
  ASSERT_EQ(m.grid.width(), 4);
  ASSERT_EQ(m.grid.height(), 2);
  EXPECT_EQ(m.grid.wall_count(), 1);
  EXPECT_FALSE(m.grid.passable(3, 0));
  EXPECT_EQ(m.start, (Cell{1, 1}));  // blob centre: pixel (3.5, 2.5) -> (3, 2)
  EXPECT_EQ(m.goal, (Cell{3, 1}));
}

}  // namespace
