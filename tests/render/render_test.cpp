// Render module tests: what each cell is drawn as (walls, terrain, expansion order, open set,
// path, start, goal), panel layout, and that the PNG, GIF and SVG files decode back to the
// same picture (the GIF's frames composed in order end on the full picture).
#include <gtest/gtest.h>

#include <gif_lib.h>
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <pathlab/render/render.hpp>
#include <pathlab/search/pathfinder.hpp>
#include "render_test_util.hpp"

#include "test_grids.hpp"

using namespace pathlab;
using render::IndexedImage;
namespace fs = std::filesystem;

namespace {

using pathlab::testing::count;
using pathlab::testing::pixel;
using pathlab::testing::temp_path;

struct Fixture {
  grid::Grid grid{5, 3};
  std::vector<search::TraceEvent> trace;
  std::vector<Cell> path{{0, 0}, {1, 0}, {2, 0}, {3, 0}};
  Fixture() {
    grid.set_blocked(1, 1, true);
    grid.set_terrain(4, 2, 5.0f);
    using search::EventType;
    trace = {
        {EventType::opened, 0, {0, 0}, {0, 0}, 0, 0}, {EventType::closed, 0, {0, 0}, {}, 0, 0},
        {EventType::opened, 0, {0, 1}, {0, 0}, 1, 1}, {EventType::opened, 0, {1, 0}, {0, 0}, 1, 1},
        {EventType::closed, 0, {0, 1}, {}, 0, 0},     {EventType::opened, 0, {0, 2}, {0, 1}, 2, 2},
        {EventType::closed, 0, {1, 0}, {}, 0, 0}};
  }
  render::Scene scene() const { return {&grid, Cell{0, 0}, Cell{3, 0}, {{"test", &trace, &path}}}; }
};

std::uint8_t at(const IndexedImage& img, int cp, int x, int y, int x0 = 0) {
  const int px = x0 + x * cp + cp / 2, py = y * cp + cp / 2;
  return img.pixels[static_cast<std::size_t>(py) * static_cast<std::size_t>(img.width) +
                    static_cast<std::size_t>(px)];
}

TEST(Render, CellsShowWhatHappened) {
  Fixture f;
  render::Options o;
  o.cell_px = 4;
  const IndexedImage img = render::draw(f.scene(), o);
  ASSERT_EQ(img.width, 20);
  ASSERT_EQ(img.height, 12);
  EXPECT_EQ(at(img, 4, 1, 1), render::kWall);
  EXPECT_EQ(at(img, 4, 0, 0), render::kStart);
  EXPECT_EQ(at(img, 4, 3, 0), render::kGoal);
  EXPECT_EQ(at(img, 4, 1, 0), render::kPath);
  EXPECT_EQ(at(img, 4, 2, 0), render::kPath);
  EXPECT_EQ(at(img, 4, 0, 2), render::kOpen);  // opened, never closed
  EXPECT_GE(at(img, 4, 0, 1), render::kClosedFirst);
  EXPECT_EQ(at(img, 4, 2, 2), render::kFree);
  EXPECT_EQ(at(img, 4, 4, 2), render::kTerrainFirst + 3);  // cost 5
}

TEST(Render, ExpansionOrderRunsAlongTheGradient) {
  Fixture f;
  f.path.clear();
  render::Options o;
  o.cell_px = 2;
  const IndexedImage img = render::draw(f.scene(), o);
  // Closed order: (0,0) is the start marker; (0,1) second, (1,0) last.
  EXPECT_LT(at(img, 2, 0, 1), at(img, 2, 1, 0));
  EXPECT_EQ(at(img, 2, 1, 0), 255);
}

TEST(Render, PartialTraceShowsNoPathYet) {
  Fixture f;
  render::Options o;
  o.cell_px = 3;
  const IndexedImage none = render::draw(f.scene(), o, 0);
  EXPECT_EQ(at(none, 3, 1, 0), render::kFree);
  EXPECT_EQ(at(none, 3, 0, 1), render::kFree);
  const IndexedImage some = render::draw(f.scene(), o, 4);
  EXPECT_EQ(at(some, 3, 1, 0), render::kOpen);
  EXPECT_EQ(at(some, 3, 0, 2), render::kFree);
}

TEST(Render, PanelsSitSideBySide) {
  Fixture f;
  render::Scene s = f.scene();
  s.panels.push_back({"no trace", nullptr, nullptr});
  render::Options o;
  o.cell_px = 4;
  const IndexedImage img = render::draw(s, o);
  const int pw = 5 * 4;
  ASSERT_GT(img.width, 2 * pw);
  const int x0 = img.width - pw;
  EXPECT_EQ(at(img, 4, 1, 0, x0), render::kFree);  // the second panel has no path
  EXPECT_EQ(at(img, 4, 1, 1, x0), render::kWall);
  EXPECT_EQ(at(img, 4, 1, 0), render::kPath);
}

TEST(Render, PngDecodesToThePalettePicture) {
  Fixture f;
  render::Options o;
  o.cell_px = 4;
  const std::string path = temp_path("fixture.png");
  render::write_png(f.scene(), path, o);
  int w = 0, h = 0, n = 0;
  unsigned char* rgb = stbi_load(path.c_str(), &w, &h, &n, 3);
  ASSERT_NE(rgb, nullptr);
  const IndexedImage img = render::draw(f.scene(), o);
  ASSERT_EQ(w, img.width);
  ASSERT_EQ(h, img.height);
  const auto& pal = render::palette();
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) ASSERT_EQ(rgb[i * 3 + c], pal[img.pixels[i] * 3u + c]) << i;
  }
  stbi_image_free(rgb);
  fs::remove(path);
}

TEST(Render, GifFramesComposeToTheFinalPicture) {
  // A real search on a random map, two algorithms in lockstep.
  const grid::Grid g = pathlab::testing::random_grid(4, 24, 16, 25, true);
  const auto cells = pathlab::testing::passable_cells(g);
  const Cell s = cells.front(), t = cells.back();
  search::TraceRecorder ra, rd;
  search::Options oa, od;
  od.algorithm = search::Algorithm::dijkstra;
  const auto a = search::Pathfinder(g, oa).find(s, t, &ra);
  const auto d = search::Pathfinder(g, od).find(s, t, &rd);
  render::Scene scene{
      &g, s, t, {{"astar", &ra.events(), &a.path}, {"dijkstra", &rd.events(), &d.path}}};
  render::Options o;
  o.cell_px = 3;
  o.frames = 20;
  const std::string path = temp_path("race.gif");
  render::write_gif(scene, path, o);

  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  const IndexedImage full = render::draw(scene, o);
  ASSERT_EQ(gif->SWidth, full.width);
  ASSERT_EQ(gif->SHeight, full.height);
  EXPECT_GE(gif->ImageCount, 10);
  EXPECT_LE(gif->ImageCount, 22);
  std::vector<std::uint8_t> canvas(full.pixels.size(), 0);
  for (int k = 0; k < gif->ImageCount; ++k) {
    const SavedImage& im = gif->SavedImages[k];
    const GifImageDesc& dsc = im.ImageDesc;
    for (int y = 0; y < dsc.Height; ++y)
      for (int x = 0; x < dsc.Width; ++x)
        canvas[static_cast<std::size_t>(dsc.Top + y) * static_cast<std::size_t>(full.width) +
               static_cast<std::size_t>(dsc.Left + x)] =
            im.RasterBits[static_cast<std::size_t>(y) * static_cast<std::size_t>(dsc.Width) +
                          static_cast<std::size_t>(x)];
  }
  EXPECT_EQ(canvas, full.pixels);
  DGifCloseFile(gif, &err);
  fs::remove(path);
}

TEST(Render, SvgCarriesTheMapAndThePath) {
  Fixture f;
  render::Options o;
  o.cell_px = 10;
  const std::string text = render::svg(f.scene(), o);
  EXPECT_NE(text.find("width=\"50\" height=\"30\""), std::string::npos);
  const auto poly = text.find("<polyline class=\"path\"");
  ASSERT_NE(poly, std::string::npos);
  const auto pts_begin = text.find("points=\"", poly) + 8;
  const std::string pts = text.substr(pts_begin, text.find('"', pts_begin) - pts_begin);
  std::istringstream in(pts);
  std::string pt;
  int count = 0;
  while (in >> pt) ++count;
  EXPECT_EQ(count, 4);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
}

// ---- any-angle and smoothed segments -----------------------------------------------------

TEST(RenderLines, PolylineIsPlottedAlongItsSegments) {
  const grid::Grid g(10, 10);
  const std::vector<Point> line{{0.5, 0.5}, {9.5, 3.5}, {9.5, 9.5}};
  render::Scene s{&g, Cell{0, 0}, Cell{9, 9}, {{"theta", nullptr, nullptr, &line}}};
  render::Options o;
  o.cell_px = 8;
  const IndexedImage img = render::draw(s, o);
  // Points along each segment (pixel = map units * 8) are on the line; the vertices carry dots.
  for (std::size_t i = 1; i < line.size(); ++i) {
    for (int k = 0; k <= 10; ++k) {
      const double t = k / 10.0;
      const double x = (line[i - 1].x + (line[i].x - line[i - 1].x) * t) * 8;
      const double y = (line[i - 1].y + (line[i].y - line[i - 1].y) * t) * 8;
      EXPECT_EQ(pixel(img, static_cast<int>(x), static_cast<int>(y)), render::kLine)
          << "segment " << i << " t=" << t;
    }
  }
  EXPECT_EQ(pixel(img, 40, 16), render::kLine);  // the first segment's midpoint (5, 2)
  EXPECT_EQ(pixel(img, 4, 4), render::kLine);    // the dot over the start marker
  EXPECT_EQ(pixel(img, 76, 28), render::kLine);  // the turn at (9.5, 3.5)
  // Well off the segments the map shows through.
  EXPECT_EQ(pixel(img, 40, 60), render::kFree);
  EXPECT_EQ(pixel(img, 8, 40), render::kFree);
  EXPECT_EQ(count(img, render::kSmoothed), 0u);
}

TEST(RenderLines, SmoothedPathHasItsOwnColourOverThePath) {
  const grid::Grid g(10, 10);
  std::vector<Cell> path;
  for (int x = 0; x <= 9; ++x) path.push_back({x, 0});
  for (int y = 1; y <= 9; ++y) path.push_back({9, y});
  const std::vector<Point> smoothed{{0.5, 0.5}, {9.5, 9.5}};
  render::Scene s{&g, Cell{0, 0}, Cell{9, 9}, {{"astar", nullptr, &path, nullptr, &smoothed}}};
  render::Options o;
  o.cell_px = 8;
  const IndexedImage img = render::draw(s, o);
  EXPECT_EQ(pixel(img, 40, 40), render::kSmoothed);  // midpoint of the diagonal
  EXPECT_EQ(pixel(img, 20, 20), render::kSmoothed);
  EXPECT_EQ(at(img, 8, 5, 0), render::kPath);  // the grid path is still drawn
  EXPECT_EQ(at(img, 8, 0, 5), render::kFree);
  EXPECT_EQ(count(img, render::kLine), 0u);
}

TEST(RenderLines, NothingIsDrawnWithoutPolylines) {
  Fixture f;
  render::Options o;
  o.cell_px = 8;
  const IndexedImage img = render::draw(f.scene(), o);
  EXPECT_EQ(count(img, render::kLine), 0u);
  EXPECT_EQ(count(img, render::kSmoothed), 0u);
  EXPECT_EQ(count(img, render::kSightClear) + count(img, render::kSightBlocked), 0u);
  const std::string text = render::svg(f.scene(), o);
  EXPECT_EQ(text.find("class=\"line\""), std::string::npos);
  EXPECT_EQ(text.find("class=\"smoothed\""), std::string::npos);
}

TEST(RenderLines, LatticeCornersAtTheFarEdgeStayInTheirPanel) {
  const grid::Grid g(10, 10);
  const std::vector<Point> line{{0.0, 0.0}, {10.0, 10.0}};  // anyangle-exact: corner points
  render::Scene s{&g, {}, {}, {{"exact", nullptr, nullptr, &line}, {"empty", nullptr, nullptr}}};
  render::Options o;
  o.cell_px = 8;
  const IndexedImage img = render::draw(s, o);
  EXPECT_EQ(pixel(img, 0, 0), render::kLine);
  EXPECT_EQ(pixel(img, 79, 79), render::kLine);
  for (int x = 80; x < img.width; ++x) {
    for (int y = 0; y < img.height; ++y)
      ASSERT_NE(pixel(img, x, y), render::kLine) << x << "," << y;
  }
}

TEST(RenderLines, LinesWaitForTheWholeTraceAndSightChecksShowMeanwhile) {
  const grid::Grid g(10, 10);
  const std::vector<Point> line{{0.5, 0.5}, {9.5, 9.5}};
  using search::EventType;
  const std::vector<search::TraceEvent> trace{
      {EventType::opened, 0, {0, 0}, {0, 0}, 0, 0},
      {EventType::closed, 0, {0, 0}, {}, 0, 0},
      {EventType::line_of_sight, 0, {0, 0}, {9, 0}, 0, 0},  // blocked: red
      {EventType::line_of_sight, 0, {0, 0}, {0, 9}, 1, 0},  // visible: green, the latest
      {EventType::closed, 0, {1, 1}, {}, 0, 0},
  };
  render::Scene s{&g, Cell{0, 0}, Cell{9, 9}, {{"theta", &trace, nullptr, &line}}};
  render::Options o;
  o.cell_px = 8;
  const IndexedImage early = render::draw(s, o, 4);
  EXPECT_EQ(count(early, render::kLine), 0u);
  EXPECT_EQ(count(early, render::kSightBlocked), 0u);  // only the latest check is drawn
  EXPECT_EQ(pixel(early, 4, 40), render::kSightClear);
  const IndexedImage full = render::draw(s, o);
  EXPECT_EQ(count(full, render::kSightClear), 0u);
  EXPECT_EQ(pixel(full, 40, 40), render::kLine);
}

TEST(RenderLines, GifEndsOnTheThetaPath) {
  const grid::Grid g = pathlab::testing::random_grid(7, 24, 16, 20, false);
  const auto cells = pathlab::testing::passable_cells(g);
  const Cell s = cells.front(), t = cells.back();
  search::TraceRecorder rec;
  search::Options opt;
  opt.algorithm = search::Algorithm::theta;
  const auto r = search::Pathfinder(g, opt).find(s, t, &rec);
  ASSERT_EQ(r.status, Status::found);
  const std::vector<Point> pts = search::path_points(r);
  render::Scene scene{&g, s, t, {{"theta", &rec.events(), &r.path, &pts}}};
  render::Options o;
  o.cell_px = 4;
  o.frames = 10;
  const std::string path = temp_path("theta.gif");
  render::write_gif(scene, path, o);
  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  const IndexedImage full = render::draw(scene, o);
  EXPECT_GT(count(full, render::kLine), 0u);
  std::vector<std::uint8_t> canvas(full.pixels.size(), 0);
  bool sight = false;
  for (int k = 0; k < gif->ImageCount; ++k) {
    const SavedImage& im = gif->SavedImages[k];
    const GifImageDesc& dsc = im.ImageDesc;
    for (int y = 0; y < dsc.Height; ++y) {
      for (int x = 0; x < dsc.Width; ++x) {
        const std::uint8_t v =
            im.RasterBits[static_cast<std::size_t>(y) * static_cast<std::size_t>(dsc.Width) +
                          static_cast<std::size_t>(x)];
        sight = sight || v == render::kSightClear || v == render::kSightBlocked;
        canvas[static_cast<std::size_t>(dsc.Top + y) * static_cast<std::size_t>(full.width) +
               static_cast<std::size_t>(dsc.Left + x)] = v;
      }
    }
  }
  EXPECT_EQ(canvas, full.pixels);
  EXPECT_TRUE(sight) << "no frame shows a line-of-sight check";
  DGifCloseFile(gif, &err);
  fs::remove(path);
}

TEST(RenderLines, SvgDrawsScaledPolylines) {
  const grid::Grid g(10, 10);
  const std::vector<Cell> turns{{0, 0}, {9, 3}};
  const std::vector<Point> line{{0.5, 0.5}, {9.5, 3.5}};
  const std::vector<Point> smoothed{{0.5, 0.5}, {4.0, 2.0}, {9.5, 3.5}};
  render::Scene s{
      &g, Cell{0, 0}, Cell{9, 3}, {{"<theta & co>", nullptr, &turns, &line, &smoothed}}};
  render::Options o;
  o.cell_px = 10;
  const std::string text = render::svg(s, o);
  auto points = [&](const std::string& cls) {
    std::vector<double> out;
    const auto at = text.find("<polyline class=\"" + cls + "\"");
    if (at == std::string::npos) return out;
    const auto tag_end = text.find("/>", at);
    EXPECT_NE(text.substr(at, tag_end - at).find("stroke-linejoin=\"round\""), std::string::npos);
    const auto b = text.find("points=\"", at) + 8;
    std::string pts = text.substr(b, text.find('"', b) - b);
    std::replace(pts.begin(), pts.end(), ',', ' ');
    std::istringstream in(pts);
    for (double v; in >> v;) out.push_back(v);
    return out;
  };
  EXPECT_EQ(points("line"), (std::vector<double>{5, 5, 95, 35}));
  EXPECT_EQ(points("smoothed"), (std::vector<double>{5, 5, 40, 20, 95, 35}));
  // Stacked as in the raster: the smoothed path under the any-angle one.
  EXPECT_LT(text.find("class=\"smoothed\""), text.find("class=\"line\""));
  // The polyline replaces the path's own line (its cells are only the turns).
  EXPECT_EQ(text.find("class=\"path\""), std::string::npos);
  EXPECT_NE(text.find("<circle class=\"line-vertex\""), std::string::npos);
  // Segments are vectors, not pixels in the cell rectangles.
  const auto& pal = render::palette();
  char line_colour[8];
  std::snprintf(line_colour, sizeof line_colour, "#%02x%02x%02x", pal[render::kLine * 3u],
                pal[render::kLine * 3u + 1], pal[render::kLine * 3u + 2]);
  std::istringstream lines(text);
  int rects = 0;
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("<rect", 0) != 0) continue;
    ++rects;
    EXPECT_EQ(l.find(line_colour), std::string::npos) << l;
  }
  EXPECT_GT(rects, 0);
  EXPECT_NE(text.find("&lt;theta &amp; co&gt;"), std::string::npos);
}

TEST(Render, UnknownExtensionOrEmptySceneIsAnError) {
  Fixture f;
  EXPECT_THROW(render::render_file(f.scene(), temp_path("x.bmp")), std::runtime_error);
  EXPECT_THROW(render::render_file(f.scene(), "/nonexistent-dir/x.png"), std::runtime_error);
  grid::Grid empty;
  render::Scene s{&empty, {}, {}, {}};
  EXPECT_THROW((void)render::draw(s, {}), std::invalid_argument);
}

}  // namespace

namespace {

TEST(RenderText, PictureUsesTheLegend) {
  Fixture f;
  const std::string plain = render::text_picture(f.scene(), false);
  EXPECT_EQ(plain,
            "S**G \n"    // start, path, goal
            ".#   \n"    // (0,1) expanded, (1,1) wall
            "o   5\n");  // (0,2) opened only; terrain 5
  const std::string coloured = render::text_picture(f.scene(), true);
  EXPECT_NE(coloured.find("\x1b["), std::string::npos);
  EXPECT_EQ(plain.find("\x1b["), std::string::npos);
}

TEST(RenderText, PolylineAndSmoothedMarkTheCellsTheyCross) {
  const grid::Grid g(5, 3);
  const std::vector<Cell> turns{{0, 0}, {4, 2}};
  const std::vector<Point> line{{0.5, 0.5}, {4.5, 2.5}};
  render::Scene s{&g, Cell{0, 0}, Cell{4, 2}, {{"theta", nullptr, &turns, &line}}};
  EXPECT_EQ(render::text_picture(s, false),
            "S*   \n"
            " *** \n"
            "   *G\n");
  std::vector<Cell> path{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {4, 1}, {4, 2}};
  s.panels = {{"astar", nullptr, &path, nullptr, &line}};  // the same segment, smoothed
  EXPECT_EQ(render::text_picture(s, false),
            "S****\n"
            " +++*\n"
            "   +G\n");
}

}  // namespace
