// Flow-field pictures (render/flow.hpp): the PNG decodes to the map's size with the goal red,
// walls in the wall colour, unreachable cells in the free colour and the distance ramp from
// near (one end) to the farthest reachable cell (the other); arrows only on cells of 6 px or
// more; the SVG has one arrow per reachable cell that is not a goal, each in its direction or
// straight at the goal it sees, cells as row runs covering the map, sector outlines solid or
// dashed; a 512x512 map stays small; other formats and bad pictures are refused.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <pathlab/render/flow.hpp>

#include "render_test_util.hpp"

namespace pathlab::flow_render_test {
namespace {

struct Rgb {
  int r, g, b;
  friend bool operator==(Rgb, Rgb) = default;
};

Rgb palette_rgb(std::uint8_t k) {
  const auto& p = render::palette();
  return {p[3u * k], p[3u * k + 1], p[3u * k + 2]};
}

/// The ramp index (kClosedFirst..255) of a colour, or -1.
int ramp_index(Rgb c) {
  for (int k = render::kClosedFirst; k < 256; ++k) {
    if (palette_rgb(static_cast<std::uint8_t>(k)) == c) return k;
  }
  return -1;
}

/// A decoded PNG.
struct Decoded {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  [[nodiscard]] Rgb at(int x, int y) const {
    const std::size_t k = 3u * (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                                static_cast<std::size_t>(x));
    return {rgb[k], rgb[k + 1], rgb[k + 2]};
  }
  /// Every pixel of cell c (cp pixels a side) has colour `want`.
  [[nodiscard]] bool cell_is(Cell c, int cp, Rgb want) const {
    for (int y = c.y * cp; y < (c.y + 1) * cp; ++y) {
      for (int x = c.x * cp; x < (c.x + 1) * cp; ++x) {
        if (!(at(x, y) == want)) return false;
      }
    }
    return true;
  }
  [[nodiscard]] int count(Rgb want) const {
    int n = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) n += at(x, y) == want ? 1 : 0;
    return n;
  }
};

Decoded decode(const std::string& png) {
  Decoded d;
  int n = 0;
  unsigned char* p = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()),
                                           static_cast<int>(png.size()), &d.w, &d.h, &n, 3);
  if (!p) return d;
  d.rgb.assign(p, p + static_cast<std::size_t>(d.w) * static_cast<std::size_t>(d.h) * 3u);
  stbi_image_free(p);
  return d;
}

/// The text of the element that starts with `open` up to its closing `close`, or "".
std::string section(const std::string& svg, const std::string& open, const std::string& close) {
  const auto a = svg.find(open);
  if (a == std::string::npos) return "";
  const auto b = svg.find(close, a);
  return svg.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

/// The d="..." of the first <path class="cls"> in `svg`, or "".
std::string path_data(const std::string& svg, const std::string& cls) {
  const std::string tag = section(svg, "<path class=\"" + cls + "\"", "/>");
  const auto d = tag.find(" d=\"");
  if (d == std::string::npos) return "";
  return tag.substr(d + 4, tag.find('"', d + 4) - (d + 4));
}

/// The numbers of SVG path data, the commands dropped.
std::vector<double> numbers(const std::string& d) {
  std::vector<double> out;
  const char* s = d.c_str();
  while (*s) {
    if ((*s >= '0' && *s <= '9') || *s == '-' || *s == '.') {
      char* end = nullptr;
      out.push_back(std::strtod(s, &end));
      s = end;
    } else {
      ++s;
    }
  }
  return out;
}

std::size_t count_of(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class FlowRender : public ::testing::Test {
 protected:
  void SetUp() override {
    // A wall across the middle, and a pocket in the top-right corner no goal reaches.
    for (int y = 2; y < 10; ++y) g.set_blocked(8, y, true);
    g.set_blocked(18, 0, true);
    g.set_blocked(18, 1, true);
    g.set_blocked(19, 1, true);
    ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}).has_value());
    p.grid = &g;
    p.field = &f;
  }
  [[nodiscard]] bool is_arrow_cell(Cell c) const {
    return std::isfinite(f.distance(c)) && !(c == goal);
  }
  grid::Grid g{20, 12};
  Cell goal{16, 6};
  Cell pocket{19, 0};
  flow::Field f;
  render::FlowPicture p;
};

TEST_F(FlowRender, PngShowsGoalWallsUnreachableCellsAndTheDistanceRamp) {
  p.cell_px = 10;
  const Decoded img = decode(render::flow_image(p, "png"));
  ASSERT_FALSE(img.rgb.empty());
  ASSERT_EQ(img.w, 200);
  ASSERT_EQ(img.h, 120);
  EXPECT_TRUE(img.cell_is(goal, 10, palette_rgb(render::kGoal)));
  EXPECT_TRUE(img.cell_is({8, 5}, 10, palette_rgb(render::kWall)));
  EXPECT_TRUE(img.cell_is({18, 1}, 10, palette_rgb(render::kWall)));
  ASSERT_FALSE(std::isfinite(f.distance(pocket)));
  EXPECT_TRUE(img.cell_is(pocket, 10, palette_rgb(render::kFree)));
  // The ramp, read at a cell's corner (arrows stay within 0.35 cells of the centre): nearer
  // cells nearer the kClosedFirst end.
  auto ramp = [&](Cell c) { return ramp_index(img.at(c.x * 10, c.y * 10)); };
  const Cell near{15, 6}, mid{10, 0}, far{0, 11};
  ASSERT_LT(f.distance(near), f.distance(mid));
  ASSERT_LT(f.distance(mid), f.distance(far));
  EXPECT_GE(ramp(near), render::kClosedFirst);
  EXPECT_LT(ramp(near), ramp(mid));
  EXPECT_LT(ramp(mid), ramp(far));
  EXPECT_NE(img.at(near.x * 10, near.y * 10), img.at(far.x * 10, far.y * 10));
  // The farthest reachable cell is the far end of the ramp.
  Cell farthest = goal;
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 20; ++x) {
      const double d = f.distance({x, y});
      if (std::isfinite(d) && d > f.distance(farthest)) farthest = {x, y};
    }
  }
  EXPECT_EQ(img.at(farthest.x * 10, farthest.y * 10), palette_rgb(255));
}

TEST_F(FlowRender, PngFileMatchesTheBytesInMemoryAndFitsAbout800Pixels) {
  const std::string path = pathlab::testing::temp_path("flow.PNG");
  render::write_flow(p, path);
  const std::string file = read_file(path);
  std::filesystem::remove(path);
  EXPECT_EQ(file, render::flow_image(p, "png"));
  const Decoded img = decode(file);
  EXPECT_EQ(img.w, 800);  // 800 / 20 = 40 px a cell
  EXPECT_EQ(img.h, 480);
  EXPECT_TRUE(img.cell_is(goal, 40, palette_rgb(render::kGoal)));
}

TEST_F(FlowRender, PngArrowsOnlyOnCellsOfSixPixelsOrMore) {
  const Rgb arrow = palette_rgb(render::kForce);
  p.cell_px = 6;
  Decoded img = decode(render::flow_image(p, "png"));
  EXPECT_EQ(img.at(15 * 6 + 3, 6 * 6 + 3), arrow);  // the middle of a cell next to the goal
  EXPECT_GT(img.count(arrow), 200);
  p.cell_px = 5;
  img = decode(render::flow_image(p, "png"));
  EXPECT_EQ(img.w, 100);
  EXPECT_EQ(img.count(arrow), 0);
  p.cell_px = 10;
  p.arrows = false;
  img = decode(render::flow_image(p, "png"));
  EXPECT_EQ(img.count(arrow), 0);
}

TEST_F(FlowRender, SvgHasOneArrowPerReachableCellThatIsNotAGoal) {
  p.cell_px = 8;
  const std::string svg = render::flow_image(p, "svg");
  ASSERT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("width=\"160\" height=\"96\" viewBox=\"0 0 20 12\""), std::string::npos);
  const std::string arrows = section(svg, "<g class=\"arrows\"", "</g>");
  ASSERT_FALSE(arrows.empty());
  int cells = 0, seeing = 0;
  std::map<int, int> by_dir;
  for (int y = 0; y < 12; ++y) {
    for (int x = 0; x < 20; ++x) {
      if (!is_arrow_cell({x, y})) continue;
      ++cells;
      if (f.sees({x, y}) >= 0) {
        ++seeing;
      } else {
        ++by_dir[f.direction({x, y})];
      }
    }
  }
  EXPECT_EQ(cells, 20 * 12 - 11 - 1 - 1);  // walls, the pocket, the goal
  EXPECT_EQ(count_of(arrows, "M"), static_cast<std::size_t>(cells));
  // Each direction's arrows in its own path; the cells that see the goal in another.
  ASSERT_GT(seeing, 0);
  EXPECT_EQ(count_of(path_data(svg, "sees"), "M"), static_cast<std::size_t>(seeing));
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(count_of(path_data(svg, "dir" + std::to_string(k)), "M"),
              static_cast<std::size_t>(by_dir[k]))
        << "direction " << k;
  }
  // Too small for arrows, or arrows off: none.
  p.cell_px = 5;
  EXPECT_EQ(render::flow_image(p, "svg").find("class=\"arrows\""), std::string::npos);
  p.cell_px = 8;
  p.arrows = false;
  EXPECT_EQ(render::flow_image(p, "svg").find("class=\"arrows\""), std::string::npos);
}

TEST_F(FlowRender, SvgArrowsPointAlongTheirDirectionOrAtTheGoal) {
  p.cell_px = 12;
  const std::string svg = render::flow_image(p, "svg");
  // A cell that sees the goal: "M tail l shaft ..." with the shaft's middle at the cell's centre
  // and the shaft along the line to the goal's centre.
  const std::vector<double> v = numbers(path_data(svg, "sees"));
  const std::string d = path_data(svg, "sees");
  ASSERT_EQ(count_of(d, "M") * 10, v.size());  // tail, shaft and three head moves each
  for (std::size_t i = 0; i < v.size(); i += 10) {
    const double mx = v[i] + v[i + 2] / 2, my = v[i + 1] + v[i + 3] / 2;
    const Cell c{static_cast<int>(std::floor(mx)), static_cast<int>(std::floor(my))};
    EXPECT_NEAR(mx, c.x + 0.5, 0.02);
    EXPECT_NEAR(my, c.y + 0.5, 0.02);
    ASSERT_TRUE(is_arrow_cell(c));
    EXPECT_EQ(f.sees(c), 0);
    const double gx = goal.x - c.x, gy = goal.y - c.y;
    EXPECT_NEAR(std::atan2(v[i + 3], v[i + 2]), std::atan2(gy, gx), 0.01)
        << "cell " << c.x << "," << c.y;
  }
  // A grid direction: its path's shaft (the first relative move) along the direction.
  for (int k = 0; k < 8; ++k) {
    const std::string dk = path_data(svg, "dir" + std::to_string(k));
    if (dk.empty()) continue;
    const std::vector<double> w = numbers(dk.substr(0, dk.find('M', 1)));
    ASSERT_GE(w.size(), 4u);
    EXPECT_NEAR(std::atan2(w[3], w[2]),
                std::atan2(flow::kDirDy[static_cast<std::size_t>(k)],
                           flow::kDirDx[static_cast<std::size_t>(k)]),
                0.01)
        << "direction " << k;
    const Cell c{static_cast<int>(w[0]), static_cast<int>(w[1])};
    EXPECT_EQ(f.direction(c), k);
    EXPECT_LT(f.sees(c), 0);
  }
}

TEST_F(FlowRender, SvgCellsAreRowRunsCoveringTheMap) {
  p.cell_px = 4;
  const std::string svg = render::flow_image(p, "svg");
  const std::string cells = section(svg, "<g class=\"cells\"", "</g>");
  // Each run is "M x y h n v1 h-n z"; add up the cells per colour.
  std::map<std::string, int> area;
  for (auto at = cells.find("<path fill=\""); at != std::string::npos;
       at = cells.find("<path fill=\"", at + 1)) {
    const std::string colour = cells.substr(at + 12, 7);
    const auto d = cells.find(" d=\"", at) + 4;
    const std::vector<double> v = numbers(cells.substr(d, cells.find('"', d) - d));
    ASSERT_EQ(v.size() % 5, 0u);
    for (std::size_t i = 0; i < v.size(); i += 5) area[colour] += static_cast<int>(v[i + 2]);
  }
  int total = 0;
  for (const auto& [colour, n] : area) total += n;
  EXPECT_EQ(total, 20 * 12);
  auto hex = [](std::uint8_t k) {
    const Rgb c = palette_rgb(k);
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return std::string(buf);
  };
  EXPECT_EQ(area[hex(render::kWall)], 11);
  EXPECT_EQ(area[hex(render::kGoal)], 1);
  EXPECT_EQ(area[hex(render::kFree)], 1);                     // the pocket
  EXPECT_NE(cells.find("M16 6h1v1h-1z"), std::string::npos);  // the goal's run
  // Small cells: a dot marks the goal.
  EXPECT_NE(svg.find("<circle cx=\"16.5\" cy=\"6.5\""), std::string::npos);
}

TEST_F(FlowRender, SectorsAreOutlinedSolidWhenComputedAndDashedOtherwise) {
  p.cell_px = 10;
  p.sector = 8;                          // 3 x 2 sectors
  p.sectors_built = {1, 0, 0, 0, 0, 1};  // the top-left and the bottom-right one
  const std::string svg = render::flow_image(p, "svg");
  const std::string built = section(svg, "<g class=\"sectors-built\"", "</g>");
  const std::string pending = section(svg, "<g class=\"sectors-pending\"", "</g>");
  EXPECT_EQ(count_of(built, "<rect"), 2u);
  EXPECT_EQ(count_of(pending, "<rect"), 4u);
  EXPECT_EQ(built.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(pending.find("stroke-dasharray"), std::string::npos);
  // PNG: the computed sector's left edge is one colour top to bottom, the others' dashed.
  const Decoded img = decode(render::flow_image(p, "png"));
  ASSERT_EQ(img.w, 200);
  const Rgb line = img.at(0, 0);
  EXPECT_EQ(ramp_index(line), -1);
  for (int y = 0; y < 80; ++y) EXPECT_EQ(img.at(0, y), line) << y;
  int on = 0;
  for (int y = 0; y < 80; ++y) on += img.at(80, y) == line ? 1 : 0;  // sector (1, 0)
  EXPECT_GT(on, 10);
  EXPECT_LT(on, 70);
  // Without sectors, no outline.
  p.sector = 0;
  EXPECT_EQ(render::flow_image(p, "svg").find("sectors"), std::string::npos);
  EXPECT_NE(decode(render::flow_image(p, "png")).at(0, 0), line);
  // Every sector pending when sectors_built is empty; the wrong count is refused.
  p.sector = 8;
  p.sectors_built.clear();
  EXPECT_EQ(count_of(section(render::flow_image(p, "svg"), "<g class=\"sectors-pending\"", "</g>"),
                     "<rect"),
            6u);
  p.sectors_built = {1, 0, 0};
  EXPECT_THROW((void)render::flow_image(p, "svg"), std::runtime_error);
}

TEST_F(FlowRender, BigMapsStaySmall) {
  grid::Grid big(512, 512);
  std::mt19937 rng(7);
  for (int y = 0; y < 512; ++y) {
    for (int x = 0; x < 512; ++x) {
      if (rng() % 5 == 0) big.set_blocked(x, y, true);
    }
  }
  const Cell c{256, 256};
  big.set_blocked(c.x, c.y, false);
  flow::Field bf;
  ASSERT_FALSE(bf.build(big, std::span<const Cell>(&c, 1), flow::Options{}).has_value());
  render::FlowPicture bp;
  bp.grid = &big;
  bp.field = &bf;
  const std::string svg = render::flow_image(bp, "svg");
  EXPECT_LT(svg.size(), 10u << 20) << svg.size();
  const Decoded img = decode(render::flow_image(bp, "png"));
  EXPECT_EQ(img.w, 512);  // 800 / 512 rounds down to 1 px a cell
  EXPECT_EQ(img.h, 512);
  EXPECT_EQ(img.at(c.x, c.y), palette_rgb(render::kGoal));
  // With arrows (6 px cells): still compact.
  bp.cell_px = 6;
  const std::string svg6 = render::flow_image(bp, "svg");
  EXPECT_NE(svg6.find("class=\"arrows\""), std::string::npos);
  EXPECT_LT(svg6.size(), 10u << 20) << svg6.size();
  std::printf("512x512: SVG %zu bytes at 1 px a cell, %zu bytes at 6 px with arrows\n", svg.size(),
              svg6.size());
}

TEST_F(FlowRender, OtherFormatsAndBadPicturesAreRefused) {
  for (const char* name : {"flow.gif", "flow.bmp", "flow", "flow.png.txt"}) {
    try {
      render::write_flow(p, pathlab::testing::temp_path(name));
      ADD_FAILURE() << name << " was written";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("use .png or .svg"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)render::flow_image(p, "jpeg"), std::runtime_error);
  EXPECT_NO_THROW((void)render::flow_image(p, "SVG"));
  // A write failure names the file.
  const std::string missing = "/nonexistent-dir-pathlab/flow.png";
  try {
    render::write_flow(p, missing);
    ADD_FAILURE() << "wrote into a missing directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  // A field of another map, no field, negative sizes.
  const grid::Grid other(5, 5);
  render::FlowPicture q = p;
  q.grid = &other;
  EXPECT_THROW((void)render::flow_image(q, "png"), std::runtime_error);
  q = p;
  q.field = nullptr;
  EXPECT_THROW((void)render::flow_image(q, "png"), std::runtime_error);
  flow::Field empty;
  q.field = &empty;
  EXPECT_THROW((void)render::flow_image(q, "svg"), std::runtime_error);
  q = p;
  q.cell_px = -1;
  EXPECT_THROW((void)render::flow_image(q, "png"), std::runtime_error);
  q = p;
  q.sector = -4;
  EXPECT_THROW((void)render::flow_image(q, "svg"), std::runtime_error);
}

}  // namespace
}  // namespace pathlab::flow_render_test
