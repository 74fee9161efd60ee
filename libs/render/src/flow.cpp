// Flow-field pictures (flow.hpp). Cells come from the palette (walls, terrain, the closed-cell
// ramp as the distance ramp, goals). PNGs are painted on an indexed image (arrows and goal dots
// with the plotter) and encoded in memory; SVGs are drawn in cell units (viewBox) and kept
// compact for big maps: one <path> per colour with a subpath per row run of equal cells, the
// sector outlines as <rect>s, and the arrows as one subpath each ("M x y" and relative moves,
// one <path> per direction code, translated so that x y are the cell's integer corner).
#include <pathlab/render/flow.hpp>

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <stdexcept>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/topology.hpp>

#include "kinds.hpp"
#include "raster.hpp"

namespace pathlab::render {

std::vector<std::uint8_t> detail::flow_cells(const grid::Grid& g, const flow::Field& f) {
  std::vector<std::uint8_t> cells = detail::base_cells(g);
  double far = 0;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const double d = f.distance({x, y});
      if (std::isfinite(d)) far = std::max(far, d);
    }
  }
  const int n = 256 - kClosedFirst;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const double d = f.distance({x, y});
      if (!std::isfinite(d)) continue;
      const int k = far > 0 ? static_cast<int>(std::lround(d / far * (n - 1))) : 0;
      cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) +
            static_cast<std::size_t>(x)] =
          static_cast<std::uint8_t>(kClosedFirst + std::clamp(k, 0, n - 1));
    }
  }
  for (const Cell c : f.goals()) {
    if (g.in_bounds(c)) {
      cells[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(g.width()) +
            static_cast<std::size_t>(c.x)] = kGoal;
    }
  }
  return cells;
}

namespace {

/// The long side of a picture when FlowPicture::cell_px is 0.
constexpr int kFitPx = 800;
/// Arrows need cells at least this wide.
constexpr int kArrowMinPx = 6;
/// A PNG is refused above this many pixels (the RGB copy alone would take 400 MB).
constexpr std::int64_t kMaxPngPixels = std::int64_t{1} << 27;
/// Sector outlines: a colour apart from the ramp, the goals and the arrows.
constexpr std::uint8_t kSectorColour = kStart;
/// Goal dots on small cells: radius in pixels.
constexpr double kGoalDotPx = 3;

/// What a picture needs, checked.
struct Setup {
  int w = 0, h = 0;  ///< map size in cells
  int cp = 1;        ///< pixels per cell
  bool arrows = false;
  int sx = 0, sy = 0;  ///< sectors across and down (0 = no outlines)
  int outline_px = 1;  ///< sector outline thickness in pixels
  int dash_px = 4;     ///< dash length of the outline of a sector that is not computed
};

[[noreturn]] void fail(const std::string& what) {
  std::string msg = "flow picture: ";
  msg.append(what);
  throw std::runtime_error(msg);
}

std::string size_text(int w, int h) {
  std::string s = std::to_string(w);
  s.append("x").append(std::to_string(h));
  return s;
}

Setup prepare(const FlowPicture& p) {
  if (!p.grid) fail("no map");
  if (!p.field || p.field->empty()) fail("no field (build the field first)");
  const grid::Grid& g = *p.grid;
  const flow::Field& f = *p.field;
  if (f.width() != g.width() || f.height() != g.height()) {
    std::string m = "the field (";
    m.append(size_text(f.width(), f.height()))
        .append(") was not built on this map (")
        .append(size_text(g.width(), g.height()))
        .append(")");
    fail(m);
  }
  if (g.width() <= 0 || g.height() <= 0) fail("the map is empty");
  if (p.cell_px < 0) fail("the cell size must be positive (or 0 to fit the picture)");
  if (p.sector < 0) fail("the sector side must be positive (or 0 for no sectors)");
  Setup s;
  s.w = g.width();
  s.h = g.height();
  s.cp = p.cell_px > 0 ? p.cell_px : std::max(1, kFitPx / std::max(s.w, s.h));
  if (std::int64_t{s.w} * s.cp > INT_MAX / 4 || std::int64_t{s.h} * s.cp > INT_MAX / 4) {
    std::string m = "cells of ";
    m.append(std::to_string(s.cp)).append(" px make the picture too big");
    fail(m);
  }
  s.arrows = p.arrows && s.cp >= kArrowMinPx;
  if (p.sector > 0) {
    s.sx = static_cast<int>((std::int64_t{s.w} + p.sector - 1) / p.sector);
    s.sy = static_cast<int>((std::int64_t{s.h} + p.sector - 1) / p.sector);
    const std::size_t n = static_cast<std::size_t>(s.sx) * static_cast<std::size_t>(s.sy);
    if (!p.sectors_built.empty() && p.sectors_built.size() != n) {
      std::string m = "sectors_built has ";
      m.append(std::to_string(p.sectors_built.size()))
          .append(" entries, but sectors of side ")
          .append(std::to_string(p.sector))
          .append(" split the map into ")
          .append(size_text(s.sx, s.sy))
          .append(" = ")
          .append(std::to_string(n));
      fail(m);
    }
    s.outline_px = std::clamp(s.cp / 6, 1, 3);
    s.dash_px = std::max(4, 2 * s.cp);
  }
  return s;
}

bool sector_built(const FlowPicture& p, const Setup& s, int i, int j) {
  const std::size_t k =
      static_cast<std::size_t>(j) * static_cast<std::size_t>(s.sx) + static_cast<std::size_t>(i);
  return k < p.sectors_built.size() && p.sectors_built[k] != 0;
}

/// Sector (i, j) in cells: [x0, x1) x [y0, y1).
struct Box {
  int x0, y0, x1, y1;
};
Box sector_box(const FlowPicture& p, const Setup& s, int i, int j) {
  return {i * p.sector, j * p.sector,
          static_cast<int>(std::min<std::int64_t>(s.w, (std::int64_t{i} + 1) * p.sector)),
          static_cast<int>(std::min<std::int64_t>(s.h, (std::int64_t{j} + 1) * p.sector))};
}

/// The goals as a row-major mask.
std::vector<char> goal_mask(const flow::Field& f) {
  std::vector<char> m(static_cast<std::size_t>(f.width()) * static_cast<std::size_t>(f.height()));
  for (const Cell c : f.goals()) {
    if (f.in_bounds(c)) {
      m[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(f.width()) +
        static_cast<std::size_t>(c.x)] = 1;
    }
  }
  return m;
}

/// An arrow in map units: the tail, and from the tip the two ends of the head.
struct Arrow {
  Point tail, tip, left, right;
};
constexpr double kHalfLength = 0.35, kHead = 0.2, kSpread = 0.5;

/// The arrow through the centre of cell c along the unit vector (ux, uy).
Arrow arrow_along(Cell c, double ux, double uy) {
  const Point m = centre(c);
  Arrow a;
  a.tail = {m.x - ux * kHalfLength, m.y - uy * kHalfLength};
  a.tip = {m.x + ux * kHalfLength, m.y + uy * kHalfLength};
  a.left = {a.tip.x - kHead * (ux - uy * kSpread), a.tip.y - kHead * (uy + ux * kSpread)};
  a.right = {a.tip.x - kHead * (ux + uy * kSpread), a.tip.y - kHead * (uy - ux * kSpread)};
  return a;
}

/// The unit vector of direction code d.
Point unit_of(int d) {
  const double dx = flow::kDirDx[static_cast<std::size_t>(d)];
  const double dy = flow::kDirDy[static_cast<std::size_t>(d)];
  const double len = std::hypot(dx, dy);
  return {dx / len, dy / len};
}

constexpr int kNoArrow = -2, kSeesArrow = -1;

/// How cell c is drawn: kNoArrow (a wall, a goal, a cell no goal reaches), kSeesArrow (it sees
/// a goal: `u` is the unit vector toward it), the link code `link` (a dot: "take the link") or
/// its direction code with `u` set. toward(goal) is the vector from c to a goal it sees (nothing
/// where it cannot be drawn: another floor); along(d) the unit vector of code d (nothing for a
/// code the layout lacks).
template <class Toward, class Along>
int arrow_kind_of(const flow::Field& f, const std::vector<char>& goals, Cell c, Point& u, int link,
                  Toward&& toward, Along&& along) {
  if (goals[static_cast<std::size_t>(c.y) * static_cast<std::size_t>(f.width()) +
            static_cast<std::size_t>(c.x)] != 0 ||
      !std::isfinite(f.distance(c))) {
    return kNoArrow;
  }
  const int s = f.sees(c);
  if (s >= 0 && static_cast<std::size_t>(s) < f.goals().size()) {
    if (const std::optional<Point> v = toward(f.goals()[static_cast<std::size_t>(s)])) {
      const double len = std::hypot(v->x, v->y);
      if (len > 0) {
        u = {v->x / len, v->y / len};
        return kSeesArrow;
      }
    }
  }
  const int d = f.direction(c);
  if (d == link) return d;
  const std::optional<Point> v = along(d);
  if (!v) return kNoArrow;
  u = *v;
  return d;
}

/// arrow_kind_of on a plain square map (cells are unit squares, codes 0..7).
int arrow_kind(const flow::Field& f, const std::vector<char>& goals, Cell c, Point& u) {
  return arrow_kind_of(
      f, goals, c, u, -100,
      [&](Cell goal) -> std::optional<Point> {
        const Point to = centre(goal), m = centre(c);
        return Point{to.x - m.x, to.y - m.y};
      },
      [](int d) -> std::optional<Point> {
        if (d < 0 || d > 7) return std::nullopt;
        return unit_of(d);
      });
}

// ---- PNG ----

/// The outline of pixels [x0, x1) x [y0, y1), `t` pixels thick, dashed or solid.
void outline(IndexedImage& img, int x0, int y0, int x1, int y1, int t, int dash, bool dashed,
             std::uint8_t colour) {
  auto put = [&](int x, int y, int along) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    if (dashed && (along / dash) % 2 != 0) return;
    img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
               static_cast<std::size_t>(x)] = colour;
  };
  for (int k = 0; k < t; ++k) {
    for (int x = x0; x < x1; ++x) {
      put(x, y0 + k, x);
      put(x, y1 - 1 - k, x);
    }
    for (int y = y0; y < y1; ++y) {
      put(x0 + k, y, y);
      put(x1 - 1 - k, y, y);
    }
  }
}

/// An indexed image as PNG bytes.
std::string encode_png(const IndexedImage& img) {
  const auto& pal = palette();
  std::vector<std::uint8_t> rgb(img.pixels.size() * 3);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    for (std::size_t c = 0; c < 3; ++c) rgb[i * 3 + c] = pal[img.pixels[i] * 3u + c];
  }
  std::string out;
  auto sink = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(sink, &out, img.width, img.height, 3, rgb.data(), img.width * 3) ==
      0) {
    fail("cannot encode the PNG");
  }
  return out;
}

std::string png_bytes(const FlowPicture& p, const Setup& s) {
  if (std::int64_t{s.w} * s.cp * std::int64_t{s.h} * s.cp > kMaxPngPixels) {
    std::string m = "a PNG of ";
    m.append(size_text(s.w * s.cp, s.h * s.cp))
        .append(" pixels is too big; give a smaller cell size");
    fail(m);
  }
  const grid::Grid& g = *p.grid;
  const flow::Field& f = *p.field;
  IndexedImage img;
  img.width = s.w * s.cp;
  img.height = s.h * s.cp;
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kBackground);
  detail::paint_cells(img, 0, detail::flow_cells(g, f), s.w, s.h, s.cp);
  // Sectors not computed first, so that a computed sector's outline is whole.
  for (const bool built : {false, true}) {
    for (int j = 0; j < s.sy; ++j) {
      for (int i = 0; i < s.sx; ++i) {
        if (sector_built(p, s, i, j) != built) continue;
        const Box b = sector_box(p, s, i, j);
        outline(img, b.x0 * s.cp, b.y0 * s.cp, b.x1 * s.cp, b.y1 * s.cp, s.outline_px, s.dash_px,
                !built, kSectorColour);
      }
    }
  }
  detail::Plotter plot(img, 0, img.width, s.cp);
  if (s.arrows) {
    const std::vector<char> goals = goal_mask(f);
    const int width = std::max(1, s.cp / 8);
    for (int y = 0; y < s.h; ++y) {
      for (int x = 0; x < s.w; ++x) {
        Point u;
        if (arrow_kind(f, goals, {x, y}, u) == kNoArrow) continue;
        const Arrow a = arrow_along({x, y}, u.x, u.y);
        plot.segment(a.tail, a.tip, width, kForce);
        plot.segment(a.tip, a.left, width, kForce);
        plot.segment(a.tip, a.right, width, kForce);
      }
    }
  }
  if (s.cp < kArrowMinPx) {
    // A goal of a pixel or two is lost on a big map: a dot around it.
    for (const Cell c : f.goals()) {
      if (f.in_bounds(c)) plot.disc(centre(c), kGoalDotPx, kGoal);
    }
  }
  return encode_png(img);
}

// ---- SVG ----

/// A number for SVG: at most `decimals` decimals, no trailing zeros, no leading zero
/// ("0.5" -> ".5").
std::string num(double v, int decimals = 3) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s(buf);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s.empty() || s == "-0" || s == "-") return "0";
  if (s.size() > 1 && s[0] == '0' && s[1] == '.') {
    s.erase(0, 1);
  } else if (s.size() > 2 && s[0] == '-' && s[1] == '0' && s[2] == '.') {
    s.erase(1, 1);
  }
  return s;
}

/// Appends numbers to path data, a space between two only where the second would otherwise
/// run into the first: not before a '-', nor before a '.' when the first has one.
void put(std::string& d, int decimals, std::initializer_list<double> vs) {
  for (const double v : vs) {
    const std::string n = num(v, decimals);
    bool digits = false, point = false;  // what the number d ends with holds
    for (auto it = d.rbegin(); it != d.rend(); ++it) {
      if (*it >= '0' && *it <= '9') {
        digits = true;
      } else if (*it == '.') {
        point = true;
      } else {
        break;
      }
    }
    if ((digits || point) && n[0] != '-' && !(n[0] == '.' && point)) d.push_back(' ');
    d.append(n);
  }
}

/// The relative path of an arrow from its tail: the shaft, then the head as tip -> left ->
/// tip -> right (one subpath, so that every arrow is exactly one "M"), `decimals` decimals.
std::string arrow_tail_path(const Arrow& a, int decimals) {
  std::string d = "l";
  put(d, decimals,
      {a.tip.x - a.tail.x, a.tip.y - a.tail.y, a.left.x - a.tip.x, a.left.y - a.tip.y,
       a.tip.x - a.left.x, a.tip.y - a.left.y, a.right.x - a.tip.x, a.right.y - a.tip.y});
  return d;
}

std::string svg_bytes(const FlowPicture& p, const Setup& s) {
  const grid::Grid& g = *p.grid;
  const flow::Field& f = *p.field;
  const double px = 1.0 / s.cp;  // a pixel in cell units
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  out.append(std::to_string(s.w * s.cp))
      .append("\" height=\"")
      .append(std::to_string(s.h * s.cp))
      .append("\" viewBox=\"0 0 ")
      .append(std::to_string(s.w))
      .append(" ")
      .append(std::to_string(s.h))
      .append("\" shape-rendering=\"crispEdges\">\n");

  // Cells: one path per colour, a subpath per row run of equal cells.
  {
    std::vector<std::uint8_t> cells = detail::flow_cells(g, f);
    // Palette entries of the same RGB (neighbours on the ramp can be) as one colour.
    std::array<std::uint8_t, 256> same{};
    std::array<std::string, 256> hex;
    for (std::size_t c = 0; c < 256; ++c) {
      hex[c] = detail::svg_colour(static_cast<std::uint8_t>(c));
      same[c] = static_cast<std::uint8_t>(c);
      for (std::size_t e = 0; e < c; ++e) {
        if (hex[e] == hex[c]) {
          same[c] = static_cast<std::uint8_t>(e);
          break;
        }
      }
    }
    for (std::uint8_t& c : cells) c = same[c];
    std::array<std::string, 256> runs;
    for (int y = 0; y < s.h; ++y) {
      const std::uint8_t* row = &cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(s.w)];
      for (int x = 0; x < s.w;) {
        int run = 1;
        while (x + run < s.w && row[x + run] == row[x]) ++run;
        std::string& d = runs[row[x]];
        const std::string r = std::to_string(run);
        d.append("M")
            .append(std::to_string(x))
            .append(" ")
            .append(std::to_string(y))
            .append("h")
            .append(r)
            .append("v1h-")
            .append(r)
            .append("z");
        x += run;
      }
    }
    out.append("<g class=\"cells\">\n");
    for (std::size_t c = 0; c < runs.size(); ++c) {
      if (runs[c].empty()) continue;
      out.append("<path fill=\"").append(hex[c]).append("\" d=\"").append(runs[c]).append("\"/>\n");
    }
    out.append("</g>\n");
  }

  // Sector outlines: computed ones solid, the others dashed and fainter.
  if (s.sx > 0) {
    const double t = s.outline_px * px;
    for (const bool built : {false, true}) {
      out.append(built ? "<g class=\"sectors-built\"" : "<g class=\"sectors-pending\"")
          .append(" fill=\"none\" stroke=\"")
          .append(detail::svg_colour(kSectorColour))
          .append("\" stroke-width=\"")
          .append(num(t))
          .append("\"");
      if (!built) {
        out.append(" stroke-opacity=\".6\" stroke-dasharray=\"")
            .append(num(s.dash_px * px))
            .append("\"");
      }
      out.append(">\n");
      for (int j = 0; j < s.sy; ++j) {
        for (int i = 0; i < s.sx; ++i) {
          if (sector_built(p, s, i, j) != built) continue;
          const Box b = sector_box(p, s, i, j);
          out.append("<rect x=\"")
              .append(num(b.x0 + t / 2))
              .append("\" y=\"")
              .append(num(b.y0 + t / 2))
              .append("\" width=\"")
              .append(num(std::max(0.0, b.x1 - b.x0 - t)))
              .append("\" height=\"")
              .append(num(std::max(0.0, b.y1 - b.y0 - t)))
              .append("\"/>\n");
        }
      }
      out.append("</g>\n");
    }
  }

  // Arrows: per direction code one path translated so that each arrow starts "M x y" at its
  // cell's corner, followed by the code's relative shape; cells that see a goal in one more
  // path with absolute tails.
  if (s.arrows) {
    std::array<std::string, 8> shape, shift;
    for (std::size_t k = 0; k < 8; ++k) {
      const Point u = unit_of(static_cast<int>(k));
      const Arrow a = arrow_along({0, 0}, u.x, u.y);  // the tail relative to the cell's corner
      shape[k] = arrow_tail_path(a, 1);               // 8 shapes: 1 decimal is plenty, and short
      shift[k] = num(a.tail.x);
      shift[k].append(" ").append(num(a.tail.y));
    }
    const std::vector<char> goals = goal_mask(f);
    std::array<std::string, 8> by_dir;
    std::string seeing;
    for (int y = 0; y < s.h; ++y) {
      for (int x = 0; x < s.w; ++x) {
        Point u;
        const int k = arrow_kind(f, goals, {x, y}, u);
        if (k == kNoArrow) continue;
        if (k == kSeesArrow) {
          const Arrow a = arrow_along({x, y}, u.x, u.y);
          seeing.append("M");
          put(seeing, 2, {a.tail.x, a.tail.y});
          seeing.append(arrow_tail_path(a, 2));
        } else {
          const auto kk = static_cast<std::size_t>(k);
          by_dir[kk]
              .append("M")
              .append(std::to_string(x))
              .append(" ")
              .append(std::to_string(y))
              .append(shape[kk]);
        }
      }
    }
    out.append("<g class=\"arrows\" fill=\"none\" stroke=\"")
        .append(detail::svg_colour(kForce))
        .append("\" stroke-width=\"")
        .append(num(std::max(1, s.cp / 8) * px))
        .append("\" stroke-linecap=\"round\" stroke-linejoin=\"round\"")
        .append(" shape-rendering=\"geometricPrecision\">\n");
    for (std::size_t k = 0; k < 8; ++k) {
      if (by_dir[k].empty()) continue;
      out.append("<path class=\"dir")
          .append(std::to_string(k))
          .append("\" transform=\"translate(")
          .append(shift[k])
          .append(")\" d=\"")
          .append(by_dir[k])
          .append("\"/>\n");
    }
    if (!seeing.empty()) out.append("<path class=\"sees\" d=\"").append(seeing).append("\"/>\n");
    out.append("</g>\n");
  }

  // Goals: red cells, and on small cells a dot around each so that it shows on big maps.
  if (s.cp < kArrowMinPx) {
    out.append("<g class=\"goals\" fill=\"")
        .append(detail::svg_colour(kGoal))
        .append("\" shape-rendering=\"geometricPrecision\">\n");
    for (const Cell c : f.goals()) {
      if (!f.in_bounds(c)) continue;
      out.append("<circle cx=\"")
          .append(num(c.x + 0.5))
          .append("\" cy=\"")
          .append(num(c.y + 0.5))
          .append("\" r=\"")
          .append(num(kGoalDotPx * px))
          .append("\"/>\n");
    }
    out.append("</g>\n");
  }
  out.append("</svg>\n");
  return out;
}

// ---- every other map kind: hexes, floors side by side, thin walls, links (kinds.hpp) ----

/// The unit vector (map units) of direction code d at cell c, or nothing for the link code and
/// codes outside the layout's.
std::optional<Point> frame_direction(const grid::Grid& g, Cell c, int d) {
  const grid::Layout l = g.layout();
  if (grid::is_hex(l)) {
    if (d < 0 || d > 5) return std::nullopt;
    const grid::hex::Axial a = grid::hex::to_axial(l, c.x, c.y);
    const grid::hex::Axial step = grid::hex::kDirections[static_cast<std::size_t>(d)];
    const Cell n = grid::hex::from_axial(l, {a.q + step.q, a.r + step.r});
    const Point from = grid::hex::centre(l, c.x, c.y), to = grid::hex::centre(l, n.x, n.y);
    const double dx = to.x - from.x, dy = to.y - from.y, len = std::hypot(dx, dy);
    return Point{dx / len, dy / len};
  }
  if (d < 0 || d > 7) return std::nullopt;
  return unit_of(d);
}

/// arrow_kind_of on a frame map: hexes, floors (a goal on another floor is not drawn toward),
/// the link code.
int frame_arrow_kind(const detail::MapFrame& fr, const flow::Field& f,
                     const std::vector<char>& goals, Cell c, Point& u) {
  const grid::Grid& g = fr.grid();
  return arrow_kind_of(
      f, goals, c, u, grid::link_direction(g.layout()),
      [&](Cell goal) -> std::optional<Point> {
        if (g.layer_of(goal.y) != g.layer_of(c.y)) return std::nullopt;
        const Point to = fr.centre(goal), m = fr.centre(c);
        return Point{to.x - m.x, to.y - m.y};
      },
      [&](int d) { return frame_direction(g, c, d); });
}

/// The arrow through the centre of cell c along u, in panel pixels.
Arrow frame_arrow(const detail::MapFrame& fr, Cell c, Point u) {
  const Point m = fr.centre_px(c);
  const double k = fr.unit();
  Arrow a;
  a.tail = {m.x - u.x * kHalfLength * k, m.y - u.y * kHalfLength * k};
  a.tip = {m.x + u.x * kHalfLength * k, m.y + u.y * kHalfLength * k};
  a.left = {a.tip.x - kHead * k * (u.x - u.y * kSpread),
            a.tip.y - kHead * k * (u.y + u.x * kSpread)};
  a.right = {a.tip.x - kHead * k * (u.x + u.y * kSpread),
             a.tip.y - kHead * k * (u.y - u.x * kSpread)};
  return a;
}

/// Radius in pixels of the dot on a cell whose first move is to take a link.
double link_move_dot(const detail::MapFrame& fr) {
  return std::max(2.0, fr.unit() / 5.0);
}

std::string png_frame(const FlowPicture& p) {
  const grid::Grid& g = *p.grid;
  const flow::Field& f = *p.field;
  const detail::MapFrame fr(g, p.cell_px);
  if (std::int64_t{fr.width()} * fr.height() > kMaxPngPixels) {
    std::string m = "a PNG of ";
    m.append(size_text(fr.width(), fr.height()))
        .append(" pixels is too big; give a smaller cell size");
    fail(m);
  }
  IndexedImage img;
  img.width = fr.width();
  img.height = fr.height();
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kBackground);
  detail::paint_frame(img, 0, fr, detail::flow_cells(g, f));
  detail::draw_edge_walls(img, 0, fr);
  detail::draw_links(img, 0, fr);
  detail::Plotter plot(img, 0, img.width, 1);
  if (p.arrows && fr.unit() >= kArrowMinPx) {
    const std::vector<char> goals = goal_mask(f);
    const int width = std::max(1, fr.unit() / 8);
    const int link = grid::link_direction(g.layout());
    for (const Cell c : fr.cells()) {
      Point u;
      const int k = frame_arrow_kind(fr, f, goals, c, u);
      if (k == kNoArrow) continue;
      if (k == link) {
        plot.disc(fr.centre_px(c), link_move_dot(fr), kForce);
        continue;
      }
      const Arrow a = frame_arrow(fr, c, u);
      plot.segment(a.tail, a.tip, width, kForce);
      plot.segment(a.tip, a.left, width, kForce);
      plot.segment(a.tip, a.right, width, kForce);
    }
  }
  if (fr.unit() < kArrowMinPx) {
    for (const Cell c : f.goals()) {
      if (g.map_cell(c.x, c.y)) plot.disc(fr.centre_px(c), kGoalDotPx, kGoal);
    }
  }
  return encode_png(img);
}

std::string svg_frame(const FlowPicture& p) {
  const grid::Grid& g = *p.grid;
  const flow::Field& f = *p.field;
  const detail::MapFrame fr(g, p.cell_px);
  std::string out = detail::svg_open(fr.width(), fr.height());
  out += detail::svg_frame_cells(fr, 0, detail::flow_cells(g, f));
  out += detail::svg_edge_walls(fr, 0);
  out += detail::svg_links(fr, 0);
  if (p.arrows && fr.unit() >= kArrowMinPx) {
    const std::vector<char> goals = goal_mask(f);
    const int link = grid::link_direction(g.layout());
    std::array<std::string, 9> by_dir;  // codes 0..8; sees-goal arrows in `seeing`
    std::string seeing, dots;
    for (const Cell c : fr.cells()) {
      Point u;
      const int k = frame_arrow_kind(fr, f, goals, c, u);
      if (k == kNoArrow) continue;
      if (k == link) {
        const Point m = fr.centre_px(c);
        dots.append("<circle class=\"link-move\" cx=\"")
            .append(num(m.x, 2))
            .append("\" cy=\"")
            .append(num(m.y, 2))
            .append("\" r=\"")
            .append(num(link_move_dot(fr), 2))
            .append("\"/>\n");
        continue;
      }
      const Arrow a = frame_arrow(fr, c, u);
      std::string& d = k == kSeesArrow ? seeing : by_dir[static_cast<std::size_t>(k)];
      d.append("M");
      put(d, 2, {a.tail.x, a.tail.y});
      d.append(arrow_tail_path(a, 2));
    }
    out.append("<g class=\"arrows\" fill=\"")
        .append(detail::svg_colour(kForce))
        .append("\" stroke=\"")
        .append(detail::svg_colour(kForce))
        .append("\" stroke-width=\"")
        .append(num(std::max(1, fr.unit() / 8)))
        .append("\" stroke-linecap=\"round\" stroke-linejoin=\"round\"")
        .append(" shape-rendering=\"geometricPrecision\">\n");
    for (std::size_t k = 0; k < by_dir.size(); ++k) {
      if (by_dir[k].empty()) continue;
      out.append("<path class=\"dir")
          .append(std::to_string(k))
          .append("\" fill=\"none\" d=\"")
          .append(by_dir[k])
          .append("\"/>\n");
    }
    if (!seeing.empty()) {
      out.append("<path class=\"sees\" fill=\"none\" d=\"").append(seeing).append("\"/>\n");
    }
    out.append(dots).append("</g>\n");
  }
  if (fr.unit() < kArrowMinPx) {
    out.append("<g class=\"goals\" fill=\"").append(detail::svg_colour(kGoal)).append("\">\n");
    for (const Cell c : f.goals()) {
      if (!g.map_cell(c.x, c.y)) continue;
      const Point m = fr.centre_px(c);
      out.append("<circle cx=\"")
          .append(num(m.x, 2))
          .append("\" cy=\"")
          .append(num(m.y, 2))
          .append("\" r=\"")
          .append(num(kGoalDotPx, 2))
          .append("\"/>\n");
    }
    out.append("</g>\n");
  }
  return out + "</svg>\n";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::string flow_image(const FlowPicture& p, std::string_view format) {
  const std::string f = lower(format);
  if (f != "png" && f != "svg") {
    std::string m = "unknown format '";
    m.append(format).append("' (use png or svg)");
    fail(m);
  }
  const Setup s = prepare(p);
  if (detail::needs_frame(*p.grid)) return f == "png" ? png_frame(p) : svg_frame(p);
  return f == "png" ? png_bytes(p, s) : svg_bytes(p, s);
}

void write_flow(const FlowPicture& p, const std::string& path) {
  const auto format = detail::format_of(path);
  if (!format || *format == detail::Format::gif) {
    std::string m = path;
    m.append(": unknown flow picture format (use .png or .svg)");
    throw std::runtime_error(m);
  }
  std::string bytes;
  try {
    bytes = flow_image(p, *format == detail::Format::png ? "png" : "svg");
  } catch (const std::runtime_error& e) {
    std::string m = path;
    m.append(": ").append(e.what());
    throw std::runtime_error(m);
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
  }
  if (!out) {
    std::string m = path;
    m.append(": cannot write the flow picture");
    throw std::runtime_error(m);
  }
}

}  // namespace pathlab::render
