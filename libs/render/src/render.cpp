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

/// What one panel shows per cell after `events` events.
std::vector<std::uint8_t> panel_cells(const Scene& s, const Panel& p, std::size_t events) {
  const grid::Grid& g = *s.grid;
  const auto w = static_cast<std::size_t>(g.width());
  std::vector<std::uint8_t> cells(w * static_cast<std::size_t>(g.height()));
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
  return cells;
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
    const auto cells = panel_cells(scene, p, events);
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
  }
  return img;
}

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
  const IndexedImage img = draw(scene, options);
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
  for (std::size_t k = 0; k < scene.panels.size(); ++k) {
    const Panel& p = scene.panels[k];
    const double x0 = static_cast<double>(k) * (pw + kGap);
    if (p.path && !p.path->empty()) {
      out += "<polyline class=\"path\" fill=\"none\" stroke=\"" + colour(kPath) +
             "\" stroke-width=\"" + std::to_string(std::max(1.0, cp * 0.4)) + "\" points=\"";
      for (Cell c : *p.path) {
        out += std::to_string(x0 + (c.x + 0.5) * cp) + "," + std::to_string((c.y + 0.5) * cp) + " ";
      }
      out += "\"/>\n";
    }
    if (!p.title.empty()) {
      out += "<text x=\"" + std::to_string(x0 + 4) +
             "\" y=\"14\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#d00\">" + p.title +
             "</text>\n";
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
