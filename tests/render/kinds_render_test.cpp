// Renders of every map kind (shared docs/DESIGN.md, "Every map a game has"): hex maps drawn as
// hexes (the pixel at every hex centre has exactly the cell's colour; the SVG has one polygon per
// hex), thin walls as lines on cell edges (every wall pixel lies on a blocked edge, every blocked
// edge is drawn), layered maps with every floor side by side and the links marked, and a path
// that takes a link showing where; the GIF of a search trace on a hex map.
#include <gtest/gtest.h>

#include <gif_lib.h>

#include <pathlab/grid/hex.hpp>
#include <pathlab/render/render.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "render_test_util.hpp"

using namespace pathlab;
using grid::Layout;
using pathlab::testing::count;
using pathlab::testing::pixel;

namespace kinds_render {

constexpr Layout kHexLayouts[] = {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                                  Layout::flat_even_q};

std::size_t occurrences(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

/// The pixel of image coordinates p (a point in pixels).
std::uint8_t at(const render::IndexedImage& img, Point p) {
  return pixel(img, static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)));
}

/// A hex centre in the pixels of a one-floor picture with `unit` pixels per hex unit.
Point hex_px(Layout l, Cell c, int unit, double x0 = 0) {
  const Point p = grid::hex::centre(l, c.x, c.y);
  return {x0 + p.x * unit, p.y * unit};
}

TEST(KindsRender, HexCellsAreDrawnAsHexes) {
  std::mt19937 rng(1);
  for (const Layout l : kHexLayouts) {
    grid::Grid g(13, 9);
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < 13; ++x) g.set_blocked(x, y, rng() % 3 == 0);
    g.set_layout(l);
    render::Scene scene{&g, std::nullopt, std::nullopt, {}};
    render::Options o;
    o.cell_px = 12;
    const render::IndexedImage img = render::draw(scene, o);
    // The picture is the hexes' bounding box.
    const Point e = grid::hex::extent(l, 13, 9);
    EXPECT_EQ(img.width, static_cast<int>(std::ceil(e.x * 12)));
    EXPECT_EQ(img.height, static_cast<int>(std::ceil(e.y * 12)));
    std::size_t walls = 0;
    for (int y = 0; y < 9; ++y) {
      for (int x = 0; x < 13; ++x) {
        const std::uint8_t want = g.passable(x, y) ? render::kFree : render::kWall;
        walls += !g.passable(x, y);
        // The centre, and points well inside the hex (60% of the way to each corner).
        ASSERT_EQ(at(img, hex_px(l, {x, y}, 12)), want)
            << grid::to_string(l) << " " << x << "," << y;
        const Point c = grid::hex::centre(l, x, y);
        for (const Point& k : grid::hex::corners(l, x, y)) {
          const Point q{(c.x + 0.6 * (k.x - c.x)) * 12, (c.y + 0.6 * (k.y - c.y)) * 12};
          ASSERT_EQ(at(img, q), want);
        }
      }
    }
    // Wall pixels cover the walls' hexes: area sqrt(3)/2 hex units^2 each (within 5%).
    const double area = walls * std::sqrt(3.0) / 2 * 144;
    EXPECT_NEAR(static_cast<double>(count(img, render::kWall)), area, 0.05 * area);
    // Outside the hexes: background (the top-left corner of a pointy map, beside row 0's first
    // hex's upper-left edge; the corner of a flat map likewise).
    EXPECT_EQ(pixel(img, 0, 0), render::kBackground);
  }
}

TEST(KindsRender, HexSvgHasOnePolygonPerHex) {
  for (const Layout l : kHexLayouts) {
    grid::Grid g(7, 5);
    g.set_blocked(3, 2, true);
    g.set_layout(l);
    const std::vector<Cell> path = {{0, 0}, {1, 0}, {2, 0}};
    render::Panel p;
    p.path = &path;
    render::Scene scene{&g, Cell{0, 0}, Cell{2, 0}, {p}};
    render::Options o;
    o.cell_px = 10;
    const std::string svg = render::svg(scene, o);
    EXPECT_EQ(occurrences(svg, "<polygon class=\"hex\""), 35u);
    EXPECT_EQ(occurrences(svg, "<rect"), 0u);  // no square cells
    EXPECT_EQ(occurrences(svg, "<polyline class=\"path\""), 1u);
    // The wall's hex is filled with the wall colour, once.
    const auto& pal = render::palette();
    char wall[8];
    std::snprintf(wall, sizeof wall, "#%02x%02x%02x", pal[render::kWall * 3],
                  pal[render::kWall * 3 + 1], pal[render::kWall * 3 + 2]);
    EXPECT_EQ(occurrences(svg, "fill=\"" + std::string(wall) + "\""), 1u);
  }
}

TEST(KindsRender, HexPathTraceAndSmoothedLineFollowTheHexes) {
  const Layout l = Layout::pointy_odd_r;
  grid::Grid g(10, 8);
  g.set_layout(l);
  const std::vector<Cell> path = {{1, 1}, {2, 1}, {2, 2}, {3, 3}, {3, 4}};
  std::vector<search::TraceEvent> trace;
  const std::vector<Cell> closed = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {7, 6}, {3, 3}, {3, 4}};
  for (const Cell c : closed) trace.push_back({search::EventType::closed, 0, c, {}, 0, 0});
  trace.push_back({search::EventType::opened, 0, {8, 6}, {7, 6}, 1, 1});
  const std::vector<Point> smoothed = {grid::hex::centre(l, 1, 1), grid::hex::centre(l, 3, 4)};
  render::Panel p;
  p.path = &path;
  p.trace = &trace;
  p.smoothed = &smoothed;
  render::Scene scene{&g, std::nullopt, std::nullopt, {p}};
  render::Options o;
  o.cell_px = 16;
  const render::IndexedImage done = render::draw(scene, o);
  // Closed cells off the path in the closed ramp, the opened one green, path cells orange (their
  // centres are under the smoothed line's dots at the ends, so look at the middle ones beside it).
  EXPECT_GE(at(done, hex_px(l, {7, 6}, 16)), render::kClosedFirst);
  EXPECT_GE(at(done, hex_px(l, {1, 2}, 16)), render::kClosedFirst);
  EXPECT_EQ(at(done, hex_px(l, {8, 6}, 16)), render::kOpen);
  const Point c22 = hex_px(l, {2, 1}, 16);
  EXPECT_EQ(at(done, {c22.x + 5, c22.y - 5}), render::kPath);
  // The smoothed segment's end dots sit on the hex centres of its points (hex units).
  EXPECT_EQ(at(done, hex_px(l, {1, 1}, 16)), render::kSmoothed);
  EXPECT_EQ(at(done, hex_px(l, {3, 4}, 16)), render::kSmoothed);
  // Halfway through the trace: the late cells are not drawn yet, nor the path.
  const render::IndexedImage half = render::draw(scene, o, 3);
  EXPECT_EQ(at(half, hex_px(l, {7, 6}, 16)), render::kFree);
  EXPECT_EQ(at(half, hex_px(l, {3, 4}, 16)), render::kFree);
  EXPECT_EQ(count(half, render::kPath), 0u);
  // The GIF of the search: every frame the picture's size, the last one the finished picture.
  const std::string file = pathlab::testing::temp_path("hex.gif");
  o.frames = 4;
  render::write_gif(scene, file, o);
  int err = 0;
  GifFileType* gif = DGifOpenFileName(file.c_str(), &err);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->SWidth, done.width);
  EXPECT_EQ(gif->SHeight, done.height);
  EXPECT_GE(gif->ImageCount, 4);
  DGifCloseFile(gif, &err);
  std::remove(file.c_str());
}

TEST(KindsRender, ThinWallsAreLinesOnCellEdges) {
  grid::Grid g(8, 6);
  std::mt19937 rng(3);
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 8; ++x) {
      if (rng() % 4 == 0) g.set_edge_wall(x, y, grid::Side::east, true);
      if (rng() % 4 == 0) g.set_edge_wall(x, y, grid::Side::south, true);
    }
  }
  g.set_edge_wall(0, 2, grid::Side::west, true);  // on the map's border
  g.set_blocked(4, 4, true);
  render::Scene scene{&g, std::nullopt, std::nullopt, {}};
  render::Options o;
  o.cell_px = 18;
  const render::IndexedImage img = render::draw(scene, o);
  ASSERT_EQ(img.width, 8 * 18);
  ASSERT_EQ(img.height, 6 * 18);
  const int t = 18 / 6;
  // Every blocked edge is drawn: the pixels at its middle, on both sides of the line.
  std::vector<std::array<Point, 2>> edges;
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 8; ++x) {
      if (g.edge_wall(x, y, grid::Side::east))
        edges.push_back({Point{x + 1.0, y + 0.0}, Point{x + 1.0, y + 1.0}});
      if (g.edge_wall(x, y, grid::Side::south))
        edges.push_back({Point{x + 0.0, y + 1.0}, Point{x + 1.0, y + 1.0}});
      if (x == 0 && g.edge_wall(x, y, grid::Side::west))
        edges.push_back({Point{0, y + 0.0}, Point{0, y + 1.0}});
    }
  }
  ASSERT_GT(edges.size(), 10u);
  for (const auto& e : edges) {
    const Point m{(e[0].x + e[1].x) / 2 * 18, (e[0].y + e[1].y) / 2 * 18};
    const bool vertical = e[0].x == e[1].x;
    const int mx = static_cast<int>(m.x), my = static_cast<int>(m.y);
    if (vertical) {
      if (mx > 0) {
        EXPECT_EQ(pixel(img, mx - 1, my), render::kEdgeWall);
      }
      if (mx < img.width) {
        EXPECT_EQ(pixel(img, mx, my), render::kEdgeWall);
      }
    } else {
      if (my > 0) {
        EXPECT_EQ(pixel(img, mx, my - 1), render::kEdgeWall);
      }
      if (my < img.height) {
        EXPECT_EQ(pixel(img, mx, my), render::kEdgeWall);
      }
    }
  }
  // Every thin-wall pixel lies on a blocked edge: its centre within t/2 + 0.5 of the edge line.
  std::size_t seen = 0;
  for (int j = 0; j < img.height; ++j) {
    for (int i = 0; i < img.width; ++i) {
      if (pixel(img, i, j) != render::kEdgeWall) continue;
      ++seen;
      bool on_edge = false;
      for (const auto& e : edges) {
        const double ax = e[0].x * 18, ay = e[0].y * 18, bx = e[1].x * 18, by = e[1].y * 18;
        const double px = i + 0.5, py = j + 0.5, r = t / 2.0 + 0.5;
        if (px >= std::min(ax, bx) - r && px <= std::max(ax, bx) + r &&
            py >= std::min(ay, by) - r && py <= std::max(ay, by) + r) {
          on_edge = true;
          break;
        }
      }
      ASSERT_TRUE(on_edge) << "thin-wall pixel off every edge at " << i << "," << j;
    }
  }
  EXPECT_GE(seen, edges.size() * 18 * static_cast<std::size_t>(t) / 2);
  // The wall cell is still drawn as a wall, the cells as before.
  EXPECT_EQ(pixel(img, 4 * 18 + 9, 4 * 18 + 9), render::kWall);
  EXPECT_EQ(pixel(img, 2 * 18 + 9, 1 * 18 + 9), render::kFree);
  // SVG: one line per thin wall.
  const std::string svg = render::svg(scene, o);
  EXPECT_EQ(occurrences(svg, "class=\"edge-wall\""), edges.size());
}

TEST(KindsRender, WallsOnHexEdgesAreLinesOnTheSharedEdges) {
  for (const Layout l : kHexLayouts) {
    grid::Grid g(7, 6);
    g.set_layout(l);
    std::mt19937 rng(5);
    // The walls, each edge once, as the ends of the edge in hex units (the corners both hexes
    // share, found from the corner lists, not from hex::edge).
    std::vector<std::array<Point, 2>> edges;
    std::vector<Point> inward;  // the centre of the hex that names each edge
    for (int y = 0; y < 6; ++y) {
      for (int x = 0; x < 7; ++x) {
        for (int d : {0, 4, 5}) {
          if (rng() % 4 != 0) continue;
          g.set_hex_edge_wall(x, y, d, true);
          const Cell n = grid::hex::neighbour(l, x, y, d);
          std::vector<Point> shared;
          for (const Point p : grid::hex::corners(l, x, y)) {
            for (const Point q : grid::hex::corners(l, n.x, n.y)) {
              if (std::hypot(p.x - q.x, p.y - q.y) < 1e-9) shared.push_back(p);
            }
          }
          ASSERT_EQ(shared.size(), 2u);
          edges.push_back({shared[0], shared[1]});
          inward.push_back(grid::hex::centre(l, x, y));
        }
      }
    }
    ASSERT_GT(edges.size(), 15u);
    render::Scene scene{&g, std::nullopt, std::nullopt, {}};
    render::Options o;
    o.cell_px = 24;
    const render::IndexedImage img = render::draw(scene, o);
    // Every wall is drawn at its middle (the palette's thin-wall colour), and every thin-wall
    // pixel lies within the brush of some wall's segment.
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const auto& e = edges[k];
      // The middle, a pixel toward the naming hex (an edge on the border lies on the image's).
      const Point m{(e[0].x + e[1].x) / 2 * 24, (e[0].y + e[1].y) / 2 * 24};
      const double cx = inward[k].x * 24 - m.x, cy = inward[k].y * 24 - m.y;
      const double len = std::hypot(cx, cy);
      EXPECT_EQ(at(img, {m.x + cx / len, m.y + cy / len}), render::kEdgeWall) << grid::to_string(l);
    }
    const double r = std::max(1, 24 / 6) / 2.0 + 1.5;
    for (int j = 0; j < img.height; ++j) {
      for (int i = 0; i < img.width; ++i) {
        if (pixel(img, i, j) != render::kEdgeWall) continue;
        bool near = false;
        for (const auto& e : edges) {
          const double ax = e[0].x * 24, ay = e[0].y * 24, dx = e[1].x * 24 - ax,
                       dy = e[1].y * 24 - ay;
          const double px = i + 0.5, py = j + 0.5;
          const double t =
              std::clamp(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
          if (std::hypot(px - ax - t * dx, py - ay - t * dy) <= r) {
            near = true;
            break;
          }
        }
        ASSERT_TRUE(near) << grid::to_string(l) << " thin-wall pixel off every edge at " << i << ","
                          << j;
      }
    }
    EXPECT_EQ(occurrences(render::svg(scene, o), "class=\"edge-wall\""), edges.size());
  }
}

TEST(KindsRender, LayeredMapsShowEveryFloorTheLinksAndWhereAPathChangesFloor) {
  for (const Layout l : {Layout::square, Layout::flat_odd_q}) {
    grid::Grid g = grid::Grid::layered(6, 5, 3);
    g.set_layout(l);
    const Cell wall = g.at(2, 4, 3);  // on the last floor
    g.set_blocked(wall.x, wall.y, true);
    // Stairs from floor 0 to floor 1, a ladder from floor 1 to floor 2.
    const Cell s0 = g.at(0, 5, 4), s1 = g.at(1, 5, 4), l1 = g.at(1, 0, 0), l2 = g.at(2, 0, 0);
    ASSERT_FALSE(g.add_link({s0, s1, 2.0f, false}).has_value());
    ASSERT_FALSE(g.add_link({l1, l2, 1.0f, true}).has_value());
    render::Scene bare{&g, std::nullopt, std::nullopt, {}};
    render::Options o;
    o.cell_px = 14;
    const render::IndexedImage img = render::draw(bare, o);
    // Three floors side by side: the picture is three floors wide and one floor high.
    const Point e = is_hex(l) ? grid::hex::extent(l, 6, 5) : Point{6, 5};
    const int fw = static_cast<int>(std::ceil(e.x * 14 - 1e-9));
    EXPECT_GT(img.width, 3 * fw);
    EXPECT_LT(img.width, 3 * fw + 2 * 20);
    EXPECT_EQ(img.height, static_cast<int>(std::ceil(e.y * 14 - 1e-9)));
    const int gap = (img.width - 3 * fw) / 2;
    auto px = [&](int floor, int x, int y) {
      const Point c = is_hex(l) ? grid::hex::centre(l, x, y) : centre(Cell{x, y});
      return Point{floor * (fw + gap) + c.x * 14, c.y * 14};
    };
    // The wall on the last floor is in the third floor's picture, not in the others.
    EXPECT_EQ(at(img, px(2, 4, 3)), render::kWall);
    EXPECT_EQ(at(img, px(0, 4, 3)), render::kFree);
    EXPECT_EQ(at(img, px(1, 4, 3)), render::kFree);
    EXPECT_EQ(count(img, render::kWall) > 0, true);
    // Links: a dot at each end.
    EXPECT_EQ(at(img, px(0, 5, 4)), render::kLink);
    EXPECT_EQ(at(img, px(1, 5, 4)), render::kLink);
    EXPECT_EQ(at(img, px(2, 0, 0)), render::kLink);
    // Between the floors: background.
    EXPECT_EQ(pixel(img, fw + gap / 2, img.height / 2 + 3), render::kBackground);

    // A path from floor 0 up the stairs to floor 1: its link step shows at both ends, and only
    // there (a line between them: its midpoint too).
    std::vector<Cell> path = {g.at(0, 3, 4), g.at(0, 4, 4), s0, s1, g.at(1, 4, 4), g.at(1, 3, 4)};
    render::Panel p;
    p.path = &path;
    render::Scene scene{&g, path.front(), path.back(), {p}};
    const render::IndexedImage withp = render::draw(scene, o);
    EXPECT_EQ(at(withp, px(0, 5, 4)), render::kLinkTaken);
    EXPECT_EQ(at(withp, px(1, 5, 4)), render::kLinkTaken);
    const Point a = px(0, 5, 4), b = px(1, 5, 4);
    EXPECT_EQ(at(withp, {(a.x + b.x) / 2, (a.y + b.y) / 2}), render::kLinkTaken);
    EXPECT_EQ(at(withp, px(2, 0, 0)), render::kLink);  // the link not taken stays a link
    // Start and goal (below the link step's line, which crosses floor 1's row 4 on its way).
    const Point start = px(0, 3, 4), goal = px(1, 3, 4);
    EXPECT_EQ(at(withp, {start.x, start.y + 4}), render::kStart);
    EXPECT_EQ(at(withp, {goal.x, goal.y + 4}), render::kGoal);
    EXPECT_EQ(count(img, render::kLinkTaken), 0u);

    // SVG: the floors' cells, both links, the path per floor and its one link step.
    const std::string svg = render::svg(scene, o);
    if (is_hex(l)) {
      EXPECT_EQ(occurrences(svg, "<polygon class=\"hex\""), 3u * 6 * 5);
    }
    EXPECT_EQ(occurrences(svg, "<line class=\"link"), 2u + 1u);  // "link", "link oneway", taken
    EXPECT_EQ(occurrences(svg, "<line class=\"link-taken\""), 1u);
    EXPECT_EQ(occurrences(svg, "<polyline class=\"path\""), 2u);
    EXPECT_NE(svg.find("width=\"" + std::to_string(img.width) + "\""), std::string::npos);
  }
}

TEST(KindsRender, APointLineChangesFloorWithALinkStep) {
  grid::Grid g = grid::Grid::layered(5, 4, 2);
  ASSERT_FALSE(g.add_link({g.at(0, 4, 3), g.at(1, 4, 3), 1.0f, false}).has_value());
  const std::vector<Point> smoothed = {centre(g.at(0, 0, 0)), centre(g.at(0, 4, 3)),
                                       centre(g.at(1, 4, 3)), centre(g.at(1, 0, 3))};
  render::Panel p;
  p.smoothed = &smoothed;
  render::Scene scene{&g, std::nullopt, std::nullopt, {p}};
  render::Options o;
  o.cell_px = 12;
  const render::IndexedImage img = render::draw(scene, o);
  const int fw = 5 * 12, gap = (img.width - 2 * fw);
  // The segment on floor 1 is drawn in floor 1's picture, at row 3 of that floor.
  EXPECT_EQ(pixel(img, fw + gap + 2 * 12 + 6, 3 * 12 + 6), render::kSmoothed);
  // Between the two ends of the floor change: the link-step line.
  EXPECT_EQ(pixel(img, fw + gap / 2, 3 * 12 + 6), render::kLinkTaken);
}

}  // namespace kinds_render

#include <pathlab/flow/field.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/render/flow.hpp>

#include <stb_image.h>

namespace kinds_render {

/// Decodes PNG bytes into palette indices (each pixel's RGB looked up in the palette).
render::IndexedImage decode(const std::string& png) {
  int w = 0, h = 0, n = 0;
  unsigned char* rgb = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()),
                                             static_cast<int>(png.size()), &w, &h, &n, 3);
  render::IndexedImage img;
  if (rgb == nullptr) return img;
  img.width = w;
  img.height = h;
  const auto& pal = render::palette();
  for (int i = 0; i < w * h; ++i) {
    std::uint8_t best = 0;
    for (int c = 0; c < 256; ++c) {
      if (pal[c * 3] == rgb[i * 3] && pal[c * 3 + 1] == rgb[i * 3 + 1] &&
          pal[c * 3 + 2] == rgb[i * 3 + 2]) {
        best = static_cast<std::uint8_t>(c);
        break;
      }
    }
    img.pixels.push_back(best);
  }
  stbi_image_free(rgb);
  return img;
}

TEST(KindsRender, HexFlowArrowsPointAtTheirNeighbours) {
  for (const Layout l : kHexLayouts) {
    grid::Grid g(9, 8);
    g.set_blocked(4, 3, true);
    g.set_blocked(4, 4, true);
    g.set_layout(l);
    const Cell goal{7, 6};
    flow::Field f;
    flow::Options fo;
    fo.sight_range = 0;  // direction arrows only
    ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), fo).has_value());
    render::FlowPicture pic;
    pic.grid = &g;
    pic.field = &f;
    pic.cell_px = 24;
    const render::IndexedImage img = decode(render::flow_image(pic, "png"));
    const Point e = grid::hex::extent(l, 9, 8);
    ASSERT_EQ(img.width, static_cast<int>(std::ceil(e.x * 24 - 1e-9)));
    ASSERT_EQ(img.height, static_cast<int>(std::ceil(e.y * 24 - 1e-9)));
    EXPECT_EQ(at(img, hex_px(l, {4, 3}, 24)), render::kWall);
    int arrows = 0;
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 9; ++x) {
        const int d = f.direction({x, y});
        if (d < 0 || d > 5) continue;
        // Toward neighbour d: the pixels 0.3 units along the arrow are ink, those 0.3 units to
        // its side are not.
        const grid::hex::Axial a = grid::hex::to_axial(l, x, y);
        const auto step = grid::hex::kDirections[static_cast<std::size_t>(d)];
        const Cell n = grid::hex::from_axial(l, {a.q + step.q, a.r + step.r});
        const Point c = hex_px(l, {x, y}, 24), m = hex_px(l, n, 24);
        const double ux = (m.x - c.x) / 24, uy = (m.y - c.y) / 24;  // unit: neighbours 1 apart
        EXPECT_EQ(at(img, {c.x + 0.25 * 24 * ux, c.y + 0.25 * 24 * uy}), render::kForce);
        EXPECT_NE(at(img, {c.x - 0.3 * 24 * uy, c.y + 0.3 * 24 * ux}), render::kForce);
        ++arrows;
      }
    }
    EXPECT_GT(arrows, 40);
    const std::string svg = render::flow_image(pic, "svg");
    EXPECT_EQ(occurrences(svg, "<polygon class=\"hex\""), 72u);
    EXPECT_EQ(occurrences(svg, "class=\"dir6\""), 0u);
    EXPECT_EQ(occurrences(svg, "class=\"dir7\""), 0u);
  }
}

TEST(KindsRender, LayeredFlowShowsEveryFloorItsLinksAndThinWalls) {
  grid::Grid g = grid::Grid::layered(6, 5, 2);
  ASSERT_FALSE(g.add_link({g.at(0, 5, 4), g.at(1, 5, 4), 1.0f, false}).has_value());
  g.set_edge_wall(2, 1, grid::Side::east, true);
  const Cell goal = g.at(1, 0, 0);
  flow::Field f;
  ASSERT_FALSE(f.build(g, std::span<const Cell>(&goal, 1), flow::Options{}).has_value());
  render::FlowPicture pic;
  pic.grid = &g;
  pic.field = &f;
  pic.cell_px = 20;
  const render::IndexedImage img = decode(render::flow_image(pic, "png"));
  EXPECT_GT(img.width, 2 * 6 * 20);
  EXPECT_EQ(img.height, 5 * 20);
  const int gap = img.width - 2 * 6 * 20;
  // The goal on floor 1, the link's end dots, the thin wall on floor 0.
  EXPECT_EQ(pixel(img, 6 * 20 + gap + 3, 3), render::kGoal);
  // The link's end on floor 0: its dot, or the flow's "take the link" dot over it when the
  // cell's first move is the link.
  const bool takes_link = f.direction(g.at(0, 5, 4)) == grid::link_direction(g.layout());
  EXPECT_EQ(pixel(img, 5 * 20 + 10, 4 * 20 + 10), takes_link ? render::kForce : render::kLink);
  EXPECT_EQ(pixel(img, 3 * 20, 1 * 20 + 10), render::kEdgeWall);
  // A cell whose first move takes the link: a dot there, code 8 (if the field routes over links).
  EXPECT_TRUE(takes_link) << "the goal is on floor 1: the only way there is the link";
  if (takes_link) {
    const std::string svg = render::flow_image(pic, "svg");
    EXPECT_NE(svg.find("class=\"link-move\""), std::string::npos);
  }
  const std::string svg = render::flow_image(pic, "svg");
  EXPECT_EQ(occurrences(svg, "class=\"edge-wall\""), 1u);
  EXPECT_EQ(occurrences(svg, "<line class=\"link\""), 1u);
}

}  // namespace kinds_render
