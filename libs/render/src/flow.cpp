// Flow-field pictures (flow.hpp): cells from the palette (walls, terrain, the closed-cell ramp as
// the distance ramp, goals), arrows with the plotter in PNGs and as one SVG path in SVGs.
#include <pathlab/render/flow.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "raster.hpp"

namespace pathlab::render {
namespace {}  // namespace

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

/// The arrow of a cell, in map units: from behind its centre to the tip, or nothing.
struct Arrow {
  Point tail, tip, left, right;
};
std::optional<Arrow> arrow_of(const flow::Field& f, Cell c) {
  const auto to = f.steer(centre(c));
  if (!to || f.direction(c) < 0) return std::nullopt;
  const Point m = centre(c);
  double dx = to->x - m.x, dy = to->y - m.y;
  const double len = std::hypot(dx, dy);
  if (len == 0) return std::nullopt;
  dx /= len;
  dy /= len;
  const double half = 0.35, head = 0.22;
  Arrow a;
  a.tail = {m.x - dx * half, m.y - dy * half};
  a.tip = {m.x + dx * half, m.y + dy * half};
  a.left = {a.tip.x - head * (dx - dy * 0.6), a.tip.y - head * (dy + dx * 0.6)};
  a.right = {a.tip.x - head * (dx + dy * 0.6), a.tip.y - head * (dy - dx * 0.6)};
  return a;
}

void check(const FlowPicture& p) {
  if (!p.grid || !p.field || p.field->width() != p.grid->width() ||
      p.field->height() != p.grid->height()) {
    throw std::runtime_error("a flow picture needs a map and a field built on it");
  }
}

}  // namespace

void write_flow(const FlowPicture& p, const std::string& path) {
  const auto format = detail::format_of(path);
  if (!format || *format == detail::Format::gif) {
    throw std::runtime_error(path + ": unknown flow picture format (use .png or .svg)");
  }
  check(p);
  const grid::Grid& g = *p.grid;
  const int cp = detail::fit_cell_px(g.width(), g.height(), p.cell_px);
  IndexedImage img;
  img.width = g.width() * cp;
  img.height = g.height() * cp;
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kBackground);
  detail::paint_cells(img, 0, detail::flow_cells(g, *p.field), g.width(), g.height(), cp);
  const bool arrows = cp >= p.arrows_from_px;
  if (*format == detail::Format::png) {
    if (arrows) {
      detail::Plotter plot(img, 0, img.width, cp);
      const int w = std::max(1, cp / 8);
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          const auto a = arrow_of(*p.field, {x, y});
          if (!a) continue;
          plot.segment(a->tail, a->tip, w, kForce);
          plot.segment(a->tip, a->left, w, kForce);
          plot.segment(a->tip, a->right, w, kForce);
        }
      }
    }
    detail::write_png(img, path);
    return;
  }
  std::string out = detail::svg_open(img.width, img.height);
  out.append(detail::svg_cells(img, cp));
  if (arrows) {
    // Every arrow in one path: M tail L tip M left L tip L right.
    out.append("<path class=\"arrows\" fill=\"none\" stroke=\"").append(detail::svg_colour(kForce));
    out.append("\" stroke-width=\"")
        .append(std::to_string(std::max(1.0, cp / 8.0)))
        .append("\" d=\"");
    auto pt = [cp](Point q) {
      return std::to_string(std::lround(q.x * cp * 10) / 10.0) + " " +
             std::to_string(std::lround(q.y * cp * 10) / 10.0);
    };
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const auto a = arrow_of(*p.field, {x, y});
        if (!a) continue;
        // Appended piece by piece: g++ 12 warns falsely (-Wrestrict) on "M" + std::string.
        out.append("M").append(pt(a->tail)).append("L").append(pt(a->tip));
        out.append("M").append(pt(a->left)).append("L").append(pt(a->tip));
        out.append("L").append(pt(a->right));
      }
    }
    out += "\"/>\n";
  }
  out.append("</svg>\n");
  detail::write_text(path, out);
}

}  // namespace pathlab::render
