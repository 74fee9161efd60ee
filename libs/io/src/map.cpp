// Map readers and writers for the formats of shared docs/DESIGN.md "Formats": the users' text
// format, ASCII, Moving AI .map and images (decoded by stb_image). Every parser checks sizes
// before it allocates and reports problems as ParseError(file, line, message).
#include <pathlab/io/map.hpp>
#include <pathlab/io/tiled.hpp>

#include <pathlab/grid/unit.hpp>

#include <stb_image.h>
#include <stb_image_write.h>

#include "text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace pathlab::io {

namespace {

using grid::Grid;

constexpr std::string_view limit_text = "the limit of 2^28 cells";

// Splits bytes into lines without their terminator; accepts LF and CRLF. A final newline does not
// start another line. Copyable, so a parser can remember a position and read again from it.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }
  /// Number of the line last returned by next() (1-based); 0 before the first.
  [[nodiscard]] int number() const noexcept { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

using detail::printable;

// How a character is named in an error message: 'x' when printable, its byte value otherwise
// (file contents can be binary and must not garble the terminal).
std::string describe(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (printable(c)) return std::string("'") + ch + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
  return buf;
}

std::string cell_text(Cell c) {
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

std::string size_text(std::int64_t w, std::int64_t h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string lower_extension(std::string_view name) {
  const std::size_t slash = name.find_last_of("/\\");
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  std::string ext(name.substr(dot));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// ---------------------------------------------------------------------------------------------
// Row-based formats (users' text and ASCII): one line per row, short rows padded with free cells,
// width = longest row, trailing empty lines ignored.

enum class CellKind : std::uint8_t { free, wall, start, goal, end_of_row, invalid };

CellKind text_cell(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  switch (c) {
    case '1':
      return CellKind::wall;
    case '8':
      return CellKind::start;
    case '9':
      return CellKind::goal;
    case '$':
      return CellKind::end_of_row;
    default:
      // "Anything else is free", but control bytes and non-ASCII bytes mean binary data or a
      // multi-byte character that would not be one cell: reject them rather than guess.
      return (printable(c) || c == '\t') ? CellKind::free : CellKind::invalid;
  }
}

CellKind ascii_cell(char c) {
  switch (c) {
    case '#':
    case '@':
      return CellKind::wall;
    case '.':
    case ' ':
      return CellKind::free;
    case 'S':
      return CellKind::start;
    case 'G':
      return CellKind::goal;
    default:
      return CellKind::invalid;
  }
}

// A ruler is made of '-', '+', '|', digits and blanks, and holds at least one character that is
// not a text-map cell ('-', '+', '|' or a digit 2..7): "1111  11" reads as a row of walls, while
// "----+----+" and "0123456789" are rulers. No '$': users' rows end with one, rulers do not.
bool is_ruler(std::string_view line) {
  bool ruler_mark = false;
  for (char c : line) {
    if (c == '-' || c == '+' || c == '|' || (c >= '2' && c <= '7')) {
      ruler_mark = true;
    } else if (!(c == '0' || c == '1' || c == '8' || c == '9' || c == ' ' || c == '\t')) {
      return false;
    }
  }
  return ruler_mark;
}

template <typename Classify>
Map parse_rows(std::string_view bytes, const std::string& name, MapFormat format,
               Classify classify) {
  LineReader reader(bytes);
  std::string_view line;
  // The users' format starts with a ruler; a text map without one starts with its first row.
  if (format == MapFormat::text) {
    LineReader peek = reader;
    if (peek.next(line) && is_ruler(line)) reader = peek;
  }
  const LineReader rows_start = reader;

  // Pass 1: validate every character, find the size and the markers. Nothing is allocated until
  // the size is known to be within the limit.
  std::int64_t width = 0;
  std::int64_t height = 0;  // rows up to the last non-empty line
  std::int64_t rows = 0;
  std::optional<Cell> start;
  std::optional<Cell> goal;
  while (reader.next(line)) {
    std::int64_t x = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const CellKind kind = classify(line[i]);
      if (kind == CellKind::invalid) {
        throw ParseError(
            name, reader.number(),
            "unexpected character " + describe(line[i]) + " at column " + std::to_string(i + 1) +
                (format == MapFormat::ascii ? " (ASCII maps use '#', '@', '.', ' ', 'S' and 'G')"
                                            : ""));
      }
      if (kind == CellKind::end_of_row) {
        // The rest of the line is not part of the map, but must still be text.
        for (std::size_t j = i + 1; j < line.size(); ++j) {
          if (text_cell(line[j]) == CellKind::invalid) {
            throw ParseError(name, reader.number(),
                             "unexpected character " + describe(line[j]) + " at column " +
                                 std::to_string(j + 1));
          }
        }
        break;
      }
      if (kind == CellKind::start || kind == CellKind::goal) {
        std::optional<Cell>& slot = kind == CellKind::start ? start : goal;
        const Cell here{static_cast<std::int32_t>(std::min<std::int64_t>(x, INT32_MAX)),
                        static_cast<std::int32_t>(std::min<std::int64_t>(rows, INT32_MAX))};
        if (slot) {
          throw ParseError(name, reader.number(),
                           std::string("second ") + (kind == CellKind::start ? "start" : "goal") +
                               " marker at column " + std::to_string(i + 1) +
                               " (the first is at cell " + cell_text(*slot) + ")");
        }
        slot = here;
      }
      ++x;
    }
    width = std::max(width, x);
    ++rows;
    if (!line.empty()) height = rows;
  }
  if (width == 0 || height == 0) throw ParseError(name, 0, "empty map");
  if (width * height > Grid::max_cells) {
    throw ParseError(
        name, 0,
        "map of " + size_text(width, height) + " cells exceeds " + std::string(limit_text));
  }

  // Pass 2: only walls need setting, the grid starts all free.
  Map map{Grid(static_cast<int>(width), static_cast<int>(height)), start, goal, format};
  reader = rows_start;
  for (int y = 0; y < height && reader.next(line); ++y) {
    int x = 0;
    for (char c : line) {
      const CellKind kind = classify(c);
      if (kind == CellKind::end_of_row) break;
      if (kind == CellKind::wall) map.grid.set_blocked(x, y, true);
      ++x;
    }
  }
  return map;
}

// ---------------------------------------------------------------------------------------------
// Moving AI: "type octile", "height H", "width W", "map", then exactly H rows of W characters.
// 'G' and 'S' are ground and swamp here, not markers.

std::int64_t parse_dimension(std::string_view key, std::string_view value, const std::string& name,
                             int line) {
  std::int64_t v = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, v);
  const std::string k(key);
  if (ec == std::errc::result_out_of_range) {
    throw ParseError(name, line,
                     k + " " + detail::quote(value) + " exceeds " + std::string(limit_text));
  }
  if (ec != std::errc{} || ptr != end) {
    throw ParseError(name, line, k + " is not a number: " + detail::quote(value));
  }
  if (v < 0) throw ParseError(name, line, "negative " + k + " " + std::to_string(v));
  if (v == 0) throw ParseError(name, line, "empty map (" + k + " 0)");
  if (v > Grid::max_cells) {
    throw ParseError(name, line,
                     k + " " + std::to_string(v) + " exceeds " + std::string(limit_text));
  }
  return v;
}

bool movingai_cell(char c, bool& blocked) {
  switch (c) {
    case '.':
    case 'G':
    case 'S':
      blocked = false;
      return true;
    case '@':
    case 'O':
    case 'T':
    case 'W':
      blocked = true;
      return true;
    default:
      return false;
  }
}

Map parse_movingai(std::string_view bytes, const std::string& name) {
  LineReader reader(bytes);
  std::string_view line;
  std::int64_t height = -1;
  std::int64_t width = -1;
  bool have_type = false;
  bool have_map = false;
  grid::Layout layout = grid::Layout::square;
  const auto missing = [&] {
    std::string m;
    for (auto [have, key] : {std::pair{have_type, "'type'"}, std::pair{height >= 0, "'height'"},
                             std::pair{width >= 0, "'width'"}}) {
      if (!have) m += (m.empty() ? "" : ", ") + std::string(key);
    }
    return m;
  };
  // Header lines may come in any order; real files use type, height, width, map.
  while (!have_map && reader.next(line)) {
    const int n = reader.number();
    const auto w = detail::split_fields(line);
    if (w.empty()) throw ParseError(name, n, "blank line in the header");
    const std::string_view key = w[0];
    if (key == "map") {
      if (w.size() != 1) throw ParseError(name, n, "unexpected text after 'map'");
      const std::string lacking = missing();
      if (!lacking.empty()) throw ParseError(name, n, "header lacks " + lacking);
      have_map = true;
      break;
    }
    if (key != "type" && key != "height" && key != "width") {
      throw ParseError(name, n,
                       "unknown header line " + detail::quote(line) +
                           " (expected 'type', 'height', 'width' or 'map')");
    }
    if (w.size() != 2) {
      throw ParseError(name, n, "'" + std::string(key) + "' needs exactly one value");
    }
    if (key == "type") {
      if (have_type) throw ParseError(name, n, "second 'type' line");
      // "octile", or "hex-" and a hex layout's name (shared docs/DESIGN.md, "Every map").
      std::optional<grid::Layout> hex;
      if (w[1].starts_with("hex-")) hex = grid::parse_layout(w[1].substr(4));
      if (w[1] != "octile" && !(hex && grid::is_hex(*hex))) {
        throw ParseError(name, n,
                         "unsupported map type " + detail::quote(w[1]) +
                             " (expected octile, hex-pointy-odd-r, hex-pointy-even-r, "
                             "hex-flat-odd-q or hex-flat-even-q)");
      }
      if (hex) layout = *hex;
      have_type = true;
      continue;
    }
    std::int64_t& slot = key == "height" ? height : width;
    if (slot >= 0) throw ParseError(name, n, "second '" + std::string(key) + "' line");
    slot = parse_dimension(key, w[1], name, n);
    if (height > 0 && width > 0 && height * width > Grid::max_cells) {
      throw ParseError(
          name, n,
          "map of " + size_text(width, height) + " cells exceeds " + std::string(limit_text));
    }
  }
  if (!have_map) {
    const std::string lacking = missing();
    throw ParseError(name, reader.number() + 1,
                     "truncated header: the file ends before the 'map' line" +
                         (lacking.empty() ? std::string() : " (missing " + lacking + ")"));
  }

  // Pass 1: check the rows before allocating, so a header promising a huge map costs nothing
  // when the rows are not there.
  const LineReader rows_start = reader;
  std::int64_t rows = 0;
  while (reader.next(line)) {
    const int n = reader.number();
    if (rows == height) {
      if (blank(line)) continue;  // trailing blank lines are fine
      throw ParseError(name, n, "more rows than the height " + std::to_string(height));
    }
    if (static_cast<std::int64_t>(line.size()) != width) {
      throw ParseError(name, n,
                       "row " + std::to_string(rows) + " has " + std::to_string(line.size()) +
                           " cells, expected width " + std::to_string(width));
    }
    for (std::size_t i = 0; i < line.size(); ++i) {
      bool blocked = false;
      if (!movingai_cell(line[i], blocked)) {
        throw ParseError(name, n,
                         "unexpected character " + describe(line[i]) + " at column " +
                             std::to_string(i + 1) + " (Moving AI maps use . G S @ O T W)");
      }
    }
    ++rows;
  }
  if (rows < height) {
    throw ParseError(
        name, reader.number() + 1,
        "the file ends after " + std::to_string(rows) + " of " + std::to_string(height) + " rows");
  }

  Map map{Grid(static_cast<int>(width), static_cast<int>(height)), std::nullopt, std::nullopt,
          MapFormat::movingai};
  reader = rows_start;
  for (int y = 0; y < height && reader.next(line); ++y) {
    for (int x = 0; x < width; ++x) {
      // Walls and ground are the grid's bits; S, T and W keep their class (the default unit
      // is blocked by T and W, so the bits read as before).
      const char c = grid::canonical_class(line[static_cast<std::size_t>(x)]);
      if (c == grid::kWallClass) {
        map.grid.set_blocked(x, y, true);
      } else if (c != grid::kGroundClass) {
        map.grid.set_class(x, y, c);
      }
    }
  }
  map.grid.set_layout(layout);
  return map;
}

// ---------------------------------------------------------------------------------------------
// Images.

enum class ImageKind { none, png, jpeg, gif, bmp };

std::uint32_t le32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

std::uint16_t le16(std::string_view b, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(b[at]) |
                                    (static_cast<unsigned char>(b[at + 1]) << 8));
}

ImageKind image_kind(std::string_view b) {
  if (b.starts_with("\x89PNG\r\n\x1a\n")) return ImageKind::png;
  if (b.starts_with("\xFF\xD8\xFF")) return ImageKind::jpeg;
  if (b.starts_with("GIF87a") || b.starts_with("GIF89a")) return ImageKind::gif;
  // "BM" alone could start a text map, so the DIB header size must be one of the known ones.
  if (b.starts_with("BM") && b.size() >= 26) {
    switch (le32(b, 14)) {
      case 12:
      case 40:
      case 52:
      case 56:
      case 64:
      case 108:
      case 124:
        return ImageKind::bmp;
      default:
        break;
    }
  }
  return ImageKind::none;
}

const char* kind_name(ImageKind k) {
  switch (k) {
    case ImageKind::png:
      return "PNG";
    case ImageKind::jpeg:
      return "JPEG";
    case ImageKind::gif:
      return "GIF";
    case ImageKind::bmp:
      return "BMP";
    case ImageKind::none:
      break;
  }
  return "image";
}

// The most pixels each format can pack into one byte of file: deflate expands at most 1032:1
// and PNG pixels can be 1 bit; a GIF LZW code yields at most 4096 pixels and costs 12 bits once
// strings get that long; a baseline JPEG spends at least 1 bit on each 8x8 block; BMP pixels are
// at least 1 bit and stb reads no compressed BMP. A file claiming more pixels than that is
// corrupt, and rejecting it early keeps a tiny header from making stb allocate gigabytes.
std::int64_t max_pixels_per_byte(ImageKind k) {
  switch (k) {
    case ImageKind::png:
      return 8 * 1032;
    case ImageKind::gif:
      return 4096;
    case ImageKind::jpeg:
      return 64 * 8;
    case ImageKind::bmp:
      return 8;
    case ImageKind::none:
      break;
  }
  return 0;
}

std::uint32_t be32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

// stb trusts PNG chunk lengths and grows its buffer to hold a chunk before reading it, so a
// 100-byte file declaring a 1 GiB chunk would cost a 2 GiB allocation. Every chunk must fit in
// the file, and the pixel rows the header declares must be reachable from the compressed data
// present (deflate expands at most 1032:1).
void check_png_size(std::string_view b, const std::string& name, std::int64_t w, std::int64_t h) {
  const auto truncated = [&](const std::string& why) {
    return ParseError(name, 0, "truncated or corrupt PNG image: " + why);
  };
  std::uint64_t compressed = 0;
  std::size_t pos = 8;
  while (pos + 8 <= b.size()) {
    const std::uint64_t length = be32(b, pos);
    const std::string_view type = b.substr(pos + 4, 4);
    if (length + 12 > b.size() - pos) {
      throw truncated("a chunk of " + std::to_string(length) +
                      " bytes runs past the end of the file");
    }
    if (type == "IDAT") compressed += length;
    pos += 12 + static_cast<std::size_t>(length);
    if (type == "IEND") break;
  }
  if (b.size() < 26) return;  // no complete IHDR: stb reports it
  const int depth = static_cast<unsigned char>(b[24]);
  int channels = 1;
  switch (static_cast<unsigned char>(b[25])) {
    case 2:
      channels = 3;
      break;
    case 4:
      channels = 2;
      break;
    case 6:
      channels = 4;
      break;
    default:
      break;
  }
  // Rows without interlacing: a lower bound of what any PNG of this size must inflate to.
  const std::int64_t raw = h * (1 + (w * depth * channels + 7) / 8);
  if (static_cast<std::uint64_t>(raw) > 1032 * compressed + 1024) {
    throw truncated(size_text(w, h) + " pixels cannot come from " + std::to_string(compressed) +
                    " bytes of compressed data");
  }
}

// JPEG is refused before stb sees it. stb_image 2.27 (the Debian libstb) reads out of bounds
// on crafted JPEG files in several ways fuzz_map_image found: a Huffman table with more than
// 256 codes, a scan using tables never defined, and an out-of-bounds read in its Huffman
// decoder (stb_image.h:2115, index -335479040) that depends on memory left by earlier inputs,
// which no check of the file can rule out. A map file must never crash pathlab, so JPEG waits
// for a decoder that is safe on any input (libjpeg-turbo, a Debian package).

// stb reads missing BMP pixel data as zeros, so check that an uncompressed BMP holds all its rows.
void check_bmp_size(std::string_view b, const std::string& name, std::int64_t w, std::int64_t h) {
  const std::uint32_t header = le32(b, 14);
  if (header < 40 || b.size() < 34) return;  // OS/2 headers: leave the checks to stb
  const std::int64_t bpp = le16(b, 28);
  const std::uint32_t compression = le32(b, 30);
  if (compression != 0 || bpp == 0) return;
  const std::int64_t row_bytes = (w * bpp + 31) / 32 * 4;
  const std::int64_t needed = std::int64_t{le32(b, 10)} + row_bytes * h;
  if (static_cast<std::int64_t>(b.size()) < needed) {
    throw ParseError(name, 0,
                     "truncated image: the BMP needs " + std::to_string(needed) +
                         " bytes, the file has " + std::to_string(b.size()));
  }
}

struct StbFree {
  void operator()(stbi_uc* p) const noexcept { stbi_image_free(p); }
};

// Luminance in thousandths, exact in integers: 0.299 R + 0.587 G + 0.114 B. (In floating point a
// gray 128 can come out as 127.99999 and turn into a wall at threshold 128.)
int luminance_1000(int r, int g, int b) {
  return 299 * r + 587 * g + 114 * b;
}

Map parse_image(std::string_view bytes, const std::string& name, const MapOptions& options) {
  const ImageKind kind = image_kind(bytes);
  if (kind == ImageKind::none) {
    throw ParseError(name, 0, "not a valid image (expected PNG, BMP, JPEG or GIF data)");
  }
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw ParseError(name, 0, "image file too large");
  }
  if (kind == ImageKind::jpeg) {
    throw ParseError(name, 0,
                     "JPEG images are not read (the image decoder is not safe on every JPEG "
                     "file); save the map as PNG or BMP");
  }
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int len = static_cast<int>(bytes.size());
  int w = 0;
  int h = 0;
  int channels = 0;
  // stb's own reasons are terse ("outofdata"), so they come after the kind of image.
  const auto invalid = [&](const char* why) {
    return ParseError(name, 0,
                      "not a valid image: broken " + std::string(kind_name(kind)) + " data" +
                          (why ? std::string(" (") + why + ")" : std::string()));
  };
  if (!stbi_info_from_memory(data, len, &w, &h, &channels) || w <= 0 || h <= 0) {
    throw invalid(stbi_failure_reason());
  }
  const std::int64_t pixels = std::int64_t{w} * h;
  if (pixels > Grid::max_cells) {
    throw ParseError(name, 0,
                     "image of " + size_text(w, h) + " pixels exceeds the limit of 2^28 pixels");
  }
  if (pixels > static_cast<std::int64_t>(bytes.size()) * max_pixels_per_byte(kind)) {
    throw ParseError(name, 0,
                     "truncated or corrupt image: " + size_text(w, h) + " pixels cannot fit in " +
                         std::to_string(bytes.size()) + " bytes");
  }
  if (kind == ImageKind::png) check_png_size(bytes, name, w, h);
  if (kind == ImageKind::bmp) check_bmp_size(bytes, name, w, h);

  int w2 = 0;
  int h2 = 0;
  int n = 0;
  std::unique_ptr<stbi_uc, StbFree> pixels_ptr(stbi_load_from_memory(data, len, &w2, &h2, &n, 0));
  if (!pixels_ptr || w2 != w || h2 != h || n < 1 || n > 4) {
    throw invalid(pixels_ptr ? nullptr : stbi_failure_reason());
  }
  const stbi_uc* px = pixels_ptr.get();

  const int cell = options.cell;
  const int cw = static_cast<int>((std::int64_t{w} + cell - 1) / cell);
  const int ch = static_cast<int>((std::int64_t{h} + cell - 1) / cell);
  Map map{Grid(cw, ch), std::nullopt, std::nullopt, MapFormat::image};

  const int threshold_1000 = options.threshold * 1000;
  const int span = std::max(1, 255 - options.threshold);
  // Darkest terrain level seen in each cell (1 = plain); only kept when terrain is wanted.
  std::vector<std::uint8_t> cost;
  if (options.gray_terrain) cost.assign(static_cast<std::size_t>(cw) * ch, 1);
  std::int64_t red_x = 0, red_y = 0, red_n = 0, green_x = 0, green_y = 0, green_n = 0;

  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const stbi_uc* p = px + (static_cast<std::size_t>(y) * w + x) * n;
      int r = p[0], g = p[0], b = p[0], a = 255;
      if (n >= 3) {
        g = p[1];
        b = p[2];
      }
      if (n == 2 || n == 4) a = p[n - 1];
      if (a < 255) {
        // Transparent parts read as the white page they are drawn on.
        r = (r * a + 255 * (255 - a) + 127) / 255;
        g = (g * a + 255 * (255 - a) + 127) / 255;
        b = (b * a + 255 * (255 - a) + 127) / 255;
      }
      // Marker pixels mark a cell and are neither walls nor terrain.
      if (r > 200 && g < 60 && b < 60) {
        red_x += x, red_y += y, ++red_n;
        continue;
      }
      if (g > 200 && r < 60 && b < 60) {
        green_x += x, green_y += y, ++green_n;
        continue;
      }
      const int lum = luminance_1000(r, g, b);
      if (lum < threshold_1000) {
        map.grid.set_blocked(x / cell, y / cell, true);
      } else if (options.gray_terrain && lum < 250 * 1000) {
        // Terrain 1 + 8 (255 - lum) / (255 - threshold): the threshold gray costs 9, white 1.
        const double level = 1.0 + 8.0 * (255000.0 - lum) / (1000.0 * span);
        const auto c = static_cast<std::uint8_t>(std::clamp<long>(std::lround(level), 1, 9));
        std::uint8_t& slot = cost[static_cast<std::size_t>(y / cell) * cw + x / cell];
        slot = std::max(slot, c);
      }
    }
  }
  if (options.gray_terrain) {
    for (int y = 0; y < ch; ++y) {
      for (int x = 0; x < cw; ++x) {
        const std::uint8_t c = cost[static_cast<std::size_t>(y) * cw + x];
        if (c > 1 && map.grid.passable(x, y)) map.grid.set_terrain(x, y, c);
      }
    }
  }
  // A marker may be drawn as a blob: its cell is the one holding the blob's centre.
  if (red_n > 0) {
    map.start = Cell{static_cast<std::int32_t>(red_x / red_n / cell),
                     static_cast<std::int32_t>(red_y / red_n / cell)};
  }
  if (green_n > 0) {
    map.goal = Cell{static_cast<std::int32_t>(green_x / green_n / cell),
                    static_cast<std::int32_t>(green_y / green_n / cell)};
  }
  return map;
}

// ---------------------------------------------------------------------------------------------
// Writers. Terrain costs have no symbol in the text formats, so those cells are written as
// free cells; images keep them as gray levels that gray_terrain reads back.

std::string write_rows(const Map& map, char wall, char free, char start, char goal,
                       std::string_view row_end) {
  const Grid& g = map.grid;
  std::string out;
  out.reserve(static_cast<std::size_t>(g.width() + row_end.size() + 1) * g.height());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell c{x, y};
      if (map.start && *map.start == c) {
        out += start;
      } else if (map.goal && *map.goal == c) {
        out += goal;
      } else {
        out += g.passable(x, y) ? free : wall;
      }
    }
    out += row_end;
    out += '\n';
  }
  return out;
}

std::string encode_image(const Map& map, bool bmp) {
  const Grid& g = map.grid;
  const int w = g.width();
  const int h = g.height();
  if (w == 0 || h == 0) throw std::runtime_error("cannot write an empty map as an image");
  std::vector<unsigned char> rgb(static_cast<std::size_t>(w) * h * 3);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      unsigned char* p = &rgb[(static_cast<std::size_t>(y) * w + x) * 3];
      std::array<unsigned char, 3> colour{255, 255, 255};
      const Cell c{x, y};
      if (map.start && *map.start == c) {
        colour = {255, 0, 0};
      } else if (map.goal && *map.goal == c) {
        colour = {0, 255, 0};
      } else if (!g.passable(x, y)) {
        colour = {0, 0, 0};
      } else if (g.terrain(x, y) > 1.0f) {
        // Inverse of the gray_terrain rule at the default threshold 128.
        const double cost = std::min(9.0, static_cast<double>(g.terrain(x, y)));
        const auto lum = static_cast<unsigned char>(std::lround(255.0 - (cost - 1.0) * 127.0 / 8));
        colour = {lum, lum, lum};
      }
      std::copy(colour.begin(), colour.end(), p);
    }
  }
  std::string out;
  const auto sink = [](void* ctx, void* bytes, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(bytes),
                                           static_cast<std::size_t>(size));
  };
  const int ok = bmp ? stbi_write_bmp_to_func(sink, &out, w, h, 3, rgb.data())
                     : stbi_write_png_to_func(sink, &out, w, h, 3, rgb.data(), w * 3);
  if (!ok) throw std::runtime_error("cannot encode the image");
  return out;
}

}  // namespace

std::string_view to_string(MapFormat f) noexcept {
  switch (f) {
    case MapFormat::automatic:
      return "auto";
    case MapFormat::text:
      return "text";
    case MapFormat::ascii:
      return "ascii";
    case MapFormat::movingai:
      return "movingai";
    case MapFormat::image:
      return "image";
    case MapFormat::tmx:
      return "tmx";
    case MapFormat::tmj:
      return "tmj";
    case MapFormat::layered:
      return "layered";
  }
  return "unknown";
}

std::optional<MapFormat> parse_map_format(std::string_view s) noexcept {
  for (MapFormat f : {MapFormat::automatic, MapFormat::text, MapFormat::ascii, MapFormat::movingai,
                      MapFormat::image, MapFormat::tmx, MapFormat::tmj, MapFormat::layered}) {
    if (s == to_string(f)) return f;
  }
  return std::nullopt;
}

// XML is a Tiled map (.tmx); a JSON object is a Tiled map (.tmj, or one naming Tiled's keys
// "tilesets" or "orientation") or else a layered map. A UTF-8 byte order mark is skipped.
static std::optional<MapFormat> structured_format(std::string_view bytes, const std::string& ext) {
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  if (bytes[first] == '<') return MapFormat::tmx;
  if (bytes[first] != '{') return std::nullopt;
  if (ext == ".tmj" || bytes.find("\"tilesets\"") != std::string_view::npos ||
      bytes.find("\"orientation\"") != std::string_view::npos) {
    return MapFormat::tmj;
  }
  return MapFormat::layered;
}

// Detection, in order: image magic bytes; XML or a JSON object (structured_format); a first line
// starting with "type" (Moving AI); an image extension (so a broken .png is reported as a broken
// image); a ruler first line (users' text format); a .map extension (Moving AI, to get its header
// errors); a '$' anywhere (text format without a ruler); only ASCII-map characters, or any '#' /
// '@' (ASCII, whose parser then names the odd character); anything else is the users' text format
// without a ruler, where every other character is a free cell (e.g. maps/link_8x10.txt).
MapFormat detect_format(std::string_view bytes, std::string_view name) {
  if (image_kind(bytes) != ImageKind::none) return MapFormat::image;
  if (const auto structured = structured_format(bytes, lower_extension(name))) return *structured;
  std::string_view first;
  LineReader(bytes).next(first);
  const auto w = detail::split_fields(first);
  if (!w.empty() && w[0] == "type") return MapFormat::movingai;
  const std::string ext = lower_extension(name);
  if (ext == ".png" || ext == ".bmp" || ext == ".jpg" || ext == ".jpeg" || ext == ".gif") {
    return MapFormat::image;
  }
  if (is_ruler(first)) return MapFormat::text;
  if (ext == ".map") return MapFormat::movingai;
  if (bytes.find('$') != std::string_view::npos) return MapFormat::text;
  bool all_ascii = true;
  for (char c : bytes) {
    if (c != '\n' && c != '\r' && ascii_cell(c) == CellKind::invalid) {
      all_ascii = false;
      break;
    }
  }
  if (all_ascii || bytes.find_first_of("#@") != std::string_view::npos) return MapFormat::ascii;
  return MapFormat::text;
}

Map parse_map(std::string_view bytes, const std::string& name, const MapOptions& options) {
  if (options.cell < 1) throw std::invalid_argument("image cell size must be at least 1");
  if (options.threshold < 0 || options.threshold > 255) {
    throw std::invalid_argument("image threshold must be within 0..255");
  }
  if (bytes.empty()) throw ParseError(name, 0, "empty file");
  if (bytes.size() > detail::max_file_bytes) throw ParseError(name, 0, "file too large");
  const MapFormat format =
      options.format == MapFormat::automatic ? detect_format(bytes, name) : options.format;
  Map map = [&] {
    switch (format) {
      case MapFormat::text:
        return parse_rows(bytes, name, format, text_cell);
      case MapFormat::ascii:
        return parse_rows(bytes, name, format, ascii_cell);
      case MapFormat::movingai:
        return parse_movingai(bytes, name);
      case MapFormat::image:
        return parse_image(bytes, name, options);
      case MapFormat::tmx:
        return parse_tmx(bytes, name, options);
      case MapFormat::tmj:
        return parse_tmj(bytes, name, options);
      case MapFormat::layered:
        return parse_layered(bytes, name, options);
      case MapFormat::automatic:
        break;
    }
    throw std::logic_error("parse_map: no format");
  }();
  // The caller's layout (the CLI's --layout) reads the cells in another layout.
  if (options.layout && *options.layout != map.grid.layout()) {
    try {
      map.grid.set_layout(*options.layout);
    } catch (const std::invalid_argument& e) {
      throw ParseError(name, 0,
                       "cannot read the map as " + std::string(grid::to_string(*options.layout)) +
                           ": " + e.what());
    }
  }
  return map;
}

Map load_map(const std::string& path, const MapOptions& options) {
  // Files the map names (Tiled's tilesets, a layered map's floors) come from disk too; a map
  // parsed from memory (an upload to the HTTP API) reads none unless its caller says how.
  if (!options.read_file) {
    MapOptions with_disk = options;
    with_disk.read_file = [](const std::string& p) { return detail::read_file(p); };
    return parse_map(detail::read_file(path), path, with_disk);
  }
  return parse_map(detail::read_file(path), path, options);
}

namespace {

/// The plain formats hold one floor of square (Moving AI: or hex) cells: refuse what they would
/// silently drop rather than write another map.
void refuse_lossy(const Map& map, MapFormat format) {
  if (format == MapFormat::text || format == MapFormat::ascii || format == MapFormat::movingai ||
      format == MapFormat::image) {
    const grid::Grid& g = map.grid;
    std::string lost;
    if (g.layers() > 1) lost = std::to_string(g.layers()) + " floors";
    if (!g.links().empty()) lost += (lost.empty() ? "" : ", ") + std::string("links");
    if (g.edge_wall_count() > 0)
      lost += (lost.empty() ? "" : ", ") + std::string("walls on cell edges");
    if (grid::is_hex(g.layout()) && format != MapFormat::movingai) {
      lost += (lost.empty() ? "" : ", ") + std::string("a hex layout");
    }
    if (!lost.empty()) {
      throw std::runtime_error("the " + std::string(to_string(format)) + " format cannot hold " +
                               lost + " of this map; write it as Tiled .tmj");
    }
  }
  if (format == MapFormat::tmj && grid::is_hex(map.grid.layout()) &&
      map.grid.edge_wall_count() > 0) {
    // Tiled's thin walls (wall_n, wall_e, wall_s, wall_w) are the sides of square tiles.
    throw std::runtime_error(
        "the tmj format cannot hold walls on hex edges: Tiled names only the four sides of a "
        "square tile");
  }
}

}  // namespace

std::string write_map(const Map& map, MapFormat format) {
  refuse_lossy(map, format);
  switch (format) {
    case MapFormat::text: {
      std::string ruler;
      for (int i = 0; i < map.grid.width(); ++i) ruler += (i % 5 == 4) ? '+' : '-';
      return ruler + '\n' + write_rows(map, '1', ' ', '8', '9', "$");
    }
    case MapFormat::ascii:
      return write_rows(map, '#', '.', 'S', 'G', "");
    case MapFormat::movingai: {
      // Moving AI has no start/goal markers: they become plain free cells.
      Map plain{map.grid, std::nullopt, std::nullopt, map.format};
      std::string rows = write_rows(plain, '@', '.', '.', '.', "");
      // Terrain classes Moving AI spells (S, T, W) keep their letters.
      if (map.grid.has_classes()) {
        const std::size_t stride = static_cast<std::size_t>(map.grid.width()) + 1;
        for (int y = 0; y < map.grid.height(); ++y) {
          for (int x = 0; x < map.grid.width(); ++x) {
            const char c = map.grid.cell_class(x, y);
            if (c == 'S' || c == 'T' || c == 'W')
              rows[y * stride + static_cast<std::size_t>(x)] = c;
          }
        }
      }
      const std::string type = grid::is_hex(map.grid.layout())
                                   ? "hex-" + std::string(grid::to_string(map.grid.layout()))
                                   : std::string("octile");
      return "type " + type + "\nheight " + std::to_string(map.grid.height()) + "\nwidth " +
             std::to_string(map.grid.width()) + "\nmap\n" + rows;
    }
    case MapFormat::tmj:
      return write_tmj(map);
    case MapFormat::image:
    case MapFormat::tmx:
    case MapFormat::layered:
    case MapFormat::automatic:
      break;
  }
  throw std::invalid_argument("write_map: " + std::string(to_string(format)) +
                              " is not a text format");
}

void save_map(const Map& map, const std::string& path, MapFormat format) {
  const std::string ext = lower_extension(path);
  if (format == MapFormat::automatic) {
    if (ext == ".map") {
      format = MapFormat::movingai;
    } else if (ext == ".txt") {
      format = MapFormat::text;
    } else if (ext == ".ascii" || ext == ".asc") {
      format = MapFormat::ascii;
    } else if (ext == ".png" || ext == ".bmp") {
      format = MapFormat::image;
    } else if (ext == ".tmj") {
      format = MapFormat::tmj;
    } else {
      throw std::runtime_error("cannot tell the map format from the name " + path +
                               " (use .map, .txt, .ascii, .png, .bmp or .tmj)");
    }
  }
  // Images are PNG unless the name asks for BMP; lossy JPEG would blur walls and markers.
  refuse_lossy(map, format);
  const std::string bytes =
      format == MapFormat::image ? encode_image(map, ext == ".bmp") : write_map(map, format);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path + " for writing");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace pathlab::io
