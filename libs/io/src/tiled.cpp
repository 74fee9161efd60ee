// Tiled maps (.tmx XML through pugixml, .tmj JSON through nlohmann::json) read into grids. Both
// front ends fill one description of the map (Doc: orientation, tilesets, tile layers, object
// layers); one builder turns it into a Map. Layer data is decoded only when the builder has
// checked the map's size, one layer at a time. What is read: tiled.hpp and docs/tiled.md.
#include <pathlab/io/tiled.hpp>

#include <pathlab/core/portable.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/unit.hpp>

// The WebAssembly build has no XML parser, zlib or zstd (nothing to link them from): it is
// compiled with PATHLAB_TILED_NO_XML and PATHLAB_TILED_NO_COMPRESSION and reads .tmj maps with
// CSV or uncompressed base64 layers, refusing the rest with a message.
#if !defined(PATHLAB_TILED_NO_COMPRESSION)
#include <zlib.h>
#include <zstd.h>
#endif
#if !defined(PATHLAB_TILED_NO_XML)
#include <pugixml.hpp>
#endif

#include "json_doc.hpp"
#include "text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pathlab::io {

namespace {

using grid::Grid;
using grid::Side;
using nlohmann::json;

// Tiled keeps a tile's flips and its hex rotation in the top four bits of a global tile id.
constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;
constexpr std::string_view kLimit = "the limit of 2^28 cells";

// ---------------------------------------------------------------------------------------------
// Lines of a text, by byte offset.

class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : text_(text) {}
  int at(std::ptrdiff_t offset) const {
    if (offset < 0) return 0;
    if (!indexed_) {
      for (std::size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') newlines_.push_back(i);
      }
      indexed_ = true;
    }
    const auto before =
        std::lower_bound(newlines_.begin(), newlines_.end(), static_cast<std::size_t>(offset));
    return 1 + static_cast<int>(before - newlines_.begin());
  }

 private:
  std::string_view text_;
  mutable std::vector<std::size_t> newlines_;
  mutable bool indexed_ = false;
};

// ---------------------------------------------------------------------------------------------
// Values as the files spell them.

std::string_view trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::optional<double> to_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  // core::from_chars: libc++ 14 (Emscripten) has no double from_chars.
  const auto r = core::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::optional<std::int64_t> to_integer(std::string_view s) {
  s = trim(s);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (!s.empty() && ec == std::errc{} && ptr == s.data() + s.size()) return v;
  // Tiled writes whole numbers; a float property holding one ("2.0") is accepted too.
  const auto d = to_number(s);
  if (d && std::floor(*d) == *d && std::abs(*d) < 9.0e15) return static_cast<std::int64_t>(*d);
  return std::nullopt;
}

std::optional<bool> to_bool(std::string_view s) {
  s = trim(s);
  if (s == "true" || s == "1") return true;
  if (s == "false" || s == "0") return false;
  return std::nullopt;
}

std::string number_text(double v) {
  char buf[64];
  const auto r = core::to_chars(buf, buf + sizeof buf, v);
  return r.ec == std::errc{} ? std::string(buf, r.ptr) : std::string("?");
}

// ---------------------------------------------------------------------------------------------
// Custom properties and what they say.

struct Prop {
  std::string name;
  std::string text;  // the value as text: numbers and booleans as JSON spells them
  int line = 0;
};
using Props = std::vector<Prop>;

const Prop* find_prop(const Props& props, std::string_view name) {
  for (const Prop& p : props) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

double prop_number(const Prop& p, const std::string& file) {
  const auto v = to_number(p.text);
  if (!v) {
    throw ParseError(file, p.line,
                     "property '" + p.name + "' is not a number: " + detail::quote(p.text));
  }
  return *v;
}

std::int64_t prop_integer(const Prop& p, const std::string& file) {
  const auto v = to_integer(p.text);
  if (!v) {
    throw ParseError(file, p.line,
                     "property '" + p.name + "' is not a whole number: " + detail::quote(p.text));
  }
  return *v;
}

bool prop_bool(const Prop& p, const std::string& file) {
  const auto v = to_bool(p.text);
  if (!v) {
    throw ParseError(file, p.line,
                     "property '" + p.name + "' is not true or false: " + detail::quote(p.text));
  }
  return *v;
}

// What a tile makes of its cell.
struct TileKind {
  char cls = grid::kGroundClass;
  float cost = 1.0f;
  std::uint8_t walls = 0;  // bit (1 << Side): a thin wall on that side
};

constexpr std::array<std::pair<const char*, Side>, 4> kWallProps = {
    std::pair{"wall_n", Side::north}, std::pair{"wall_e", Side::east},
    std::pair{"wall_s", Side::south}, std::pair{"wall_w", Side::west}};

std::optional<char> class_from_text(std::string_view v) {
  std::string lower(trim(v));
  if (lower.size() == 1) {
    const char c = grid::canonical_class(lower[0]);
    if (grid::valid_class(c)) return c;
    return std::nullopt;
  }
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "wall") return grid::kWallClass;
  if (lower == "ground") return grid::kGroundClass;
  if (lower == "water") return 'W';
  if (lower == "swamp") return 'S';
  if (lower == "trees") return 'T';
  return std::nullopt;
}

TileKind tile_kind(const Props& props, const std::string& file) {
  TileKind k;
  if (const Prop* p = find_prop(props, "class")) {
    const auto c = class_from_text(p->text);
    if (!c) {
      throw ParseError(file, p->line,
                       "class " + detail::quote(p->text) +
                           " is not a class (one character, or wall, ground, water, swamp, "
                           "trees)");
    }
    k.cls = *c;
  }
  if (const Prop* p = find_prop(props, "cost")) {
    const double v = prop_number(*p, file);
    if (!(v >= 1.0) || !std::isfinite(static_cast<float>(v))) {
      throw ParseError(file, p->line,
                       "cost " + number_text(v) + " is not a terrain cost (a number >= 1)");
    }
    k.cost = static_cast<float>(v);
  }
  if (const Prop* p = find_prop(props, "walkable")) {
    if (!prop_bool(*p, file)) k.cls = grid::kWallClass;
  }
  for (const auto& [name, side] : kWallProps) {
    if (const Prop* p = find_prop(props, name)) {
      if (prop_bool(*p, file)) k.walls |= static_cast<std::uint8_t>(1u << static_cast<int>(side));
    }
  }
  return k;
}

// ---------------------------------------------------------------------------------------------
// The map as both front ends describe it.

struct Tileset {
  std::uint32_t firstgid = 0;
  std::int64_t tilecount = -1;  // -1: not given
  std::int64_t id_end = 0;      // past the largest tile id it lists (image collections' ids)
  std::string name;
  std::unordered_map<std::uint32_t, TileKind> kinds;  // by local id; other tiles are ground
  std::string file;                                   // where it was written (errors)
  int line = 0;                                       // of its element in the map
};

// A rectangle of layer data; decode() fills exactly w * h global ids or throws.
struct Chunk {
  std::int64_t x = 0, y = 0, w = 0, h = 0;
  int line = 0;
  std::function<void(std::vector<std::uint32_t>&)> decode;
};

struct TileLayer {
  std::string name;
  int line = 0;
  std::optional<std::int64_t> floor;
  bool empty_ground = false;
  std::vector<Chunk> chunks;
};

struct Object {
  std::string name;
  int line = 0;
  double x = 0, y = 0;
  bool poly = false;
  bool closed = false;
  std::vector<std::pair<double, double>> points;  // relative to (x, y)
  double rotation = 0;
  Props props;
};

struct ObjectLayer {
  std::string name;
  int line = 0;
  std::optional<std::int64_t> floor;
  std::vector<Object> objects;
};

struct Doc {
  std::string file;
  int line = 1;  // the map element's
  std::string orientation = "orthogonal";
  std::string staggeraxis = "y";
  std::string staggerindex = "odd";
  std::int64_t width = 0, height = 0, tw = 0, th = 0, hexside = 0;
  bool infinite = false;
  std::vector<Tileset> tilesets;
  std::vector<TileLayer> tile_layers;
  std::vector<ObjectLayer> object_layers;
};

// What a group passes on to the layers in it.
struct Inherited {
  std::optional<std::int64_t> floor;
  std::optional<bool> empty_ground;
};

void layer_props(const Props& props, const std::string& file, Inherited& out) {
  if (const Prop* p = find_prop(props, "floor")) {
    const std::int64_t f = prop_integer(*p, file);
    if (f < 0 || f > 65535) {
      throw ParseError(file, p->line, "floor " + std::to_string(f) + " is not a floor (0, 1, ...)");
    }
    out.floor = f;
  }
  if (const Prop* p = find_prop(props, "empty")) {
    const std::string_view v = trim(p->text);
    if (v != "ground" && v != "wall") {
      throw ParseError(
          file, p->line,
          "property 'empty' is " + detail::quote(p->text) + " (expected ground or wall)");
    }
    out.empty_ground = v == "ground";
  }
}

// ---------------------------------------------------------------------------------------------
// Layer data: CSV, base64, base64 + zlib / gzip / zstd.

// Collects little-endian 32-bit words, at most n of them.
class GidSink {
 public:
  GidSink(std::vector<std::uint32_t>& out, std::size_t n) : out_(out), n_(n) {
    out.clear();
    out.reserve(std::min<std::size_t>(n, std::size_t{1} << 20));
  }
  // False when the words would be more than n.
  bool add(const unsigned char* p, std::size_t len) {
    for (std::size_t i = 0; i < len; ++i) {
      word_ |= std::uint32_t{p[i]} << (8 * bytes_);
      if (++bytes_ == 4) {
        if (out_.size() == n_) return false;
        out_.push_back(word_);
        word_ = 0;
        bytes_ = 0;
      }
    }
    return true;
  }
  [[nodiscard]] bool complete() const noexcept { return bytes_ == 0 && out_.size() == n_; }
  [[nodiscard]] std::size_t words() const noexcept { return out_.size(); }

 private:
  std::vector<std::uint32_t>& out_;
  std::size_t n_;
  std::uint32_t word_ = 0;
  int bytes_ = 0;
};

std::string tiles_text(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " tile" : " tiles");
}

void parse_csv(std::string_view text, std::size_t n, std::vector<std::uint32_t>& out,
               const std::string& file, int line) {
  // Each tile takes a digit and a comma at least: check before allocating.
  if (text.size() + 1 < 2 * n) {
    throw ParseError(file, line, "the layer's CSV data is too short for its " + tiles_text(n));
  }
  out.clear();
  out.reserve(n);
  std::size_t i = 0;
  const auto skip_space = [&] {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) {
      if (text[i] == '\n') ++line;
      ++i;
    }
  };
  skip_space();
  while (i < text.size()) {
    if (text[i] < '0' || text[i] > '9') {
      throw ParseError(file, line,
                       "unexpected " + detail::quote(text.substr(i, 1)) + " in the CSV layer data");
    }
    std::uint64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
      if (v > std::numeric_limits<std::uint32_t>::max()) {
        throw ParseError(file, line, "tile id too large in the CSV layer data");
      }
      ++i;
    }
    if (out.size() == n) {
      throw ParseError(file, line, "the layer's CSV data holds more than " + tiles_text(n));
    }
    out.push_back(static_cast<std::uint32_t>(v));
    skip_space();
    if (i < text.size()) {
      if (text[i] != ',') {
        throw ParseError(file, line,
                         "unexpected " + detail::quote(text.substr(i, 1)) +
                             " in the CSV layer data (expected a comma)");
      }
      ++i;
      skip_space();
    }
  }
  if (out.size() != n) {
    throw ParseError(file, line,
                     "the layer's CSV data holds " + tiles_text(out.size()) + ", the layer has " +
                         std::to_string(n));
  }
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::string base64_decode(std::string_view text, const std::string& file, int line) {
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  std::uint32_t acc = 0;
  int bits = 0;
  bool padded = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '=') {
      padded = true;
      continue;
    }
    const int v = base64_value(c);
    if (v < 0 || padded) {
      throw ParseError(
          file, line,
          "invalid base64 layer data: unexpected " + detail::quote(std::string_view(&c, 1)));
    }
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFFu);
    }
  }
  if (bits >= 6) throw ParseError(file, line, "invalid base64 layer data: truncated");
  return out;
}

#if defined(PATHLAB_TILED_NO_COMPRESSION)
[[noreturn]] void no_compression(std::string_view what, const std::string& file, int line) {
  throw ParseError(file, line,
                   "this build reads no " + std::string(what) +
                       "-compressed layers (the WebAssembly build has no zlib or zstd): save the "
                       "map with CSV or uncompressed base64 layer data");
}
void inflate_into(std::string_view, bool gzip, GidSink&, std::size_t, const std::string& file,
                  int line) {
  no_compression(gzip ? "gzip" : "zlib", file, line);
}
void zstd_into(std::string_view, GidSink&, std::size_t, const std::string& file, int line) {
  no_compression("zstd", file, line);
}
#else
void inflate_into(std::string_view in, bool gzip, GidSink& sink, std::size_t n,
                  const std::string& file, int line) {
  const char* what = gzip ? "gzip" : "zlib";
  z_stream zs{};
  if ((gzip ? inflateInit2(&zs, 16 + MAX_WBITS) : inflateInit(&zs)) != Z_OK) {
    throw ParseError(file, line, std::string("cannot start the ") + what + " decoder");
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> end(&zs, inflateEnd);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::array<unsigned char, 65536> buf;
  for (;;) {
    zs.next_out = buf.data();
    zs.avail_out = static_cast<uInt>(buf.size());
    const int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      const std::string why = rc == Z_BUF_ERROR ? "truncated" : (zs.msg ? zs.msg : "corrupt");
      throw ParseError(file, line, std::string("broken ") + what + " layer data (" + why + ")");
    }
    const std::size_t produced = buf.size() - zs.avail_out;
    if (!sink.add(buf.data(), produced)) {
      throw ParseError(
          file, line,
          std::string("the layer's ") + what + " data holds more than " + tiles_text(n));
    }
    if (rc == Z_STREAM_END) break;
  }
}

void zstd_into(std::string_view in, GidSink& sink, std::size_t n, const std::string& file,
               int line) {
  std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> ds(ZSTD_createDStream(),
                                                                   ZSTD_freeDStream);
  if (!ds || ZSTD_isError(ZSTD_initDStream(ds.get()))) {
    throw ParseError(file, line, "cannot start the zstd decoder");
  }
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::array<unsigned char, 65536> buf;
  std::size_t last = 1;
  while (input.pos < input.size || last != 0) {
    ZSTD_outBuffer output{buf.data(), buf.size(), 0};
    last = ZSTD_decompressStream(ds.get(), &output, &input);
    if (ZSTD_isError(last)) {
      throw ParseError(file, line,
                       std::string("broken zstd layer data (") + ZSTD_getErrorName(last) + ")");
    }
    if (!sink.add(buf.data(), output.pos)) {
      throw ParseError(file, line, "the layer's zstd data holds more than " + tiles_text(n));
    }
    if (input.pos == input.size && output.pos < output.size && last != 0) {
      throw ParseError(file, line, "broken zstd layer data (truncated)");
    }
  }
}
#endif

// Layer data given as text: `encoding` csv or base64, `compression` none, zlib, gzip or zstd.
void decode_text(std::string_view text, std::string_view encoding, std::string_view compression,
                 std::size_t n, std::vector<std::uint32_t>& out, const std::string& file,
                 int line) {
  if (encoding == "csv") {
    if (!compression.empty()) {
      throw ParseError(
          file, line,
          "CSV layer data cannot be compressed (compression " + detail::quote(compression) + ")");
    }
    parse_csv(text, n, out, file, line);
    return;
  }
  if (encoding != "base64") {
    throw ParseError(
        file, line,
        "unknown layer data encoding " + detail::quote(encoding) + " (expected csv or base64)");
  }
  if (!compression.empty() && compression != "zlib" && compression != "gzip" &&
      compression != "zstd") {
    throw ParseError(file, line,
                     "unknown layer data compression " + detail::quote(compression) +
                         " (expected zlib, gzip or zstd)");
  }
  const std::string bytes = base64_decode(text, file, line);
  GidSink sink(out, n);
  if (compression.empty()) {
    if (bytes.size() != 4 * n) {
      throw ParseError(file, line,
                       "the layer's base64 data holds " + std::to_string(bytes.size()) +
                           " bytes, the layer's " + tiles_text(n) + " need " +
                           std::to_string(4 * n));
    }
    sink.add(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  } else if (compression == "zstd") {
    zstd_into(bytes, sink, n, file, line);
  } else {
    inflate_into(bytes, compression == "gzip", sink, n, file, line);
  }
  if (!sink.complete()) {
    throw ParseError(file, line,
                     "the layer's " + std::string(compression) + " data holds " +
                         tiles_text(sink.words()) + ", the layer has " + std::to_string(n));
  }
}

// The path of a file a map names, relative to the map's folder.
std::string beside(const std::string& map_file, std::string_view source) {
  const std::filesystem::path base = std::filesystem::path(map_file).parent_path();
  return (base / std::filesystem::path(std::string(source))).lexically_normal().string();
}

std::string read_named(const std::string& path, const MapOptions& options) {
  if (!options.read_file) {
    throw ParseError(path, 0,
                     "a map parsed from memory reads no other file (load_map does, or give "
                     "MapOptions::read_file)");
  }
  return options.read_file(path);
}

std::size_t checked_cells(std::int64_t w, std::int64_t h, const std::string& file, int line,
                          const char* what) {
  if (w <= 0 || h <= 0) {
    throw ParseError(file, line,
                     std::string(what) + " of " + std::to_string(w) + "x" + std::to_string(h) +
                         " cells is empty");
  }
  if (w > Grid::max_cells || h > Grid::max_cells || w * h > Grid::max_cells) {
    throw ParseError(file, line,
                     std::string(what) + " of " + std::to_string(w) + "x" + std::to_string(h) +
                         " cells exceeds " + std::string(kLimit));
  }
  return static_cast<std::size_t>(w * h);
}

// ---------------------------------------------------------------------------------------------
// The builder: a Doc into a Map.

// A cell of the grid from the pixel position of an object.
class Placement {
 public:
  Placement(const Doc& d, grid::Layout layout, std::int64_t ox, std::int64_t oy)
      : d_(d), layout_(layout), ox_(ox), oy_(oy) {}

  // The map cell (before the infinite map's origin is taken off: add ox, oy).
  std::pair<std::int64_t, std::int64_t> cell(double px, double py) const {
    if (!grid::is_hex(layout_)) {
      const auto [tx, ty] = tile_units(px, py);
      return {clamp_floor(tx) - ox_, clamp_floor(ty) - oy_};
    }
    // Hexagonal: the cell whose hex centre is nearest.
    const double tw = static_cast<double>(d_.tw), th = static_cast<double>(d_.th);
    const bool pointy = d_.staggeraxis != "x";
    const double step = pointy ? (th + static_cast<double>(d_.hexside)) / 2.0
                               : (tw + static_cast<double>(d_.hexside)) / 2.0;
    const std::int64_t guess_x = clamp_floor(pointy ? px / tw : px / std::max(step, 1.0));
    const std::int64_t guess_y = clamp_floor(pointy ? py / std::max(step, 1.0) : py / th);
    std::pair<std::int64_t, std::int64_t> best{guess_x, guess_y};
    double best_d = std::numeric_limits<double>::infinity();
    for (std::int64_t y = guess_y - 1; y <= guess_y + 1; ++y) {
      for (std::int64_t x = guess_x - 1; x <= guess_x + 1; ++x) {
        const auto [cx, cy] = centre(x, y);
        const double dd = (cx - px) * (cx - px) + (cy - py) * (cy - py);
        if (dd < best_d) best_d = dd, best = {x, y};
      }
    }
    return {best.first - ox_, best.second - oy_};
  }
  // Pixels to tile units, where cell (x, y) covers [x, x+1) x [y, y+1) (square layouts).
  std::pair<double, double> tile_units(double px, double py) const {
    // Isometric maps measure objects in tile heights along both axes (as Tiled does).
    const double ux =
        d_.orientation == "isometric" ? static_cast<double>(d_.th) : static_cast<double>(d_.tw);
    return {px / ux, py / static_cast<double>(d_.th)};
  }
  // The centre of hex cell (x, y) in pixels, as Tiled draws it.
  std::pair<double, double> centre(std::int64_t x, std::int64_t y) const {
    const double tw = static_cast<double>(d_.tw), th = static_cast<double>(d_.th);
    const bool even = d_.staggerindex == "even";
    if (d_.staggeraxis != "x") {
      const double row = (th + static_cast<double>(d_.hexside)) / 2.0;
      const bool shifted = ((y & 1) != 0) != even;
      return {static_cast<double>(x) * tw + tw / 2 + (shifted ? tw / 2 : 0.0),
              static_cast<double>(y) * row + th / 2};
    }
    const double col = (tw + static_cast<double>(d_.hexside)) / 2.0;
    const bool shifted = ((x & 1) != 0) != even;
    return {static_cast<double>(x) * col + tw / 2,
            static_cast<double>(y) * th + th / 2 + (shifted ? th / 2 : 0.0)};
  }

 private:
  static std::int64_t clamp_floor(double v) {
    if (!(v > -1e15)) return std::numeric_limits<std::int32_t>::min();
    if (!(v < 1e15)) return std::numeric_limits<std::int32_t>::max();
    return static_cast<std::int64_t>(std::floor(v));
  }
  const Doc& d_;
  grid::Layout layout_;
  std::int64_t ox_, oy_;
};

grid::Layout layout_of(const Doc& d) {
  if (d.orientation == "orthogonal" || d.orientation == "isometric") return grid::Layout::square;
  if (d.orientation == "staggered") {
    throw ParseError(d.file, d.line,
                     "staggered maps are not read (save the map as isometric or hexagonal)");
  }
  if (d.orientation != "hexagonal") {
    throw ParseError(d.file, d.line,
                     "unknown orientation " + detail::quote(d.orientation) +
                         " (expected orthogonal, isometric or hexagonal)");
  }
  if (d.staggeraxis != "x" && d.staggeraxis != "y") {
    throw ParseError(d.file, d.line,
                     "unknown staggeraxis " + detail::quote(d.staggeraxis) + " (expected x or y)");
  }
  if (d.staggerindex != "odd" && d.staggerindex != "even") {
    throw ParseError(
        d.file, d.line,
        "unknown staggerindex " + detail::quote(d.staggerindex) + " (expected odd or even)");
  }
  const bool odd = d.staggerindex == "odd";
  if (d.staggeraxis == "y") return odd ? grid::Layout::pointy_odd_r : grid::Layout::pointy_even_r;
  return odd ? grid::Layout::flat_odd_q : grid::Layout::flat_even_q;
}

Map build(Doc& d, MapFormat format, const MapOptions& /*options*/) {
  const grid::Layout layout = layout_of(d);
  if (d.tw <= 0 || d.th <= 0) {
    throw ParseError(
        d.file, d.line,
        "tile size " + std::to_string(d.tw) + "x" + std::to_string(d.th) + " is not positive");
  }
  if (d.tile_layers.empty()) throw ParseError(d.file, d.line, "the map has no tile layer");

  // Floors: every tile layer says its floor, or none does.
  const auto with_floor = std::count_if(d.tile_layers.begin(), d.tile_layers.end(),
                                        [](const TileLayer& l) { return l.floor.has_value(); });
  int floors = 1;
  if (with_floor > 0) {
    std::int64_t top = 0;
    for (const TileLayer& l : d.tile_layers) {
      if (!l.floor) {
        throw ParseError(d.file, l.line,
                         "tile layer " + detail::quote(l.name) +
                             " has no 'floor' property, while other tile layers have one");
      }
      top = std::max(top, *l.floor);
    }
    if (top >= static_cast<std::int64_t>(d.tile_layers.size())) {
      throw ParseError(d.file, d.line,
                       "floor " + std::to_string(top) + " is set, but floors 0 to " +
                           std::to_string(top) + " are not all there (" +
                           std::to_string(d.tile_layers.size()) + " tile layers)");
    }
    floors = static_cast<int>(top) + 1;
    for (int f = 0; f < floors; ++f) {
      if (std::none_of(d.tile_layers.begin(), d.tile_layers.end(),
                       [f](const TileLayer& l) { return *l.floor == f; })) {
        throw ParseError(d.file, d.line,
                         "floor " + std::to_string(f) + " has no tile layer (floors are 0 to " +
                             std::to_string(floors - 1) + ")");
      }
    }
  }

  // The extent: the map's size, or the chunks' bounding box for infinite maps.
  std::int64_t ox = 0, oy = 0, w = d.width, h = d.height;
  if (d.infinite) {
    std::int64_t x0 = std::numeric_limits<std::int64_t>::max(), y0 = x0;
    std::int64_t x1 = std::numeric_limits<std::int64_t>::min(), y1 = x1;
    for (const TileLayer& l : d.tile_layers) {
      for (const Chunk& c : l.chunks) {
        x0 = std::min(x0, c.x), y0 = std::min(y0, c.y);
        x1 = std::max(x1, c.x + c.w), y1 = std::max(y1, c.y + c.h);
      }
    }
    if (x0 > x1) throw ParseError(d.file, d.line, "the infinite map has no chunks");
    ox = x0, oy = y0, w = x1 - x0, h = y1 - y0;
    if (grid::is_hex(layout) && ((grid::hex::pointy(layout) ? oy : ox) & 1) != 0) {
      throw ParseError(d.file, d.line, "the infinite hexagonal map starts on an odd row or column");
    }
  }
  const std::size_t cells = checked_cells(w, h, d.file, d.line, "map");
  if (floors > 1) {
    const std::int64_t pitch = (h + 1) % 2 == 0 ? h + 1 : h + 2;
    const std::int64_t rows = std::int64_t{floors - 1} * pitch + h;
    if (rows > Grid::max_cells || w * rows > Grid::max_cells) {
      throw ParseError(d.file, d.line,
                       std::to_string(floors) + " floors of " + std::to_string(w) + "x" +
                           std::to_string(h) + " cells exceed " + std::string(kLimit));
    }
  }
  for (const TileLayer& l : d.tile_layers) {
    for (const Chunk& c : l.chunks) {
      if (!d.infinite && (c.w != w || c.h != h)) {
        throw ParseError(d.file, c.line,
                         "tile layer " + detail::quote(l.name) + " is " + std::to_string(c.w) +
                             "x" + std::to_string(c.h) + ", the map " + std::to_string(w) + "x" +
                             std::to_string(h));
      }
    }
  }

  // Tilesets in order of their first ids.
  std::sort(d.tilesets.begin(), d.tilesets.end(),
            [](const Tileset& a, const Tileset& b) { return a.firstgid < b.firstgid; });
  for (std::size_t i = 1; i < d.tilesets.size(); ++i) {
    if (d.tilesets[i].firstgid == d.tilesets[i - 1].firstgid) {
      throw ParseError(d.file, d.tilesets[i].line,
                       "two tilesets start at firstgid " + std::to_string(d.tilesets[i].firstgid));
    }
  }
  std::vector<TileKind> kinds;                              // index + 1 is what a cell holds
  std::unordered_map<std::uint32_t, std::uint32_t> by_gid;  // gid -> index + 1
  const auto kind_of = [&](std::uint32_t gid, int line) -> std::uint32_t {
    if (const auto it = by_gid.find(gid); it != by_gid.end()) return it->second;
    const auto ts =
        std::upper_bound(d.tilesets.begin(), d.tilesets.end(), gid,
                         [](std::uint32_t g, const Tileset& t) { return g < t.firstgid; });
    if (ts == d.tilesets.begin()) {
      throw ParseError(d.file, line, "tile id " + std::to_string(gid) + " is in no tileset");
    }
    const Tileset& t = *std::prev(ts);
    const std::uint32_t local = gid - t.firstgid;
    if (t.tilecount >= 0 && local >= std::max(t.tilecount, t.id_end)) {
      throw ParseError(d.file, line,
                       "tile id " + std::to_string(gid) + " is past the end of tileset " +
                           detail::quote(t.name) + " (" + std::to_string(t.tilecount) +
                           " tiles from firstgid " + std::to_string(t.firstgid) + ")");
    }
    const auto k = t.kinds.find(local);
    kinds.push_back(k == t.kinds.end() ? TileKind{} : k->second);
    const auto index = static_cast<std::uint32_t>(kinds.size());
    by_gid.emplace(gid, index);
    return index;
  };

  // Each floor's cells: the last non-empty tile of its layers.
  std::vector<std::vector<std::uint32_t>> top(static_cast<std::size_t>(floors));
  std::vector<bool> empty_ground(static_cast<std::size_t>(floors), false);
  std::vector<std::uint32_t> data;
  for (const TileLayer& l : d.tile_layers) {
    const auto f = static_cast<std::size_t>(l.floor.value_or(0));
    if (top[f].empty()) top[f].assign(cells, 0);
    if (l.empty_ground) empty_ground[f] = true;
    for (const Chunk& c : l.chunks) {
      checked_cells(c.w, c.h, d.file, c.line, "layer data");
      c.decode(data);
      std::uint32_t last_gid = 0, last_kind = 0;
      for (std::int64_t y = 0; y < c.h; ++y) {
        for (std::int64_t x = 0; x < c.w; ++x) {
          const std::uint32_t gid = data[static_cast<std::size_t>(y * c.w + x)] & kGidMask;
          if (gid == 0) continue;
          if (gid != last_gid) last_gid = gid, last_kind = kind_of(gid, c.line);
          const std::int64_t gx = c.x + x - ox, gy = c.y + y - oy;
          top[f][static_cast<std::size_t>(gy * w + gx)] = last_kind;
        }
      }
    }
  }
  data = {};

  const bool has_walls =
      std::any_of(kinds.begin(), kinds.end(), [](const TileKind& k) { return k.walls != 0; });
  if (has_walls && grid::is_hex(layout)) {
    throw ParseError(d.file, d.line, "thin walls (wall_n, ...) need a square map, not a hex one");
  }
  Map map{floors > 1 ? Grid::layered(static_cast<int>(w), static_cast<int>(h), floors)
                     : Grid(static_cast<int>(w), static_cast<int>(h)),
          std::nullopt, std::nullopt, format};
  Grid& g = map.grid;
  const TileKind empty_wall{grid::kWallClass, 1.0f, 0};
  const TileKind empty_floor{};
  for (int f = 0; f < floors; ++f) {
    const auto& cellv = top[static_cast<std::size_t>(f)];
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::uint32_t k = cellv[static_cast<std::size_t>(y) * static_cast<std::size_t>(w) +
                                      static_cast<std::size_t>(x)];
        const TileKind& t =
            k != 0 ? kinds[k - 1]
                   : (empty_ground[static_cast<std::size_t>(f)] ? empty_floor : empty_wall);
        const Cell c = g.at(f, x, y);
        if (t.cost != 1.0f) g.set_terrain(c.x, c.y, t.cost);
        if (t.cls == grid::kWallClass) {
          g.set_blocked(c.x, c.y, true);
        } else if (t.cls != grid::kGroundClass) {
          g.set_class(c.x, c.y, t.cls);
        }
        if (t.walls != 0) {
          for (int s = 0; s < 4; ++s) {
            if ((t.walls >> s) & 1u) g.set_edge_wall(c.x, c.y, static_cast<Side>(s), true);
          }
        }
      }
    }
  }
  top = {};

  // Objects: thin walls, links, markers.
  const Placement place(d, layout, ox, oy);
  const auto in_floor = [&](std::int64_t x, std::int64_t y) {
    return x >= 0 && y >= 0 && x < w && y < h;
  };
  for (const ObjectLayer& ol : d.object_layers) {
    const std::int64_t f = ol.floor.value_or(0);
    if (f >= floors) {
      throw ParseError(d.file, ol.line,
                       "object layer " + detail::quote(ol.name) + " is on floor " +
                           std::to_string(f) + ", the map has " + std::to_string(floors) +
                           (floors == 1 ? " floor" : " floors"));
    }
    for (const Object& o : ol.objects) {
      if (o.poly) {
        if (grid::is_hex(layout)) {
          throw ParseError(d.file, o.line,
                           "thin walls (polylines) need a square map, not a hex one");
        }
        if (o.rotation != 0) {
          throw ParseError(d.file, o.line, "a rotated polyline is not along cell edges");
        }
        std::vector<std::pair<std::int64_t, std::int64_t>> pts;
        for (const auto& [px, py] : o.points) {
          const auto [ux, uy] = place.tile_units(o.x + px, o.y + py);
          const double rx = std::round(ux), ry = std::round(uy);
          if (std::abs(ux - rx) > 1e-3 || std::abs(uy - ry) > 1e-3 || std::abs(rx) > 1e9 ||
              std::abs(ry) > 1e9) {
            throw ParseError(d.file, o.line,
                             "a wall polyline's point (" + number_text(o.x + px) + ", " +
                                 number_text(o.y + py) + ") is not a corner of cells");
          }
          pts.emplace_back(static_cast<std::int64_t>(rx) - ox, static_cast<std::int64_t>(ry) - oy);
        }
        if (o.closed && pts.size() > 2) pts.push_back(pts.front());
        for (std::size_t i = 1; i < pts.size(); ++i) {
          const auto [ax, ay] = pts[i - 1];
          const auto [bx, by] = pts[i];
          if (ax != bx && ay != by) {
            throw ParseError(d.file, o.line, "a wall polyline's segment is not along a cell edge");
          }
          const bool vertical = ax == bx;
          const std::int64_t from = vertical ? std::min(ay, by) : std::min(ax, bx);
          const std::int64_t to = vertical ? std::max(ay, by) : std::max(ax, bx);
          const std::int64_t line_at = vertical ? ax : ay;
          const std::int64_t across = vertical ? w : h;
          const std::int64_t along = vertical ? h : w;
          if (line_at < 0 || line_at > across || from < 0 || to > along) {
            throw ParseError(d.file, o.line, "a wall polyline leaves the map");
          }
          for (std::int64_t k = from; k < to; ++k) {
            // The edge between the cells on either side of the grid line `line_at`.
            const bool first = line_at < across;  // name it from the cell after the line
            const std::int64_t cx = vertical ? (first ? line_at : line_at - 1) : k;
            const std::int64_t cy = vertical ? k : (first ? line_at : line_at - 1);
            const Side side =
                vertical ? (first ? Side::west : Side::east) : (first ? Side::north : Side::south);
            const Cell c = g.at(static_cast<int>(f), static_cast<int>(cx), static_cast<int>(cy));
            g.set_edge_wall(c.x, c.y, side, true);
          }
        }
        continue;
      }
      const auto [cx, cy] = place.cell(o.x, o.y);
      const Prop* to_layer = find_prop(o.props, "to_layer");
      const Prop* to_x = find_prop(o.props, "to_x");
      const Prop* to_y = find_prop(o.props, "to_y");
      if (to_layer || to_x || to_y) {
        if (!to_layer || !to_x || !to_y) {
          throw ParseError(d.file, o.line, "a link needs all of to_layer, to_x and to_y");
        }
        if (!in_floor(cx, cy)) {
          throw ParseError(d.file, o.line,
                           "link starts at (" + std::to_string(cx) + ", " + std::to_string(cy) +
                               "), outside the map");
        }
        const std::int64_t tl = prop_integer(*to_layer, d.file);
        const std::int64_t tx = prop_integer(*to_x, d.file) - ox;
        const std::int64_t ty = prop_integer(*to_y, d.file) - oy;
        if (tl < 0 || tl >= floors || !in_floor(tx, ty)) {
          throw ParseError(d.file, to_layer->line,
                           "link target " + std::to_string(tl) + ":" + std::to_string(tx + ox) +
                               "," + std::to_string(ty + oy) + " is not a cell of the map");
        }
        grid::Link link;
        link.from = g.at(static_cast<int>(f), static_cast<int>(cx), static_cast<int>(cy));
        link.to = g.at(static_cast<int>(tl), static_cast<int>(tx), static_cast<int>(ty));
        if (const Prop* p = find_prop(o.props, "cost")) {
          const double v = prop_number(*p, d.file);
          if (!(v > 0) || !std::isfinite(static_cast<float>(v)) || !(static_cast<float>(v) > 0)) {
            throw ParseError(d.file, p->line, "link cost " + number_text(v) + " is not > 0");
          }
          link.cost = static_cast<float>(v);
        }
        if (const Prop* p = find_prop(o.props, "oneway")) link.oneway = prop_bool(*p, d.file);
        if (auto bad = g.add_link(link)) throw ParseError(d.file, o.line, *bad);
      }
      if (o.name == "start" || o.name == "goal") {
        std::optional<Cell>& slot = o.name == "start" ? map.start : map.goal;
        if (!in_floor(cx, cy)) {
          throw ParseError(d.file, o.line,
                           "the " + o.name + " marker is at (" + std::to_string(cx) + ", " +
                               std::to_string(cy) + "), outside the map");
        }
        if (slot) throw ParseError(d.file, o.line, "second " + o.name + " marker");
        slot = g.at(static_cast<int>(f), static_cast<int>(cx), static_cast<int>(cy));
      }
    }
  }
  if (grid::is_hex(layout)) g.set_layout(layout);
  return map;
}

// ---------------------------------------------------------------------------------------------
// XML (.tmx, .tsx).

#if !defined(PATHLAB_TILED_NO_XML)
class Xml {
 public:
  Xml(std::string_view text, const std::string& file) : lines_(text), file_(file) {
    const pugi::xml_parse_result r =
        doc_.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!r) {
      throw ParseError(file, lines_.at(r.offset), std::string("not valid XML: ") + r.description());
    }
  }
  [[nodiscard]] pugi::xml_node root() const { return doc_.document_element(); }
  [[nodiscard]] int line(pugi::xml_node n) const {
    return std::max(1, lines_.at(n.offset_debug()));
  }
  [[nodiscard]] const std::string& file() const noexcept { return file_; }

  [[noreturn]] void fail(pugi::xml_node n, const std::string& msg) const {
    throw ParseError(file_, line(n), msg);
  }
  std::optional<std::int64_t> integer(pugi::xml_node n, const char* name) const {
    const pugi::xml_attribute a = n.attribute(name);
    if (!a) return std::nullopt;
    const auto v = to_integer(a.value());
    if (!v) fail(n, std::string(name) + "=" + detail::quote(a.value()) + " is not a whole number");
    return v;
  }
  std::int64_t integer(pugi::xml_node n, const char* name, std::int64_t fallback) const {
    return integer(n, name).value_or(fallback);
  }
  double number(pugi::xml_node n, const char* name) const {
    const pugi::xml_attribute a = n.attribute(name);
    if (!a) return 0;
    const auto v = to_number(a.value());
    if (!v) fail(n, std::string(name) + "=" + detail::quote(a.value()) + " is not a number");
    return *v;
  }
  Props props(pugi::xml_node n) const {
    Props out;
    for (pugi::xml_node p : n.child("properties").children("property")) {
      const pugi::xml_attribute v = p.attribute("value");
      out.push_back({p.attribute("name").value(), v ? v.value() : p.child_value(), line(p)});
    }
    return out;
  }

 private:
  LineIndex lines_;
  const std::string& file_;
  pugi::xml_document doc_;
};

Tileset xml_tileset(const Xml& x, pugi::xml_node ts) {
  Tileset t;
  t.name = ts.attribute("name").value();
  t.tilecount = x.integer(ts, "tilecount", -1);
  t.file = x.file();
  for (pugi::xml_node tile : ts.children("tile")) {
    const auto id = x.integer(tile, "id");
    if (!id || *id < 0 || *id > kGidMask) x.fail(tile, "a tile without a valid id");
    t.id_end = std::max(t.id_end, *id + 1);
    const Props props = x.props(tile);
    if (props.empty()) continue;
    t.kinds[static_cast<std::uint32_t>(*id)] = tile_kind(props, x.file());
  }
  return t;
}

#endif

Tileset json_tileset(const detail::JsonDoc& doc, const json& ts);

// An external tileset, .tsx or .tsj (by its content), read relative to the map.
Tileset external_tileset(const std::string& map_file, int line, std::string_view source,
                         const MapOptions& options) {
  const std::string path = beside(map_file, source);
  std::string bytes;
  try {
    bytes = read_named(path, options);
  } catch (const ParseError& e) {
    throw ParseError(map_file, line,
                     "cannot read the tileset " + detail::quote(source) + ": " + e.message());
  }
  const std::string_view body = trim(bytes);
  if (!body.empty() && body.front() == '{') {
    const detail::JsonDoc doc(bytes, path);
    if (!doc.root().is_object()) throw ParseError(path, 1, "a tileset must be a JSON object");
    return json_tileset(doc, doc.root());
  }
#if defined(PATHLAB_TILED_NO_XML)
  throw ParseError(path, 1,
                   "this build reads no .tsx tilesets (the WebAssembly build has no XML parser): "
                   "export the tileset as .tsj");
#else
  const Xml x(bytes, path);
  if (std::string_view(x.root().name()) != "tileset") {
    throw ParseError(path, x.line(x.root()), "not a Tiled tileset: no <tileset> element");
  }
  return xml_tileset(x, x.root());
#endif
}

#if !defined(PATHLAB_TILED_NO_XML)
// The gids of <data> or <chunk>: text in `encoding`, or <tile gid> elements without one.
void xml_gids(const Xml& x, pugi::xml_node holder, std::string_view encoding,
              std::string_view compression, std::size_t n, std::vector<std::uint32_t>& out) {
  if (encoding.empty()) {
    std::size_t count = 0;
    for (pugi::xml_node t = holder.child("tile"); t; t = t.next_sibling("tile")) ++count;
    if (count != n) {
      x.fail(holder,
             "the layer data holds " + tiles_text(count) + ", the layer has " + std::to_string(n));
    }
    out.clear();
    out.reserve(n);
    for (pugi::xml_node t = holder.child("tile"); t; t = t.next_sibling("tile")) {
      const std::int64_t gid = x.integer(t, "gid", 0);
      if (gid < 0 || gid > std::numeric_limits<std::uint32_t>::max()) {
        x.fail(t, "tile id " + std::to_string(gid) + " out of range");
      }
      out.push_back(static_cast<std::uint32_t>(gid));
    }
    return;
  }
  pugi::xml_node text = holder.first_child();
  while (text && text.type() != pugi::node_pcdata && text.type() != pugi::node_cdata) {
    text = text.next_sibling();
  }
  decode_text(text ? text.value() : "", encoding, compression, n, out, x.file(),
              x.line(text ? text : holder));
}

void xml_layers(const Xml& x, pugi::xml_node parent, const Inherited& inherited, Doc& d,
                int depth) {
  if (depth > 64) x.fail(parent, "groups nested too deep");
  for (pugi::xml_node n : parent.children()) {
    const std::string_view kind = n.name();
    if (kind != "layer" && kind != "objectgroup" && kind != "group") continue;
    Inherited here = inherited;
    layer_props(x.props(n), x.file(), here);
    if (kind == "group") {
      xml_layers(x, n, here, d, depth + 1);
      continue;
    }
    if (kind == "objectgroup") {
      ObjectLayer ol{n.attribute("name").value(), x.line(n), here.floor, {}};
      for (pugi::xml_node o : n.children("object")) {
        Object obj;
        obj.name = o.attribute("name").value();
        obj.line = x.line(o);
        obj.x = x.number(o, "x");
        obj.y = x.number(o, "y");
        obj.rotation = x.number(o, "rotation");
        obj.props = x.props(o);
        for (const char* shape : {"polyline", "polygon"}) {
          const pugi::xml_node p = o.child(shape);
          if (!p) continue;
          obj.poly = true;
          obj.closed = std::string_view(shape) == "polygon";
          for (const std::string_view pair : detail::split_fields(p.attribute("points").value())) {
            const std::size_t comma = pair.find(',');
            const auto px =
                comma == std::string_view::npos ? std::nullopt : to_number(pair.substr(0, comma));
            const auto py =
                comma == std::string_view::npos ? std::nullopt : to_number(pair.substr(comma + 1));
            if (!px || !py) x.fail(p, "a polyline point " + detail::quote(pair) + " is not x,y");
            obj.points.emplace_back(*px, *py);
          }
        }
        ol.objects.push_back(std::move(obj));
      }
      d.object_layers.push_back(std::move(ol));
      continue;
    }
    TileLayer l;
    l.name = n.attribute("name").value();
    l.line = x.line(n);
    l.floor = here.floor;
    l.empty_ground = here.empty_ground.value_or(false);
    const pugi::xml_node data = n.child("data");
    if (!data) x.fail(n, "tile layer " + detail::quote(l.name) + " has no <data>");
    const std::string encoding = data.attribute("encoding").value();
    const std::string compression = data.attribute("compression").value();
    const auto add = [&](pugi::xml_node holder, std::int64_t cx, std::int64_t cy, std::int64_t cw,
                         std::int64_t ch) {
      Chunk c{cx, cy, cw, ch, x.line(holder), {}};
      c.decode = [&x, holder, encoding, compression, cw, ch](std::vector<std::uint32_t>& out) {
        xml_gids(x, holder, encoding, compression, static_cast<std::size_t>(cw * ch), out);
      };
      l.chunks.push_back(std::move(c));
    };
    if (d.infinite) {
      for (pugi::xml_node c : data.children("chunk")) {
        const auto cx = x.integer(c, "x"), cy = x.integer(c, "y");
        const auto cw = x.integer(c, "width"), ch = x.integer(c, "height");
        if (!cx || !cy || !cw || !ch) x.fail(c, "a chunk needs x, y, width and height");
        if (std::abs(*cx) > (1 << 30) || std::abs(*cy) > (1 << 30)) x.fail(c, "chunk too far out");
        checked_cells(*cw, *ch, x.file(), x.line(c), "chunk");
        add(c, *cx, *cy, *cw, *ch);
      }
    } else {
      const auto lw = x.integer(n, "width"), lh = x.integer(n, "height");
      if (!lw || !lh) x.fail(n, "tile layer " + detail::quote(l.name) + " has no width or height");
      add(data, 0, 0, *lw, *lh);
    }
    d.tile_layers.push_back(std::move(l));
  }
}

#endif

// ---------------------------------------------------------------------------------------------
// JSON (.tmj, .tsj).

class JsonReader {
 public:
  explicit JsonReader(const detail::JsonDoc& doc) : doc_(doc) {}
  const std::string& file() const noexcept { return doc_.name(); }
  int line(const json& j) const { return std::max(1, doc_.line_of(j, 1)); }
  [[noreturn]] void fail(const json& where, const std::string& msg) const {
    throw ParseError(file(), line(where), msg);
  }
  const json* member(const json& obj, const char* key) const {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() || it->is_null() ? nullptr : &*it;
  }
  std::optional<std::int64_t> integer(const json& obj, const char* key) const {
    const json* v = member(obj, key);
    if (!v) return std::nullopt;
    if (v->is_number_integer()) {
      if (v->is_number_unsigned() && v->get<std::uint64_t>() > (std::uint64_t{1} << 62)) {
        fail(obj, std::string("'") + key + "' is too large");
      }
      return v->get<std::int64_t>();
    }
    if (v->is_number_float()) {
      const double d = v->get<double>();
      if (std::floor(d) == d && std::abs(d) < 9.0e15) return static_cast<std::int64_t>(d);
    }
    fail(obj, std::string("'") + key + "' is not a whole number");
  }
  double number(const json& obj, const char* key) const {
    const json* v = member(obj, key);
    if (!v) return 0;
    if (!v->is_number()) fail(obj, std::string("'") + key + "' is not a number");
    return v->get<double>();
  }
  std::string string(const json& obj, const char* key, std::string fallback = {}) const {
    const json* v = member(obj, key);
    if (!v) return fallback;
    if (!v->is_string()) fail(obj, std::string("'") + key + "' is not a string");
    return v->get<std::string>();
  }
  bool boolean(const json& obj, const char* key) const {
    const json* v = member(obj, key);
    if (!v) return false;
    if (!v->is_boolean()) fail(obj, std::string("'") + key + "' is not true or false");
    return v->get<bool>();
  }
  const json& array(const json& obj, const char* key) const {
    static const json empty = json::array();
    const json* v = member(obj, key);
    if (!v) return empty;
    if (!v->is_array()) fail(obj, std::string("'") + key + "' is not an array");
    return *v;
  }
  static std::string text(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
  }
  Props props(const json& obj) const {
    Props out;
    const json* ps = member(obj, "properties");
    if (!ps) return out;
    if (ps->is_object()) {  // Tiled before 1.2: {"name": value}
      for (const auto& [k, v] : ps->items()) out.push_back({k, text(v), line(*ps)});
      return out;
    }
    if (!ps->is_array()) fail(obj, "'properties' is not an array");
    for (const json& p : *ps) {
      if (!p.is_object()) fail(*ps, "a property is not an object");
      const json* v = member(p, "value");
      out.push_back({string(p, "name"), v ? text(*v) : std::string(), line(p)});
    }
    return out;
  }

 private:
  const detail::JsonDoc& doc_;
};

Tileset json_tileset(const detail::JsonDoc& doc, const json& ts) {
  const JsonReader r(doc);
  Tileset t;
  t.name = r.string(ts, "name");
  t.tilecount = r.integer(ts, "tilecount").value_or(-1);
  t.file = r.file();
  for (const json& tile : r.array(ts, "tiles")) {
    if (!tile.is_object()) r.fail(ts, "a tile is not an object");
    const auto id = r.integer(tile, "id");
    if (!id || *id < 0 || *id > kGidMask) r.fail(tile, "a tile without a valid id");
    t.id_end = std::max(t.id_end, *id + 1);
    const Props props = r.props(tile);
    if (props.empty()) continue;
    t.kinds[static_cast<std::uint32_t>(*id)] = tile_kind(props, r.file());
  }
  return t;
}

void json_gids(const JsonReader& r, const json& holder, const std::string& encoding,
               const std::string& compression, std::size_t n, std::vector<std::uint32_t>& out) {
  const json* data = r.member(holder, "data");
  if (!data) r.fail(holder, "the layer has no data");
  if (data->is_string()) {
    decode_text(data->get_ref<const std::string&>(), encoding.empty() ? "csv" : encoding,
                compression, n, out, r.file(), r.line(holder));
    return;
  }
  if (!data->is_array()) r.fail(holder, "the layer's data is neither an array nor a string");
  if (!encoding.empty() && encoding != "csv") {
    r.fail(holder, "layer data in an array with encoding " + detail::quote(encoding));
  }
  if (data->size() != n) {
    r.fail(*data, "the layer's data holds " + tiles_text(data->size()) + ", the layer has " +
                      std::to_string(n));
  }
  out.clear();
  out.reserve(n);
  for (const json& v : *data) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
      r.fail(*data, "the layer's data holds " + detail::quote(v.dump()) + ", not a tile id");
    }
    const std::uint64_t gid = v.get<std::uint64_t>();
    if (gid > std::numeric_limits<std::uint32_t>::max()) {
      r.fail(*data, "tile id " + std::to_string(gid) + " out of range");
    }
    out.push_back(static_cast<std::uint32_t>(gid));
  }
}

void json_layers(const JsonReader& r, const json& list, const Inherited& inherited, Doc& d,
                 int depth) {
  if (depth > 64) r.fail(list, "groups nested too deep");
  for (const json& n : list) {
    if (!n.is_object()) r.fail(list, "a layer is not an object");
    const std::string kind = r.string(n, "type");
    if (kind != "tilelayer" && kind != "objectgroup" && kind != "group") continue;
    Inherited here = inherited;
    layer_props(r.props(n), r.file(), here);
    if (kind == "group") {
      json_layers(r, r.array(n, "layers"), here, d, depth + 1);
      continue;
    }
    if (kind == "objectgroup") {
      ObjectLayer ol{r.string(n, "name"), r.line(n), here.floor, {}};
      for (const json& o : r.array(n, "objects")) {
        if (!o.is_object()) r.fail(n, "an object is not an object");
        Object obj;
        obj.name = r.string(o, "name");
        obj.line = r.line(o);
        obj.x = r.number(o, "x");
        obj.y = r.number(o, "y");
        obj.rotation = r.number(o, "rotation");
        obj.props = r.props(o);
        for (const char* shape : {"polyline", "polygon"}) {
          if (!r.member(o, shape)) continue;
          obj.poly = true;
          obj.closed = std::string_view(shape) == "polygon";
          for (const json& p : r.array(o, shape)) {
            if (!p.is_object()) r.fail(o, "a polyline point is not an object");
            obj.points.emplace_back(r.number(p, "x"), r.number(p, "y"));
          }
        }
        ol.objects.push_back(std::move(obj));
      }
      d.object_layers.push_back(std::move(ol));
      continue;
    }
    TileLayer l;
    l.name = r.string(n, "name");
    l.line = r.line(n);
    l.floor = here.floor;
    l.empty_ground = here.empty_ground.value_or(false);
    const std::string encoding = r.string(n, "encoding");
    const std::string compression = r.string(n, "compression");
    const auto add = [&](const json& holder, std::int64_t cx, std::int64_t cy, std::int64_t cw,
                         std::int64_t ch) {
      Chunk c{cx, cy, cw, ch, r.line(holder), {}};
      c.decode = [&r, &holder, encoding, compression, cw, ch](std::vector<std::uint32_t>& out) {
        json_gids(r, holder, encoding, compression, static_cast<std::size_t>(cw * ch), out);
      };
      l.chunks.push_back(std::move(c));
    };
    if (d.infinite) {
      for (const json& c : r.array(n, "chunks")) {
        const auto cx = r.integer(c, "x"), cy = r.integer(c, "y");
        const auto cw = r.integer(c, "width"), ch = r.integer(c, "height");
        if (!cx || !cy || !cw || !ch) r.fail(c, "a chunk needs x, y, width and height");
        if (std::abs(*cx) > (1 << 30) || std::abs(*cy) > (1 << 30)) r.fail(c, "chunk too far out");
        checked_cells(*cw, *ch, r.file(), r.line(c), "chunk");
        add(c, *cx, *cy, *cw, *ch);
      }
    } else {
      const auto lw = r.integer(n, "width"), lh = r.integer(n, "height");
      if (!lw || !lh) r.fail(n, "tile layer " + detail::quote(l.name) + " has no width or height");
      add(n, 0, 0, *lw, *lh);
    }
    d.tile_layers.push_back(std::move(l));
  }
}

void add_tileset(Doc& d, Tileset t, std::int64_t firstgid, int line) {
  if (firstgid < 1 || firstgid > kGidMask) {
    throw ParseError(d.file, line, "firstgid " + std::to_string(firstgid) + " is out of range");
  }
  t.firstgid = static_cast<std::uint32_t>(firstgid);
  t.line = line;
  d.tilesets.push_back(std::move(t));
}

}  // namespace

#if defined(PATHLAB_TILED_NO_XML)
Map parse_tmx(std::string_view, const std::string& name, const MapOptions&) {
  throw ParseError(name, 1,
                   "this build reads no .tmx maps (the WebAssembly build has no XML parser): "
                   "export the map as .tmj (JSON)");
}
#else
Map parse_tmx(std::string_view bytes, const std::string& name, const MapOptions& options) {
  const Xml x(bytes, name);
  const pugi::xml_node m = x.root();
  if (std::string_view(m.name()) != "map") {
    x.fail(m, "not a Tiled map: the root element is <" + std::string(m.name()) + ">, not <map>");
  }
  Doc d;
  d.file = name;
  d.line = x.line(m);
  d.orientation = m.attribute("orientation").as_string("orthogonal");
  d.staggeraxis = m.attribute("staggeraxis").as_string("y");
  d.staggerindex = m.attribute("staggerindex").as_string("odd");
  d.width = x.integer(m, "width", 0);
  d.height = x.integer(m, "height", 0);
  d.tw = x.integer(m, "tilewidth", 0);
  d.th = x.integer(m, "tileheight", 0);
  d.hexside = x.integer(m, "hexsidelength", 0);
  d.infinite = x.integer(m, "infinite", 0) != 0;
  if (!d.infinite) checked_cells(d.width, d.height, name, d.line, "map");
  for (pugi::xml_node ts : m.children("tileset")) {
    const auto firstgid = x.integer(ts, "firstgid");
    if (!firstgid) x.fail(ts, "a tileset without firstgid");
    const pugi::xml_attribute source = ts.attribute("source");
    add_tileset(
        d,
        source ? external_tileset(name, x.line(ts), source.value(), options) : xml_tileset(x, ts),
        *firstgid, x.line(ts));
  }
  xml_layers(x, m, {}, d, 0);
  return build(d, MapFormat::tmx, options);
}
#endif

Map parse_tmj(std::string_view bytes, const std::string& name, const MapOptions& options) {
  const detail::JsonDoc doc(bytes, name);
  const JsonReader r(doc);
  const json& m = doc.root();
  if (!m.is_object()) throw ParseError(name, 1, "not a Tiled map: not a JSON object");
  if (const json* type = r.member(m, "type"); type && *type != "map") {
    r.fail(m, "not a Tiled map: its type is " + detail::quote(type->dump()));
  }
  Doc d;
  d.file = name;
  d.line = r.line(m);
  d.orientation = r.string(m, "orientation", "orthogonal");
  d.staggeraxis = r.string(m, "staggeraxis", "y");
  d.staggerindex = r.string(m, "staggerindex", "odd");
  d.width = r.integer(m, "width").value_or(0);
  d.height = r.integer(m, "height").value_or(0);
  d.tw = r.integer(m, "tilewidth").value_or(0);
  d.th = r.integer(m, "tileheight").value_or(0);
  d.hexside = r.integer(m, "hexsidelength").value_or(0);
  d.infinite = r.boolean(m, "infinite");
  if (!d.infinite) checked_cells(d.width, d.height, name, d.line, "map");
  for (const json& ts : r.array(m, "tilesets")) {
    if (!ts.is_object()) r.fail(m, "a tileset is not an object");
    const auto firstgid = r.integer(ts, "firstgid");
    if (!firstgid) r.fail(ts, "a tileset without firstgid");
    const std::string source = r.string(ts, "source");
    add_tileset(d,
                !source.empty() ? external_tileset(name, r.line(ts), source, options)
                                : json_tileset(doc, ts),
                *firstgid, r.line(ts));
  }
  json_layers(r, r.array(m, "layers"), {}, d, 0);
  return build(d, MapFormat::tmj, options);
}

}  // namespace pathlab::io
