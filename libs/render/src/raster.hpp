// Internal pieces shared by the search renders (render.cpp) and the simulation renders
// (simulation.cpp): cell colours, a rasteriser for segments, discs, polygons and digits on a
// palette image, the animated GIF writer (frames store only what changed), PNG and SVG output.
// Not installed: the public faces are render.hpp and simulation.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/render/render.hpp>

namespace pathlab::render::detail {

/// Pixels per cell: `requested` when positive, else what fits the map in about 640 pixels.
[[nodiscard]] int fit_cell_px(int width, int height, int requested);

/// A cell's colour before anything is drawn over it: wall, free or terrain shade.
[[nodiscard]] std::uint8_t base_colour(const grid::Grid& g, int x, int y);

/// base_colour of every cell, row-major.
[[nodiscard]] std::vector<std::uint8_t> base_cells(const grid::Grid& g);

/// base_cells with every cell a goal of `f` reaches shaded by its distance (the closed-cell
/// ramp, near to far) and the goals red (flow.cpp).
[[nodiscard]] std::vector<std::uint8_t> flow_cells(const grid::Grid& g, const flow::Field& f);

/// Fills cp x cp squares of `img` from a row-major colour per cell, the map's left edge at x0.
void paint_cells(IndexedImage& img, int x0, const std::vector<std::uint8_t>& cells, int width,
                 int height, int cp);

/// Plots shapes on one panel of an indexed image, without anti-aliasing (the palette is
/// fixed): segments by a DDA walk in half-pixel steps stamping a square brush, discs and
/// polygons by the pixel centres they cover; clipped to the panel so a segment to the map's
/// far edge (a lattice corner at x = width) stays inside.
class Plotter {
 public:
  Plotter(IndexedImage& img, int x0, int panel_w, int cell_px)
      : img_(img), x0_(x0), w_(panel_w), cp_(cell_px) {}

  /// Pixel coordinates of a point in map units.
  [[nodiscard]] double px(double x) const { return x0_ + x * cp_; }
  [[nodiscard]] double py(double y) const { return y * cp_; }

  /// A size x size square of pixels centred on (x, y) in pixel coordinates.
  void stamp(double x, double y, int size, std::uint8_t colour);
  /// A straight segment between points in map units, `width` pixels thick.
  void segment(Point a, Point b, int width, std::uint8_t colour);
  /// Segments through the points, then a dot on every vertex so the turns show.
  void polyline(const std::vector<Point>& pts, std::uint8_t colour);
  /// The pixels whose centres lie within `radius_px` of a point in map units.
  void disc(Point c, double radius_px, std::uint8_t colour);
  /// The pixels whose centres lie inside a polygon in map units (even-odd rule).
  void polygon(const std::vector<Point>& pts, std::uint8_t colour);
  /// Digits, '.', ':', '-', 's' and spaces in a 3x5 pixel font magnified `scale` times, the
  /// top-left corner at pixel (x, y) (other characters are blanks).
  void text(int x, int y, std::string_view s, int scale, std::uint8_t colour);
  /// The pixel size of text() output.
  [[nodiscard]] static int text_width(std::string_view s, int scale) {
    return static_cast<int>(s.size()) * 4 * scale - scale;
  }
  [[nodiscard]] static int text_height(int scale) { return 5 * scale; }
  /// A rectangle of pixels (clipped).
  void fill(int x, int y, int w, int h, std::uint8_t colour);

 private:
  IndexedImage& img_;
  int x0_, w_, cp_;
};

/// The file format a path asks for by its extension (case-insensitive).
enum class Format : std::uint8_t { png, gif, svg };
[[nodiscard]] std::optional<Format> format_of(std::string_view path);

/// Writes an indexed image as an RGB PNG. Throws std::runtime_error naming the file.
void write_png(const IndexedImage& img, const std::string& path);

/// An animated GIF over the fixed palette, looping forever. Each frame stores only the
/// rectangle that changed since the previous one (disposal "do not dispose"). Every failure
/// throws std::runtime_error naming the file.
class GifWriter {
 public:
  GifWriter(const std::string& path, int width, int height);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  /// Appends a frame of the writer's size, shown for `delay_cs` hundredths of a second.
  void frame(const IndexedImage& img, int delay_cs);
  /// Finishes the file (the destructor only closes it).
  void close();

 private:
  struct File;
  std::unique_ptr<File> file_;
  std::string path_;
  IndexedImage prev_;
  [[noreturn]] void fail(const char* what);
};

/// "#rrggbb" of a palette entry.
[[nodiscard]] std::string svg_colour(std::uint8_t index);
/// The opening <svg> tag of a picture `width` x `height` pixels.
[[nodiscard]] std::string svg_open(int width, int height);
/// The cells of a picture as <rect>s, one per horizontal run of equal cells (every cp-th row
/// of pixels is read), so big maps stay small.
[[nodiscard]] std::string svg_cells(const IndexedImage& img, int cp);
/// "x,y x,y …": points in map units as SVG pixel coordinates (x0 + x·cp, y·cp).
[[nodiscard]] std::string svg_points(const std::vector<Point>& pts, double x0, int cp);
/// <polyline class="cls"> through points in map units, `width` pixels wide, round joins.
[[nodiscard]] std::string svg_polyline(const char* cls, const std::vector<Point>& pts, double x0,
                                       int cp, std::uint8_t colour, double width);
/// Writes text to a file. Throws std::runtime_error naming the file.
void write_text(const std::string& path, const std::string& text);

}  // namespace pathlab::render::detail
