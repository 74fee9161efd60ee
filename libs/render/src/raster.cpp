// The shared rasteriser and file writers of the render module (see raster.hpp).
#include "raster.hpp"

#include <fcntl.h>
#include <gif_lib.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace pathlab::render::detail {

int fit_cell_px(int width, int height, int requested) {
  if (requested > 0) return requested;
  const int longest = std::max(1, std::max(width, height));
  return std::clamp(640 / longest, 1, 24);
}

std::uint8_t base_colour(const grid::Grid& g, int x, int y) {
  if (!g.passable(x, y)) return kWall;
  const float t = g.terrain(x, y);
  if (t <= 1.0f) return kFree;
  const int k = std::clamp(static_cast<int>(std::lround(t)) - 2, 0, 7);
  return static_cast<std::uint8_t>(kTerrainFirst + k);
}

std::vector<std::uint8_t> base_cells(const grid::Grid& g) {
  std::vector<std::uint8_t> cells;
  cells.reserve(static_cast<std::size_t>(g.width()) * static_cast<std::size_t>(g.height()));
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) cells.push_back(base_colour(g, x, y));
  return cells;
}

void paint_cells(IndexedImage& img, int x0, const std::vector<std::uint8_t>& cells, int width,
                 int height, int cp) {
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const std::uint8_t c = cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                   static_cast<std::size_t>(x)];
      for (int dy = 0; dy < cp; ++dy) {
        std::uint8_t* row = &img.pixels[static_cast<std::size_t>(y * cp + dy) *
                                        static_cast<std::size_t>(img.width)];
        std::fill(row + x0 + x * cp, row + x0 + (x + 1) * cp, c);
      }
    }
  }
}

void Plotter::fill(int x, int y, int w, int h, std::uint8_t colour) {
  for (int j = std::max(y, 0); j < std::min(y + h, img_.height); ++j) {
    for (int i = std::max(x, x0_); i < std::min(x + w, x0_ + w_); ++i) {
      img_.pixels[static_cast<std::size_t>(j) * static_cast<std::size_t>(img_.width) +
                  static_cast<std::size_t>(i)] = colour;
    }
  }
}

void Plotter::stamp(double x, double y, int size, std::uint8_t colour) {
  const int i0 = static_cast<int>(std::floor(x - (size - 1) / 2.0));
  const int j0 = static_cast<int>(std::floor(y - (size - 1) / 2.0));
  fill(i0, j0, size, size, colour);
}

namespace {
/// Far off the picture (or not a number) is nothing to draw, and would overflow pixel counts.
bool within_reach(const IndexedImage& img, double x, double y) {
  const double reach = 4.0 * (img.width + img.height);
  return std::abs(x) <= reach && std::abs(y) <= reach;
}
}  // namespace

void Plotter::segment(Point a, Point b, int width, std::uint8_t colour) {
  const double ax = px(a.x), ay = py(a.y), bx = px(b.x), by = py(b.y);
  if (!within_reach(img_, ax, ay) || !within_reach(img_, bx, by)) return;
  const int steps =
      std::max(1, static_cast<int>(std::ceil(2 * std::max(std::abs(bx - ax), std::abs(by - ay)))));
  for (int k = 0; k <= steps; ++k) {
    const double t = static_cast<double>(k) / steps;
    stamp(ax + (bx - ax) * t, ay + (by - ay) * t, width, colour);
  }
}

void Plotter::polyline(const std::vector<Point>& pts, std::uint8_t colour) {
  const int width = cp_ >= 8 ? 2 : 1;
  for (std::size_t i = 1; i < pts.size(); ++i) segment(pts[i - 1], pts[i], width, colour);
  const int dot = std::max(width + 1, cp_ / 3);
  for (const Point& q : pts) stamp(px(q.x), py(q.y), dot, colour);
}

void Plotter::disc(Point c, double radius_px, std::uint8_t colour) {
  const double cx = px(c.x), cy = py(c.y);
  if (!within_reach(img_, cx, cy) || !(radius_px >= 0) || radius_px > img_.width + img_.height) {
    return;
  }
  const int j0 = std::max(0, static_cast<int>(std::floor(cy - radius_px)));
  const int j1 = std::min(img_.height - 1, static_cast<int>(std::ceil(cy + radius_px)));
  for (int j = j0; j <= j1; ++j) {
    const double dy = j + 0.5 - cy;
    const double half = radius_px * radius_px - dy * dy;
    if (half < 0) continue;
    // Pixel centres i + 0.5 within [cx - h, cx + h].
    const double h = std::sqrt(half);
    const int i0 = static_cast<int>(std::ceil(cx - h - 0.5));
    const int i1 = static_cast<int>(std::floor(cx + h - 0.5));
    fill(i0, j, i1 - i0 + 1, 1, colour);
  }
}

void Plotter::polygon(const std::vector<Point>& pts, std::uint8_t colour) {
  if (pts.size() < 3) return;
  double top = img_.height, bottom = 0;
  for (const Point& q : pts) {
    if (!within_reach(img_, px(q.x), py(q.y))) return;
    top = std::min(top, py(q.y));
    bottom = std::max(bottom, py(q.y));
  }
  const int j0 = std::max(0, static_cast<int>(std::floor(top)));
  const int j1 = std::min(img_.height - 1, static_cast<int>(std::ceil(bottom)));
  std::vector<double> xs;
  for (int j = j0; j <= j1; ++j) {
    // Scan line through the pixel centres: where it crosses each edge (half-open in y, so a
    // vertex on the line counts once).
    const double y = j + 0.5;
    xs.clear();
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const Point& a = pts[k];
      const Point& b = pts[(k + 1) % pts.size()];
      const double ay = py(a.y), by = py(b.y);
      if ((ay <= y) == (by <= y)) continue;
      xs.push_back(px(a.x) + (y - ay) / (by - ay) * (px(b.x) - px(a.x)));
    }
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 0; k + 1 < xs.size(); k += 2) {
      const int i0 = static_cast<int>(std::ceil(xs[k] - 0.5));
      const int i1 = static_cast<int>(std::floor(xs[k + 1] - 0.5));
      fill(i0, j, i1 - i0 + 1, 1, colour);
    }
  }
}

void Plotter::text(int x, int y, std::string_view s, int scale, std::uint8_t colour) {
  // Five rows of three bits per glyph, the top row in the high bits.
  auto glyph = [](char ch) -> unsigned {
    static constexpr unsigned kDigits[10] = {0x7B6F, 0x2C97, 0x73E7, 0x72CF, 0x5BC9,
                                             0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF};
    if (ch >= '0' && ch <= '9') return kDigits[ch - '0'];
    switch (ch) {
      case '.':
        return 0x0002;
      case ':':
        return 0x0410;
      case '-':
        return 0x01C0;
      case 's':
        return 0x388E;
      default:
        return 0;
    }
  };
  for (std::size_t k = 0; k < s.size(); ++k) {
    const unsigned bits = glyph(s[k]);
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 3; ++col) {
        if ((bits >> (14 - row * 3 - col)) & 1u) {
          fill(x + (static_cast<int>(k) * 4 + col) * scale, y + row * scale, scale, scale, colour);
        }
      }
    }
  }
}

std::optional<Format> format_of(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "png") return Format::png;
  if (ext == "gif") return Format::gif;
  if (ext == "svg") return Format::svg;
  return std::nullopt;
}

void write_png(const IndexedImage& img, const std::string& path) {
  const auto& pal = palette();
  std::vector<std::uint8_t> rgb(img.pixels.size() * 3);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) rgb[i * 3 + c] = pal[img.pixels[i] * 3u + c];
  }
  if (stbi_write_png(path.c_str(), img.width, img.height, 3, rgb.data(), img.width * 3) == 0) {
    throw std::runtime_error(path + ": cannot write PNG");
  }
}

struct GifWriter::File {
  GifFileType* gif = nullptr;
};

GifWriter::GifWriter(const std::string& path, int width, int height)
    : file_(std::make_unique<File>()), path_(path) {
  int err = 0;
  // Our own descriptor: giflib's EGifOpenFileName creates files readable by the owner only.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot write GIF");
  file_->gif = EGifOpenFileHandle(fd, &err);
  if (file_->gif == nullptr) {
    ::close(fd);
    throw std::runtime_error(path + ": cannot write GIF");
  }
  const auto& pal = palette();
  GifColorType colours[256];
  for (int i = 0; i < 256; ++i) colours[i] = {pal[i * 3u], pal[i * 3u + 1], pal[i * 3u + 2]};
  ColorMapObject* map = GifMakeMapObject(256, colours);
  EGifSetGifVersion(file_->gif, true);
  const int screen = EGifPutScreenDesc(file_->gif, width, height, 8, 0, map);
  GifFreeMapObject(map);
  if (screen == GIF_ERROR) fail("cannot write GIF header");
  // NETSCAPE2.0 application extension: loop forever.
  unsigned char loop[3] = {1, 0, 0};
  if (EGifPutExtensionLeader(file_->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(file_->gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(file_->gif, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(file_->gif) == GIF_ERROR) {
    fail("cannot write GIF loop extension");
  }
}

GifWriter::~GifWriter() {
  if (file_ && file_->gif) {
    int e = 0;
    EGifCloseFile(file_->gif, &e);
  }
}

void GifWriter::fail(const char* what) {
  int e = 0;
  EGifCloseFile(file_->gif, &e);
  file_->gif = nullptr;
  throw std::runtime_error(path_ + ": " + what);
}

void GifWriter::frame(const IndexedImage& img, int delay_cs) {
  int x0 = 0, y0 = 0, x1 = img.width - 1, y1 = img.height - 1;
  if (!prev_.pixels.empty()) {
    x0 = img.width, y0 = img.height, x1 = -1, y1 = -1;
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) {
        const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                              static_cast<std::size_t>(x);
        if (img.pixels[i] != prev_.pixels[i]) {
          x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
      }
    }
    if (x1 < 0) x0 = y0 = x1 = y1 = 0;  // nothing changed: a 1-pixel frame keeps the timing
  }
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.DelayTime = delay_cs;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  EGifGCBToExtension(&gcb, ext);
  const int w = x1 - x0 + 1, h = y1 - y0 + 1;
  if (EGifPutExtension(file_->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR ||
      EGifPutImageDesc(file_->gif, x0, y0, w, h, false, nullptr) == GIF_ERROR) {
    fail("cannot write GIF frame");
  }
  for (int y = y0; y <= y1; ++y) {
    auto* row = const_cast<GifPixelType*>(
        &img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                    static_cast<std::size_t>(x0)]);
    if (EGifPutLine(file_->gif, row, w) == GIF_ERROR) fail("cannot write GIF pixels");
  }
  prev_ = img;
}

void GifWriter::close() {
  int err = 0;
  GifFileType* gif = file_->gif;
  file_->gif = nullptr;
  if (EGifCloseFile(gif, &err) == GIF_ERROR)
    throw std::runtime_error(path_ + ": cannot finish GIF");
}

std::string svg_colour(std::uint8_t index) {
  const auto& pal = palette();
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", pal[index * 3u], pal[index * 3u + 1],
                pal[index * 3u + 2]);
  return buf;
}

std::string svg_open(int width, int height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\" shape-rendering=\"crispEdges\">\n";
}

std::string svg_cells(const IndexedImage& img, int cp) {
  std::string out;
  for (int y = 0; y < img.height; y += cp) {
    const std::uint8_t* row =
        &img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width)];
    for (int x = 0; x < img.width;) {
      int run = 1;
      while (x + run < img.width && row[x + run] == row[x]) ++run;
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
             std::to_string(run) + "\" height=\"" + std::to_string(cp) + "\" fill=\"" +
             svg_colour(row[x]) + "\"/>\n";
      x += run;
    }
  }
  return out;
}

std::string svg_points(const std::vector<Point>& pts, double x0, int cp) {
  std::string out;
  for (const Point& q : pts) {
    out += std::to_string(x0 + q.x * cp) + "," + std::to_string(q.y * cp) + " ";
  }
  return out;
}

std::string svg_polyline(const char* cls, const std::vector<Point>& pts, double x0, int cp,
                         std::uint8_t colour, double width) {
  return std::string("<polyline class=\"") + cls + "\" fill=\"none\" stroke=\"" +
         svg_colour(colour) + "\" stroke-width=\"" + std::to_string(width) +
         "\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"" +
         svg_points(pts, x0, cp) + "\"/>\n";
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error(path + ": cannot write SVG");
}

}  // namespace pathlab::render::detail
