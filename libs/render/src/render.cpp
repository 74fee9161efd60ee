// Rasterising a scene into a palette image, and writing it as PNG (stb_image_write), animated
// GIF (giflib) or SVG. The palette is fixed, so GIF frames need no colour quantisation.
#include <pathlab/render/render.hpp>

#include <pathlab/core/xml.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kinds.hpp"
#include "raster.hpp"

namespace pathlab::render {
namespace {

constexpr int kGap = 4;  // pixels between panels

struct Rgb {
  int r, g, b;
};
Rgb mix(Rgb a, Rgb b, double t) {
  return {static_cast<int>(std::lround(a.r + (b.r - a.r) * t)),
          static_cast<int>(std::lround(a.g + (b.g - a.g) * t)),
          static_cast<int>(std::lround(a.b + (b.b - a.b) * t))};
}

std::vector<std::uint8_t> make_palette() {
  std::vector<Rgb> c(256, Rgb{0, 0, 0});
  c[kBackground] = {40, 40, 48};
  c[kFree] = {250, 250, 250};
  c[kWall] = {52, 52, 64};
  c[kOpen] = {150, 225, 150};
  c[kPath] = {255, 140, 0};
  c[kStart] = {0, 160, 60};
  c[kGoal] = {215, 30, 30};
  c[kSeparator] = {255, 255, 255};
  for (int k = 0; k < 8; ++k) c[kTerrainFirst + k] = mix({236, 228, 210}, {150, 118, 78}, k / 7.0);
  // The segments must stand out over the orange path cells and the blue-violet closed ramp:
  // a darker, redder orange for any-angle paths, magenta for smoothed ones.
  c[kLine] = {230, 80, 0};
  c[kSmoothed] = {220, 0, 200};
  c[kSightClear] = {0, 190, 60};
  c[kSightBlocked] = {230, 0, 0};
  // Simulations: agents in distinct hues that avoid the obstacles' slate and the red of a
  // collision; faded toward white for trails and for agents that have left the world.
  c[kObstacle] = {90, 110, 120};
  c[kColliding] = {255, 0, 0};
  c[kForce] = {25, 25, 25};
  // Map kinds: thin walls near black-blue (on free, terrain and wall cells alike), links teal,
  // a path's link steps a strong blue apart from the orange path.
  c[kEdgeWall] = {20, 30, 110};
  c[kLink] = {0, 150, 160};
  c[kLinkTaken] = {0, 90, 255};
  c[kGridLine] = {214, 214, 224};
  const Rgb hues[kAgentHues] = {{30, 100, 230}, {20, 150, 60}, {140, 60, 200}, {240, 140, 0},
                                {220, 60, 150}, {0, 170, 210}, {130, 150, 0},  {150, 90, 40}};
  for (int k = 0; k < kAgentHues; ++k) {
    c[kAgentFirst + k] = hues[k];
    c[kAgentFadedFirst + k] = mix(hues[k], {255, 255, 255}, 0.55);
  }
  const int n = 256 - kClosedFirst;
  for (int k = 0; k < n; ++k) {
    // Early expansions light blue, late ones violet: the order is visible at a glance.
    c[kClosedFirst + k] = mix({130, 190, 255}, {170, 90, 210}, k / double(n - 1));
  }
  std::vector<std::uint8_t> out;
  for (const Rgb& x : c) {
    out.push_back(static_cast<std::uint8_t>(x.r));
    out.push_back(static_cast<std::uint8_t>(x.g));
    out.push_back(static_cast<std::uint8_t>(x.b));
  }
  return out;
}

int cell_size(const Scene& s, const Options& o) {
  return detail::fit_cell_px(s.grid->width(), s.grid->height(), o.cell_px);
}

/// What one panel shows after `events` events: a colour per cell, whether the whole trace is
/// shown (then the path and its segments are drawn), and the latest line-of-sight check.
struct PanelCells {
  std::vector<std::uint8_t> cells;
  bool finished = true;
  const search::TraceEvent* last_sight = nullptr;
};

PanelCells panel_cells(const Scene& s, const Panel& p, std::size_t events) {
  const grid::Grid& g = *s.grid;
  const auto w = static_cast<std::size_t>(g.width());
  PanelCells out;
  std::vector<std::uint8_t>& cells = out.cells;
  cells = detail::base_cells(g);
  std::size_t shown = 0;
  if (p.trace) {
    std::size_t total_closed = 0;
    for (const auto& e : *p.trace) total_closed += e.type == search::EventType::closed;
    const std::size_t n = std::min(events, p.trace->size());
    std::size_t order = 0;
    const int shades = 256 - kClosedFirst;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& e = (*p.trace)[i];
      if (e.type == search::EventType::line_of_sight) {
        out.last_sight = &e;
        continue;
      }
      if (!g.in_bounds(e.cell)) continue;
      std::uint8_t& c =
          cells[static_cast<std::size_t>(e.cell.y) * w + static_cast<std::size_t>(e.cell.x)];
      if (e.type == search::EventType::closed) {
        const std::size_t k =
            total_closed > 1 ? order * static_cast<std::size_t>(shades - 1) / (total_closed - 1)
                             : 0;
        c = static_cast<std::uint8_t>(kClosedFirst + k);
        ++order;
      } else if ((e.type == search::EventType::opened || e.type == search::EventType::updated) &&
                 c < kClosedFirst) {
        c = kOpen;
      }
    }
    shown = n;
  }
  const bool finished = !p.trace || shown >= p.trace->size();
  out.finished = finished;
  if (finished) out.last_sight = nullptr;
  if (p.path && finished) {
    for (Cell c : *p.path) {
      if (g.in_bounds(c))
        cells[static_cast<std::size_t>(c.y) * w + static_cast<std::size_t>(c.x)] = kPath;
    }
  }
  for (auto [m, colour] : {std::pair{s.start, kStart}, std::pair{s.goal, kGoal}}) {
    if (m && g.in_bounds(*m))
      cells[static_cast<std::size_t>(m->y) * w + static_cast<std::size_t>(m->x)] = colour;
  }
  return out;
}

/// The picture of the cells, and with `lines` the segments over them (SVG draws those itself).
IndexedImage raster(const Scene& scene, const Options& options, std::size_t events, bool lines);

void check_scene(const Scene& s) {
  if (s.grid == nullptr || s.grid->cells() == 0) throw std::invalid_argument("render: empty scene");
}

}  // namespace

const std::vector<std::uint8_t>& palette() {
  static const std::vector<std::uint8_t> p = make_palette();
  return p;
}

IndexedImage draw(const Scene& scene, const Options& options, std::size_t events) {
  return raster(scene, options, events, true);
}

namespace {
/// raster() for the map kinds that need a MapFrame (hex, floors, thin walls, links).
IndexedImage raster_frame(const Scene& scene, const Options& options, std::size_t events,
                          bool lines) {
  const grid::Grid& g = *scene.grid;
  const detail::MapFrame frame(g, options.cell_px);
  const int panels = std::max<int>(1, static_cast<int>(scene.panels.size()));
  const int pw = frame.width();
  IndexedImage img;
  img.width = panels * pw + (panels - 1) * kGap;
  img.height = frame.height();
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kBackground);
  for (int k = 0; k < panels; ++k) {
    const Panel empty{};
    const Panel& p = scene.panels.empty() ? empty : scene.panels[static_cast<std::size_t>(k)];
    const PanelCells pc = panel_cells(scene, p, events);
    const int x0 = k * (pw + kGap);
    detail::paint_frame(img, x0, frame, pc.cells);
    if (!lines) continue;
    detail::draw_edge_walls(img, x0, frame);
    detail::draw_links(img, x0, frame);
    detail::Plotter plot(img, x0, pw, 1);
    if (pc.last_sight) {
      const auto& e = *pc.last_sight;
      if (g.map_cell(e.cell.x, e.cell.y) && g.map_cell(e.other.x, e.other.y)) {
        plot.segment(frame.centre_px(e.cell), frame.centre_px(e.other), 1,
                     e.g > 0 ? kSightClear : kSightBlocked);
      }
    }
    if (pc.finished) {
      if (p.path) detail::draw_link_steps(img, x0, frame, *p.path);
      if (p.smoothed) detail::draw_polyline(img, x0, frame, *p.smoothed, kSmoothed);
      if (p.polyline) detail::draw_polyline(img, x0, frame, *p.polyline, kLine);
    }
  }
  return img;
}

IndexedImage raster(const Scene& scene, const Options& options, std::size_t events, bool lines) {
  check_scene(scene);
  const grid::Grid& g = *scene.grid;
  if (detail::needs_frame(g)) return raster_frame(scene, options, events, lines);
  const int cp = cell_size(scene, options);
  const int panels = std::max<int>(1, static_cast<int>(scene.panels.size()));
  const int pw = g.width() * cp, ph = g.height() * cp;
  IndexedImage img;
  img.width = panels * pw + (panels - 1) * kGap;
  img.height = ph;
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kBackground);
  for (int k = 0; k < panels; ++k) {
    const Panel empty{};
    const Panel& p = scene.panels.empty() ? empty : scene.panels[static_cast<std::size_t>(k)];
    const PanelCells pc = panel_cells(scene, p, events);
    const int x0 = k * (pw + kGap);
    detail::paint_cells(img, x0, pc.cells, g.width(), g.height(), cp);
    if (!lines) continue;
    detail::Plotter plot(img, x0, pw, cp);
    if (pc.last_sight) {
      const auto& e = *pc.last_sight;
      plot.segment(centre(e.cell), centre(e.other), 1, e.g > 0 ? kSightClear : kSightBlocked);
    }
    if (pc.finished) {
      // The any-angle line on top: where smoothing it changed nothing it hides the smoothed
      // one, so magenta shows only where smoothing found a shortcut.
      if (p.smoothed) plot.polyline(*p.smoothed, kSmoothed);
      if (p.polyline) plot.polyline(*p.polyline, kLine);
    }
  }
  return img;
}
}  // namespace

void write_png(const Scene& scene, const std::string& path, const Options& options) {
  detail::write_png(draw(scene, options), path);
}

void write_gif(const Scene& scene, const std::string& path, const Options& options) {
  check_scene(scene);
  std::size_t longest = 0;
  for (const auto& p : scene.panels) longest = std::max(longest, p.trace ? p.trace->size() : 0);
  // Lockstep: every panel advances by the same number of events per frame; a search that
  // is done holds its final picture while the others catch up.
  const int frames = std::max(1, options.frames);
  const std::size_t step = std::max<std::size_t>(1, (longest + frames - 1) / frames);

  const IndexedImage first = draw(scene, options, 0);
  detail::GifWriter gif(path, first.width, first.height);
  for (std::size_t shown = 0;; shown += step) {
    const bool last = shown >= longest;
    gif.frame(last ? draw(scene, options) : draw(scene, options, shown),
              last ? options.final_delay_cs : options.frame_delay_cs);
    if (last) break;
  }
  gif.close();
}

namespace {
/// svg() for the map kinds that need a MapFrame: cells as shapes, thin walls, links, the path
/// per floor with its link steps, then the smoothed and any-angle lines.
std::string svg_frame(const Scene& scene, const Options& options) {
  check_scene(scene);
  const grid::Grid& g = *scene.grid;
  const detail::MapFrame frame(g, options.cell_px);
  const int panels = std::max<int>(1, static_cast<int>(scene.panels.size()));
  const int pw = frame.width();
  std::string out = detail::svg_open(panels * pw + (panels - 1) * kGap, frame.height());
  for (int k = 0; k < panels; ++k) {
    const Panel empty{};
    const Panel& p = scene.panels.empty() ? empty : scene.panels[static_cast<std::size_t>(k)];
    const double x0 = static_cast<double>(k) * (pw + kGap);
    out += detail::svg_frame_cells(frame, x0,
                                   panel_cells(scene, p, static_cast<std::size_t>(-1)).cells);
    out += detail::svg_edge_walls(frame, x0);
    out += detail::svg_links(frame, x0);
    const bool any_angle = p.polyline && !p.polyline->empty();
    if (!any_angle && p.path && !p.path->empty()) out += detail::svg_path(frame, x0, *p.path);
    if (p.smoothed && !p.smoothed->empty()) {
      out += detail::svg_point_line(frame, x0, "smoothed", *p.smoothed, kSmoothed);
    }
    if (any_angle) out += detail::svg_point_line(frame, x0, "line", *p.polyline, kLine);
    if (!p.title.empty()) {
      out += "<text x=\"" + std::to_string(x0 + 4) +
             "\" y=\"14\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#d00\">" +
             xml_escape(p.title) + "</text>\n";
    }
  }
  return out + "</svg>\n";
}
}  // namespace

std::string svg(const Scene& scene, const Options& options) {
  if (scene.grid != nullptr && detail::needs_frame(*scene.grid)) return svg_frame(scene, options);
  // Cells only: the segments go on top as vector polylines, crisp at any zoom.
  const IndexedImage img = raster(scene, options, static_cast<std::size_t>(-1), false);
  const grid::Grid& g = *scene.grid;
  const int cp = cell_size(scene, options);
  const auto colour = detail::svg_colour;
  std::string out = detail::svg_open(img.width, img.height) + detail::svg_cells(img, cp);
  // The path again as a polyline through cell centres, so it stays crisp when zoomed.
  const int pw = g.width() * cp;
  auto line = [&](const char* cls, const std::vector<Point>& pts, double x0, std::uint8_t c) {
    const double width = std::max(1.5, cp * 0.25);
    out += detail::svg_polyline(cls, pts, x0, cp, c, width);
    for (const Point& q : pts) {
      out += "<circle class=\"" + std::string(cls) + "-vertex\" cx=\"" +
             std::to_string(x0 + q.x * cp) + "\" cy=\"" + std::to_string(q.y * cp) + "\" r=\"" +
             std::to_string(width) + "\" fill=\"" + colour(c) + "\"/>\n";
    }
  };
  for (std::size_t k = 0; k < scene.panels.size(); ++k) {
    const Panel& p = scene.panels[k];
    const double x0 = static_cast<double>(k) * (pw + kGap);
    // An any-angle path's cells are only its turning cells: its polyline replaces the line
    // through the path's cells. Stacked as in the raster: path, smoothed, any-angle line.
    const bool any_angle = p.polyline && !p.polyline->empty();
    if (!any_angle && p.path && !p.path->empty()) {
      out += "<polyline class=\"path\" fill=\"none\" stroke=\"" + colour(kPath) +
             "\" stroke-width=\"" + std::to_string(std::max(1.0, cp * 0.4)) + "\" points=\"";
      for (Cell c : *p.path) {
        out += std::to_string(x0 + (c.x + 0.5) * cp) + "," + std::to_string((c.y + 0.5) * cp) + " ";
      }
      out += "\"/>\n";
    }
    if (p.smoothed && !p.smoothed->empty()) line("smoothed", *p.smoothed, x0, kSmoothed);
    if (any_angle) line("line", *p.polyline, x0, kLine);
    if (!p.title.empty()) {
      out += "<text x=\"" + std::to_string(x0 + 4) +
             "\" y=\"14\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#d00\">" +
             xml_escape(p.title) + "</text>\n";
    }
  }
  return out + "</svg>\n";
}

bool is_render_path(std::string_view path) {
  return detail::format_of(path).has_value();
}

void render_file(const Scene& scene, const std::string& path, const Options& options) {
  const auto format = detail::format_of(path);
  if (!format) throw std::runtime_error(path + ": unknown render format (use .png, .gif or .svg)");
  switch (*format) {
    case detail::Format::png:
      return write_png(scene, path, options);
    case detail::Format::gif:
      return write_gif(scene, path, options);
    case detail::Format::svg:
      return detail::write_text(path, svg(scene, options));
  }
}

}  // namespace pathlab::render
