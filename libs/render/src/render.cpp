// Rasterising a scene into a palette image, and writing it as PNG (stb_image_write), animated
// GIF (giflib) or SVG. The palette is fixed, so GIF frames need no colour quantisation.
#include <pathlab/render/render.hpp>

#include <fcntl.h>
#include <gif_lib.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

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
  if (o.cell_px > 0) return o.cell_px;
  const int longest = std::max(1, std::max(s.grid->width(), s.grid->height()));
  return std::clamp(640 / longest, 1, 24);
}

std::uint8_t base_colour(const grid::Grid& g, int x, int y) {
  if (!g.passable(x, y)) return kWall;
  const float t = g.terrain(x, y);
  if (t <= 1.0f) return kFree;
  const int k = std::clamp(static_cast<int>(std::lround(t)) - 2, 0, 7);
  return static_cast<std::uint8_t>(kTerrainFirst + k);
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
  cells.resize(w * static_cast<std::size_t>(g.height()));
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) cells[y * w + x] = base_colour(g, x, y);
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

/// Plots straight segments on one panel of an indexed image, without anti-aliasing (the
/// palette is fixed): a DDA walk in half-pixel steps stamping a square brush, clipped to the
/// panel so a segment to the map's far edge (a lattice corner at x = width) stays inside.
class Plotter {
 public:
  Plotter(IndexedImage& img, int x0, int panel_w, int cell_px)
      : img_(img), x0_(x0), w_(panel_w), cp_(cell_px) {}

  /// Pixel coordinates of a point in map units.
  [[nodiscard]] double px(double x) const { return x0_ + x * cp_; }
  [[nodiscard]] double py(double y) const { return y * cp_; }

  /// A size x size square of pixels centred on (x, y) in pixel coordinates.
  void stamp(double x, double y, int size, std::uint8_t colour) {
    const int i0 = static_cast<int>(std::floor(x - (size - 1) / 2.0));
    const int j0 = static_cast<int>(std::floor(y - (size - 1) / 2.0));
    for (int j = std::max(j0, 0); j < std::min(j0 + size, img_.height); ++j) {
      for (int i = std::max(i0, x0_); i < std::min(i0 + size, x0_ + w_); ++i) {
        img_.pixels[static_cast<std::size_t>(j) * static_cast<std::size_t>(img_.width) +
                    static_cast<std::size_t>(i)] = colour;
      }
    }
  }

  void segment(Point a, Point b, int width, std::uint8_t colour) {
    const double ax = px(a.x), ay = py(a.y), bx = px(b.x), by = py(b.y);
    // Far off the picture (or not a number) is nothing to draw, and would overflow the count.
    const double reach = 4.0 * (img_.width + img_.height);
    if (!(std::abs(ax) <= reach && std::abs(ay) <= reach && std::abs(bx) <= reach &&
          std::abs(by) <= reach)) {
      return;
    }
    const int steps = std::max(
        1, static_cast<int>(std::ceil(2 * std::max(std::abs(bx - ax), std::abs(by - ay)))));
    for (int k = 0; k <= steps; ++k) {
      const double t = static_cast<double>(k) / steps;
      stamp(ax + (bx - ax) * t, ay + (by - ay) * t, width, colour);
    }
  }

  /// Segments through the points, then a dot on every vertex so the turns show.
  void polyline(const std::vector<Point>& pts, std::uint8_t colour) {
    const int width = cp_ >= 8 ? 2 : 1;
    for (std::size_t i = 1; i < pts.size(); ++i) segment(pts[i - 1], pts[i], width, colour);
    const int dot = std::max(width + 1, cp_ / 3);
    for (const Point& q : pts) stamp(px(q.x), py(q.y), dot, colour);
  }

 private:
  IndexedImage& img_;
  int x0_, w_, cp_;
};

/// The picture of the cells, and with `lines` the segments over them (SVG draws those itself).
IndexedImage raster(const Scene& scene, const Options& options, std::size_t events, bool lines);

/// Titles are user text (algorithm names with weights today, anything tomorrow).
std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

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
IndexedImage raster(const Scene& scene, const Options& options, std::size_t events, bool lines) {
  check_scene(scene);
  const grid::Grid& g = *scene.grid;
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
    const auto& cells = pc.cells;
    const int x0 = k * (pw + kGap);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const std::uint8_t c =
            cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) +
                  static_cast<std::size_t>(x)];
        for (int dy = 0; dy < cp; ++dy) {
          std::uint8_t* row = &img.pixels[static_cast<std::size_t>(y * cp + dy) *
                                          static_cast<std::size_t>(img.width)];
          std::fill(row + x0 + x * cp, row + x0 + (x + 1) * cp, c);
        }
      }
    }
    if (!lines) continue;
    Plotter plot(img, x0, pw, cp);
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
  const IndexedImage img = draw(scene, options);
  const auto& pal = palette();
  std::vector<std::uint8_t> rgb(img.pixels.size() * 3);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) rgb[i * 3 + c] = pal[img.pixels[i] * 3u + c];
  }
  if (stbi_write_png(path.c_str(), img.width, img.height, 3, rgb.data(), img.width * 3) == 0) {
    throw std::runtime_error(path + ": cannot write PNG");
  }
}

void write_gif(const Scene& scene, const std::string& path, const Options& options) {
  check_scene(scene);
  std::size_t longest = 0;
  for (const auto& p : scene.panels) longest = std::max(longest, p.trace ? p.trace->size() : 0);
  // Lockstep: every panel advances by the same number of events per frame; a search that
  // is done holds its final picture while the others catch up.
  const int frames = std::max(1, options.frames);
  const std::size_t step = std::max<std::size_t>(1, (longest + frames - 1) / frames);

  int err = 0;
  // Our own descriptor: giflib's EGifOpenFileName creates files readable by the owner only.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot write GIF");
  GifFileType* gif = EGifOpenFileHandle(fd, &err);
  if (gif == nullptr) {
    ::close(fd);
    throw std::runtime_error(path + ": cannot write GIF");
  }
  auto fail = [&](const char* what) {
    int e = 0;
    EGifCloseFile(gif, &e);
    throw std::runtime_error(path + ": " + what);
  };
  const auto& pal = palette();
  GifColorType colours[256];
  for (int i = 0; i < 256; ++i) colours[i] = {pal[i * 3u], pal[i * 3u + 1], pal[i * 3u + 2]};
  ColorMapObject* map = GifMakeMapObject(256, colours);
  const IndexedImage first = draw(scene, options, 0);
  EGifSetGifVersion(gif, true);
  const int screen = EGifPutScreenDesc(gif, first.width, first.height, 8, 0, map);
  GifFreeMapObject(map);
  if (screen == GIF_ERROR) fail("cannot write GIF header");
  // NETSCAPE2.0 application extension: loop forever.
  unsigned char loop[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(gif) == GIF_ERROR) {
    fail("cannot write GIF loop extension");
  }
  // Each frame stores only the rectangle that changed since the previous one (the previous
  // frame stays underneath: disposal "do not dispose").
  IndexedImage prev;
  for (std::size_t shown = 0;; shown += step) {
    const bool last = shown >= longest;
    const IndexedImage img = last ? draw(scene, options) : draw(scene, options, shown);
    int x0 = 0, y0 = 0, x1 = img.width - 1, y1 = img.height - 1;
    if (!prev.pixels.empty()) {
      x0 = img.width, y0 = img.height, x1 = -1, y1 = -1;
      for (int y = 0; y < img.height; ++y) {
        for (int x = 0; x < img.width; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                                static_cast<std::size_t>(x);
          if (img.pixels[i] != prev.pixels[i]) {
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
          }
        }
      }
      if (x1 < 0) x0 = y0 = x1 = y1 = 0;  // nothing changed: a 1-pixel frame keeps the timing
    }
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.DelayTime = last ? options.final_delay_cs : options.frame_delay_cs;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    const int w = x1 - x0 + 1, h = y1 - y0 + 1;
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR ||
        EGifPutImageDesc(gif, x0, y0, w, h, false, nullptr) == GIF_ERROR) {
      fail("cannot write GIF frame");
    }
    for (int y = y0; y <= y1; ++y) {
      auto* row = const_cast<GifPixelType*>(
          &img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                      static_cast<std::size_t>(x0)]);
      if (EGifPutLine(gif, row, w) == GIF_ERROR) fail("cannot write GIF pixels");
    }
    if (last) break;
    prev = img;
  }
  if (EGifCloseFile(gif, &err) == GIF_ERROR) throw std::runtime_error(path + ": cannot finish GIF");
}

std::string svg(const Scene& scene, const Options& options) {
  // Cells only: the segments go on top as vector polylines, crisp at any zoom.
  const IndexedImage img = raster(scene, options, static_cast<std::size_t>(-1), false);
  const auto& pal = palette();
  const grid::Grid& g = *scene.grid;
  const int cp = cell_size(scene, options);
  auto colour = [&](std::uint8_t i) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", pal[i * 3u], pal[i * 3u + 1], pal[i * 3u + 2]);
    return std::string(buf);
  };
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(img.width) + "\" height=\"" + std::to_string(img.height) +
                    "\" shape-rendering=\"crispEdges\">\n";
  // One rectangle per horizontal run of equal cells keeps big maps small.
  for (int y = 0; y < img.height; y += cp) {
    const std::uint8_t* row =
        &img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width)];
    for (int x = 0; x < img.width;) {
      int run = 1;
      while (x + run < img.width && row[x + run] == row[x]) ++run;
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
             std::to_string(run) + "\" height=\"" + std::to_string(cp) + "\" fill=\"" +
             colour(row[x]) + "\"/>\n";
      x += run;
    }
  }
  // The path again as a polyline through cell centres, so it stays crisp when zoomed.
  const int pw = g.width() * cp;
  auto line = [&](const char* cls, const std::vector<Point>& pts, double x0, std::uint8_t c) {
    const double width = std::max(1.5, cp * 0.25);
    out += std::string("<polyline class=\"") + cls + "\" fill=\"none\" stroke=\"" + colour(c) +
           "\" stroke-width=\"" + std::to_string(width) +
           "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"";
    for (const Point& q : pts) {
      out += std::to_string(x0 + q.x * cp) + "," + std::to_string(q.y * cp) + " ";
    }
    out += "\"/>\n";
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

void render_file(const Scene& scene, const std::string& path, const Options& options) {
  auto ends = [&](const char* ext) {
    const std::string e = ext;
    if (path.size() < e.size()) return false;
    std::string tail = path.substr(path.size() - e.size());
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tail == e;
  };
  if (ends(".png")) {
    write_png(scene, path, options);
  } else if (ends(".gif")) {
    write_gif(scene, path, options);
  } else if (ends(".svg")) {
    std::ofstream out(path);
    out << svg(scene, options);
    if (!out) throw std::runtime_error(path + ": cannot write SVG");
  } else {
    throw std::runtime_error(path + ": unknown render format (use .png, .gif or .svg)");
  }
}

}  // namespace pathlab::render
