// Flow-field pictures (render/flow.hpp): the PNG decodes to the map's size with the goal red,
// walls in the wall colour and the distance ramp from near to far; the SVG has one arrow per
// reachable cell that is not a goal; other formats are refused.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <fstream>
#include <sstream>

#include <pathlab/render/flow.hpp>

#include "render_test_util.hpp"

namespace pathlab {
namespace {

struct Rgb {
  int r, g, b;
  friend bool operator==(Rgb, Rgb) = default;
};

Rgb palette_rgb(std::uint8_t k) {
  const auto& p = render::palette();
  return {p[3u * k], p[3u * k + 1], p[3u * k + 2]};
}

class FlowRender : public ::testing::Test {
 protected:
  void SetUp() override {
    g = grid::Grid(20, 12);
    for (int y = 2; y < 10; ++y) g.set_blocked(8, y, true);
    ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}).has_value());
  }
  grid::Grid g;
  Cell goal{16, 6};
  flow::Field f;
};

TEST_F(FlowRender, PngShowsGoalWallsAndTheDistanceRamp) {
  const std::string path = pathlab::testing::temp_path("flow.png");
  render::FlowPicture p;
  p.grid = &g;
  p.field = &f;
  p.cell_px = 10;
  render::write_flow(p, path);
  int w = 0, h = 0, n = 0;
  unsigned char* rgb = stbi_load(path.c_str(), &w, &h, &n, 3);
  ASSERT_NE(rgb, nullptr);
  ASSERT_EQ(w, 200);
  ASSERT_EQ(h, 120);
  // A cell's corner pixel (arrows run through the middle, not the corners).
  auto at = [&](Cell c) {
    const std::size_t k =
        3u * (static_cast<std::size_t>(c.y * 10) * 200u + static_cast<std::size_t>(c.x * 10));
    return Rgb{rgb[k], rgb[k + 1], rgb[k + 2]};
  };
  EXPECT_EQ(at(goal), palette_rgb(render::kGoal));
  EXPECT_EQ(at({8, 5}), palette_rgb(render::kWall));
  // The ramp: the palette index of a colour among kClosedFirst..255, nearer cells lower.
  auto ramp = [](Rgb c) {
    for (int k = render::kClosedFirst; k < 256; ++k) {
      if (palette_rgb(static_cast<std::uint8_t>(k)) == c) return k;
    }
    return -1;
  };
  const int near = ramp(at({15, 6})), mid = ramp(at({10, 0})), far = ramp(at({0, 11}));
  EXPECT_GE(near, render::kClosedFirst);
  EXPECT_LT(near, mid);
  EXPECT_LT(mid, far);
  stbi_image_free(rgb);
  std::filesystem::remove(path);
}

TEST_F(FlowRender, SvgHasOneArrowPerReachableCellThatIsNotAGoal) {
  const std::string path = pathlab::testing::temp_path("flow.svg");
  render::FlowPicture p;
  p.grid = &g;
  p.field = &f;
  p.cell_px = 8;
  render::write_flow(p, path);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string svg = ss.str();
  ASSERT_EQ(svg.rfind("<svg", 0), 0u);
  const auto d = svg.find("class=\"arrows\"");
  ASSERT_NE(d, std::string::npos);
  const std::string arrows = svg.substr(d, svg.find("/>", d) - d);
  // Each arrow is "M tail L tip M left L tip L right": two moves.
  const auto moves = std::count(arrows.begin(), arrows.end(), 'M');
  int cells = 0;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) cells += f.direction({x, y}) >= 0 ? 1 : 0;
  }
  EXPECT_EQ(moves, 2 * cells);
  EXPECT_EQ(cells, 20 * 12 - 8 - 1);
  // Too small for arrows: none.
  p.cell_px = 3;
  render::write_flow(p, path);
  std::ifstream again(path);
  std::stringstream ss2;
  ss2 << again.rdbuf();
  EXPECT_EQ(ss2.str().find("class=\"arrows\""), std::string::npos);
  std::filesystem::remove(path);
}

TEST_F(FlowRender, OtherFormatsAndMismatchedFieldsAreRefused) {
  render::FlowPicture p;
  p.grid = &g;
  p.field = &f;
  EXPECT_THROW(render::write_flow(p, pathlab::testing::temp_path("flow.gif")), std::runtime_error);
  EXPECT_THROW(render::write_flow(p, pathlab::testing::temp_path("flow.bmp")), std::runtime_error);
  const grid::Grid other(5, 5);
  p.grid = &other;
  EXPECT_THROW(render::write_flow(p, pathlab::testing::temp_path("flow.png")), std::runtime_error);
}

}  // namespace
}  // namespace pathlab
