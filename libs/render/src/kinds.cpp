// Where the cells of every map kind go in a picture, and the thin walls, links and link steps
// drawn over them (see kinds.hpp).
#include "kinds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <pathlab/grid/hex.hpp>

namespace pathlab::render::detail {
namespace {

constexpr double kRowPointy = 0.86602540378443865;  // sqrt(3) / 2: hex rows apart (pointy)

/// Fills `owner` with `value` at the pixels whose centres lie inside the polygon (pixels): the
/// scan-line rule of Plotter::polygon, so neighbouring shapes share no pixel and leave no gap.
void fill_owner(std::vector<std::int32_t>& owner, int w, int h, const std::vector<Point>& pts,
                std::int32_t value) {
  double top = h, bottom = 0;
  for (const Point& q : pts) {
    top = std::min(top, q.y);
    bottom = std::max(bottom, q.y);
  }
  const int j0 = std::max(0, static_cast<int>(std::floor(top)));
  const int j1 = std::min(h - 1, static_cast<int>(std::ceil(bottom)));
  std::vector<double> xs;
  for (int j = j0; j <= j1; ++j) {
    const double y = j + 0.5;
    xs.clear();
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const Point& a = pts[k];
      const Point& b = pts[(k + 1) % pts.size()];
      if ((a.y <= y) == (b.y <= y)) continue;
      xs.push_back(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
    }
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 0; k + 1 < xs.size(); k += 2) {
      const int i0 = std::max(0, static_cast<int>(std::ceil(xs[k] - 0.5)));
      const int i1 = std::min(w - 1, static_cast<int>(std::floor(xs[k + 1] - 0.5)));
      for (int i = i0; i <= i1; ++i) {
        owner[static_cast<std::size_t>(j) * static_cast<std::size_t>(w) +
              static_cast<std::size_t>(i)] = value;
      }
    }
  }
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s(buf);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string points_attr(const std::vector<Point>& pts, double x0) {
  std::string out;
  for (const Point& q : pts) {
    if (!out.empty()) out += ' ';
    out += num(x0 + q.x) + "," + num(q.y);
  }
  return out;
}

std::string svg_line(const char* cls, Point a, Point b, double x0, std::uint8_t colour,
                     double width) {
  return std::string("<line class=\"") + cls + "\" x1=\"" + num(x0 + a.x) + "\" y1=\"" + num(a.y) +
         "\" x2=\"" + num(x0 + b.x) + "\" y2=\"" + num(b.y) + "\" stroke=\"" + svg_colour(colour) +
         "\" stroke-width=\"" + num(width) + "\" stroke-linecap=\"round\"/>\n";
}

std::string svg_circle(const char* cls, Point c, double x0, double r, std::uint8_t colour) {
  return std::string("<circle class=\"") + cls + "\" cx=\"" + num(x0 + c.x) + "\" cy=\"" +
         num(c.y) + "\" r=\"" + num(r) + "\" fill=\"" + svg_colour(colour) + "\"/>\n";
}

double link_dot(const MapFrame& f) {
  return std::max(2.0, f.unit() / 4.0);
}
double taken_dot(const MapFrame& f) {
  return std::max(3.0, f.unit() / 3.0);
}
int taken_width(const MapFrame& f) {
  return std::max(2, f.unit() / 6);
}
int wall_width(const MapFrame& f) {
  return std::max(1, f.unit() / 6);
}

/// The thin walls of the map as segments in map units, with the floor of their cell.
struct EdgeSegment {
  Point a, b;
  int floor;
};
std::vector<EdgeSegment> edge_segments(const MapFrame& f) {
  const grid::Grid& g = f.grid();
  std::vector<EdgeSegment> out;
  for (const grid::EdgeWallAt& w : grid::edge_walls(g)) {
    const int fl = g.layer_of(w.cell.y);
    if (f.hex()) {
      const std::array<Point, 2> e = grid::hex::edge(g.layout(), w.cell.x, w.cell.y, w.side);
      out.push_back({e[0], e[1], fl});
      continue;
    }
    const auto x = static_cast<double>(w.cell.x), y = static_cast<double>(w.cell.y);
    switch (static_cast<grid::Side>(w.side)) {
      case grid::Side::north:
        out.push_back({{x, y}, {x + 1, y}, fl});
        break;
      case grid::Side::east:
        out.push_back({{x + 1, y}, {x + 1, y + 1}, fl});
        break;
      case grid::Side::south:
        out.push_back({{x, y + 1}, {x + 1, y + 1}, fl});
        break;
      case grid::Side::west:
        out.push_back({{x, y}, {x, y + 1}, fl});
        break;
    }
  }
  return out;
}

}  // namespace

MapFrame::MapFrame(const grid::Grid& g, int unit) : g_(&g), hex_(grid::is_hex(g.layout())) {
  const int floors = g.layers(), w = g.width(), lh = g.layer_height();
  const grid::Layout l = g.layout();
  const Point ext =
      hex_ ? grid::hex::extent(l, w, lh) : Point{static_cast<double>(w), static_cast<double>(lh)};
  unit_ = fit_cell_px(static_cast<int>(std::ceil(ext.x * floors)),
                      static_cast<int>(std::ceil(ext.y)), unit);
  row_ = hex_ && grid::hex::pointy(l) ? kRowPointy : 1.0;
  floor_w_ = static_cast<int>(std::ceil(ext.x * unit_ - 1e-9));
  floor_h_ = static_cast<int>(std::ceil(ext.y * unit_ - 1e-9));
  gap_ = floors > 1 ? std::max(6, unit_ / 2) : 0;
  width_ = floors * floor_w_ + (floors - 1) * gap_;
  height_ = floor_h_;
  owner_.assign(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), -1);
  for (const Cell c : cells()) {
    fill_owner(owner_, width_, height_, outline_px(c), c.y * w + c.x);
  }
}

std::vector<Cell> MapFrame::cells() const {
  std::vector<Cell> out;
  out.reserve(static_cast<std::size_t>(g_->cells()));
  for (int y = 0; y < g_->height(); ++y) {
    if (g_->between_layers(y)) continue;
    for (int x = 0; x < g_->width(); ++x) out.push_back({x, y});
  }
  return out;
}

Point MapFrame::centre(Cell c) const noexcept {
  return hex_ ? grid::hex::centre(g_->layout(), c.x, c.y) : pathlab::centre(c);
}

int MapFrame::floor_of(Point p) const noexcept {
  if (g_->layers() == 1 || !std::isfinite(p.y)) return 0;
  const double f = std::floor(p.y / (g_->layer_pitch() * row_));
  return static_cast<int>(std::clamp(f, 0.0, static_cast<double>(g_->layers() - 1)));
}

Point MapFrame::to_px(Point p, int floor) const noexcept {
  return {floor_x(floor) + p.x * unit_, (p.y - floor * g_->layer_pitch() * row_) * unit_};
}

std::vector<Point> MapFrame::outline_px(Cell c) const {
  const int fl = g_->layer_of(c.y);
  std::vector<Point> out;
  if (hex_) {
    for (const Point& q : grid::hex::corners(g_->layout(), c.x, c.y)) out.push_back(to_px(q, fl));
  } else {
    const auto x = static_cast<double>(c.x), y = static_cast<double>(c.y);
    for (const Point q : {Point{x, y}, Point{x + 1, y}, Point{x + 1, y + 1}, Point{x, y + 1}}) {
      out.push_back(to_px(q, fl));
    }
  }
  return out;
}

bool MapFrame::link_step(Cell a, Cell b) const noexcept {
  if (g_->layer_of(a.y) != g_->layer_of(b.y)) return true;
  if (hex_) return grid::hex::distance(g_->layout(), a, b) > 1;
  return std::max(std::abs(a.x - b.x), std::abs(a.y - b.y)) > 1;
}

void paint_frame(IndexedImage& img, int x0, const MapFrame& f,
                 const std::vector<std::uint8_t>& cells) {
  const auto& owner = f.owners();
  for (int j = 0; j < f.height() && j < img.height; ++j) {
    for (int i = 0; i < f.width(); ++i) {
      const std::int32_t o =
          owner[static_cast<std::size_t>(j) * static_cast<std::size_t>(f.width()) +
                static_cast<std::size_t>(i)];
      if (o < 0) continue;
      img.pixels[static_cast<std::size_t>(j) * static_cast<std::size_t>(img.width) +
                 static_cast<std::size_t>(x0 + i)] = cells[static_cast<std::size_t>(o)];
    }
  }
  if (!f.hex() || f.unit() < 10) return;
  // Hexes of one colour side by side would merge: a hairline where one hex meets another of
  // its colour (walls stay solid), on the pixels of the left or upper one.
  auto owner_at = [&](int i, int j) {
    return owner[static_cast<std::size_t>(j) * static_cast<std::size_t>(f.width()) +
                 static_cast<std::size_t>(i)];
  };
  for (int j = 0; j < f.height() && j < img.height; ++j) {
    for (int i = 0; i < f.width(); ++i) {
      const std::int32_t o = owner_at(i, j);
      if (o < 0) continue;
      const std::uint8_t c = cells[static_cast<std::size_t>(o)];
      if (c == kWall) continue;
      bool edge = false;
      for (const auto& [di, dj] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}}) {
        if (i + di >= f.width() || j + dj >= f.height()) continue;
        const std::int32_t n = owner_at(i + di, j + dj);
        if (n >= 0 && n != o && cells[static_cast<std::size_t>(n)] == c) edge = true;
      }
      if (edge) {
        img.pixels[static_cast<std::size_t>(j) * static_cast<std::size_t>(img.width) +
                   static_cast<std::size_t>(x0 + i)] = kGridLine;
      }
    }
  }
}

void draw_edge_walls(IndexedImage& img, int x0, const MapFrame& f) {
  Plotter plot(img, x0, f.width(), 1);
  const int t = wall_width(f);
  for (const EdgeSegment& e : edge_segments(f)) {
    const Point a = f.to_px(e.a, e.floor), b = f.to_px(e.b, e.floor);
    if (f.hex()) {  // slanted edges: a thick segment
      plot.segment(a, b, t, kEdgeWall);
      continue;
    }
    const int ax = static_cast<int>(std::lround(a.x)), ay = static_cast<int>(std::lround(a.y));
    const int bx = static_cast<int>(std::lround(b.x)), by = static_cast<int>(std::lround(b.y));
    // Centred on the edge: columns (or rows) [edge - t/2, edge - t/2 + t).
    plot.fill(x0 + std::min(ax, bx) - t / 2, std::min(ay, by) - t / 2, std::abs(bx - ax) + t,
              std::abs(by - ay) + t, kEdgeWall);
  }
}

void draw_links(IndexedImage& img, int x0, const MapFrame& f) {
  Plotter plot(img, x0, f.width(), 1);
  const grid::Grid& g = f.grid();
  for (const grid::Link& l : g.links()) {
    if (!g.map_cell(l.from.x, l.from.y) || !g.map_cell(l.to.x, l.to.y)) continue;
    const Point a = f.centre_px(l.from), b = f.centre_px(l.to);
    plot.segment(a, b, 1, kLink);
    plot.disc(a, link_dot(f), kLink);
    plot.disc(b, link_dot(f), kLink);
  }
}

void draw_link_steps(IndexedImage& img, int x0, const MapFrame& f, const std::vector<Cell>& path) {
  Plotter plot(img, x0, f.width(), 1);
  const grid::Grid& g = f.grid();
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Cell a = path[i - 1], b = path[i];
    if (!g.map_cell(a.x, a.y) || !g.map_cell(b.x, b.y) || !f.link_step(a, b)) continue;
    const Point pa = f.centre_px(a), pb = f.centre_px(b);
    plot.segment(pa, pb, taken_width(f), kLinkTaken);
    plot.disc(pa, taken_dot(f), kLinkTaken);
    plot.disc(pb, taken_dot(f), kLinkTaken);
  }
}

void draw_polyline(IndexedImage& img, int x0, const MapFrame& f, const std::vector<Point>& pts,
                   std::uint8_t colour) {
  Plotter plot(img, x0, f.width(), 1);
  const int width = f.unit() >= 8 ? 2 : 1;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const int fa = f.floor_of(pts[i - 1]), fb = f.floor_of(pts[i]);
    if (fa == fb) {
      plot.segment(f.to_px(pts[i - 1], fa), f.to_px(pts[i], fa), width, colour);
    } else {
      const Point a = f.to_px(pts[i - 1], fa), b = f.to_px(pts[i], fb);
      plot.segment(a, b, taken_width(f), kLinkTaken);
      plot.disc(a, taken_dot(f), kLinkTaken);
      plot.disc(b, taken_dot(f), kLinkTaken);
    }
  }
  const int dot = std::max(width + 1, f.unit() / 3);
  for (const Point& q : pts) {
    const Point p = f.to_px(q);
    plot.stamp(x0 + p.x, p.y, dot, colour);
  }
}

std::string svg_frame_cells(const MapFrame& f, double x0, const std::vector<std::uint8_t>& cells) {
  const grid::Grid& g = f.grid();
  std::string out = "<g class=\"cells\">\n";
  auto colour_of = [&](Cell c) {
    return cells[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(g.width()) +
                 static_cast<std::size_t>(c.x)];
  };
  if (f.hex()) {
    for (const Cell c : f.cells()) {
      out += "<polygon class=\"hex\" points=\"" + points_attr(f.outline_px(c), x0) + "\" fill=\"" +
             svg_colour(colour_of(c)) + "\" stroke=\"" + svg_colour(colour_of(c)) +
             "\" stroke-width=\"0.5\"/>\n";
    }
  } else {
    // Runs of equal cells along each row of each floor.
    for (int y = 0; y < g.height(); ++y) {
      if (g.between_layers(y)) continue;
      for (int x = 0; x < g.width();) {
        int run = 1;
        while (x + run < g.width() && colour_of({x + run, y}) == colour_of({x, y})) ++run;
        const Point p = f.to_px({static_cast<double>(x), static_cast<double>(y)}, g.layer_of(y));
        out += "<rect class=\"cell\" x=\"" + num(x0 + p.x) + "\" y=\"" + num(p.y) + "\" width=\"" +
               std::to_string(run * f.unit()) + "\" height=\"" + std::to_string(f.unit()) +
               "\" fill=\"" + svg_colour(colour_of({x, y})) + "\"/>\n";
        x += run;
      }
    }
  }
  return out + "</g>\n";
}

std::string svg_edge_walls(const MapFrame& f, double x0) {
  const std::vector<EdgeSegment> edges = edge_segments(f);
  if (edges.empty()) return {};
  std::string out = "<g class=\"edge-walls\">\n";
  for (const EdgeSegment& e : edges) {
    out += svg_line("edge-wall", f.to_px(e.a, e.floor), f.to_px(e.b, e.floor), x0, kEdgeWall,
                    std::max(1.5, f.unit() / 6.0));
  }
  return out + "</g>\n";
}

std::string svg_links(const MapFrame& f, double x0) {
  const grid::Grid& g = f.grid();
  if (g.links().empty()) return {};
  std::string out = "<g class=\"links\">\n";
  for (const grid::Link& l : g.links()) {
    if (!g.map_cell(l.from.x, l.from.y) || !g.map_cell(l.to.x, l.to.y)) continue;
    const Point a = f.centre_px(l.from), b = f.centre_px(l.to);
    out += svg_line(l.oneway ? "link oneway" : "link", a, b, x0, kLink, 1.5);
    out += svg_circle("link-end", a, x0, link_dot(f), kLink);
    out += svg_circle("link-end", b, x0, link_dot(f), kLink);
  }
  return out + "</g>\n";
}

std::string svg_path(const MapFrame& f, double x0, const std::vector<Cell>& path) {
  const grid::Grid& g = f.grid();
  std::string out;
  std::vector<Point> run;
  auto flush = [&] {
    if (!run.empty()) {
      out += "<polyline class=\"path\" fill=\"none\" stroke=\"" + svg_colour(kPath) +
             "\" stroke-width=\"" + num(std::max(1.0, f.unit() * 0.4)) +
             "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"" +
             points_attr(run, x0) + "\"/>\n";
    }
    run.clear();
  };
  std::string steps;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Cell c = path[i];
    if (!g.map_cell(c.x, c.y)) continue;
    if (i > 0 && g.map_cell(path[i - 1].x, path[i - 1].y) && f.link_step(path[i - 1], c)) {
      flush();
      const Point a = f.centre_px(path[i - 1]), b = f.centre_px(c);
      steps += svg_line("link-taken", a, b, x0, kLinkTaken, taken_width(f));
      steps += svg_circle("link-taken-end", a, x0, taken_dot(f), kLinkTaken);
      steps += svg_circle("link-taken-end", b, x0, taken_dot(f), kLinkTaken);
    }
    run.push_back(f.centre_px(c));
  }
  flush();
  return out + steps;
}

std::string svg_point_line(const MapFrame& f, double x0, const char* cls,
                           const std::vector<Point>& pts, std::uint8_t colour) {
  std::string out, steps, dots;
  const double width = std::max(1.5, f.unit() * 0.25);
  std::vector<Point> run;
  auto flush = [&] {
    if (!run.empty()) out += svg_polyline(cls, run, x0, 1, colour, width);
    run.clear();
  };
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const int fl = f.floor_of(pts[i]);
    if (i > 0 && f.floor_of(pts[i - 1]) != fl) {
      flush();
      const Point a = f.to_px(pts[i - 1]), b = f.to_px(pts[i], fl);
      steps += svg_line("link-taken", a, b, x0, kLinkTaken, taken_width(f));
    }
    run.push_back(f.to_px(pts[i], fl));
    dots +=
        svg_circle((std::string(cls) + "-vertex").c_str(), f.to_px(pts[i], fl), x0, width, colour);
  }
  flush();
  return out + steps + dots;
}

}  // namespace pathlab::render::detail
