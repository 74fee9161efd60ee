// The competition's dynamic track files (dynamic.hpp): line by line, every field checked, every
// error naming its file and line. The startkit's own reader (gppc/ScenarioLoader.cpp) reads
// whitespace-separated tokens; the files are written one command per line, and reading them by
// lines is what lets an error name its line.
#include <pathlab/core/portable.hpp>
#include <pathlab/io/dynamic.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <system_error>

#include "text.hpp"

namespace pathlab::io {

namespace {

/// The non-blank lines of a text, numbered, with the file's name for errors.
class Lines {
 public:
  Lines(std::string_view text, const std::string& name) : text_(text), name_(name) {
    if (text.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      throw ParseError(name, 0, "file too large");
    }
  }

  /// The next line that holds something but blanks (CR and trailing blanks cut off), or false
  /// at the end of the text.
  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++number_;
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
      for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02X", c);
          fail(std::string("unexpected byte ") + hex + " at column " + std::to_string(i + 1));
        }
      }
      if (line.find_first_not_of(" \t") != std::string_view::npos) return true;
    }
    return false;
  }
  /// The next line's fields; fails with `expected` at the end of the text.
  std::vector<std::string_view> fields(const char* expected) {
    std::string_view line;
    if (!next(line)) fail(std::string("ends where ") + expected + " was expected");
    return detail::split_fields(line);
  }

  [[nodiscard]] int number() const noexcept { return number_; }
  [[nodiscard]] std::size_t remaining() const noexcept {
    return pos_ < text_.size() ? text_.size() - pos_ : 0;
  }

  /// An int field in [lo, hi].
  int integer(std::string_view field, const char* what, int lo, int hi) const {
    int v = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, v);
    if (ec == std::errc::result_out_of_range ||
        (ec == std::errc{} && ptr == end && (v < lo || v > hi))) {
      fail(std::string(what) + " " + detail::quote(field) + " is outside " + std::to_string(lo) +
           ".." + std::to_string(hi));
    }
    if (ec != std::errc{} || ptr != end) {
      fail(std::string(what) + " is not an integer: " + detail::quote(field));
    }
    return v;
  }
  /// A finite number.
  double real(std::string_view field, const char* what) const {
    double v = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = core::from_chars(field.data(), end, v);
    if (ec != std::errc{} || ptr != end) {
      fail(std::string(what) + " is not a number: " + detail::quote(field));
    }
    if (!std::isfinite(v)) fail(std::string(what) + " is not finite: " + detail::quote(field));
    return v;
  }
  /// `f` is "KEY VALUE" with an int VALUE in [lo, hi].
  int keyed(const std::vector<std::string_view>& f, std::string_view key, int lo, int hi) const {
    if (f.size() != 2 || f[0] != key) {
      fail("expected '" + std::string(key) + " N', found " + describe(f));
    }
    return integer(f[1], std::string(key).c_str(), lo, hi);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError(name_, number_, message);
  }

  static std::string describe(const std::vector<std::string_view>& f) {
    std::string s;
    for (const auto& x : f) s.append(s.empty() ? "" : " ").append(x);
    return detail::quote(s);
  }

 private:
  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

/// The header of a scenario file up to and including "commands": size, the octile cost's
/// position among the lengths, their count, and the patch file as written.
struct Header {
  int width = 0, height = 0;
  int costs = 0, octile = -1;
  std::string patch;
};

Header read_header(Lines& in) {
  Header h;
  auto f = in.fields("'version 2'");
  if (f.size() != 2 || f[0] != "version" || f[1] != "2") {
    in.fail("expected 'version 2' (the dynamic track's scenario), found " + Lines::describe(f));
  }
  // "height H" and "width W", in the track's order.
  {
    const auto hf = in.fields("'height H'");
    if (hf.empty() || hf[0] != "height") {
      in.fail(
          "expected 'height N' (a 'version 2' file is a scenario of the competition's "
          "dynamic track), found " +
          Lines::describe(hf));
    }
    h.height = in.keyed(hf, "height", 1, kDynamicMaxSide);
  }
  h.width = in.keyed(in.fields("'width W'"), "width", 1, kDynamicMaxSide);
  f = in.fields("'cost K NAME...'");
  if (f.size() < 2 || f[0] != "cost")
    in.fail("expected 'cost K NAME...', found " + Lines::describe(f));
  h.costs = in.integer(f[1], "cost count", 1, 64);
  if (f.size() != static_cast<std::size_t>(h.costs) + 2) {
    in.fail("'cost " + std::to_string(h.costs) + "' names " + std::to_string(f.size() - 2) +
            " costs");
  }
  for (int i = 0; i < h.costs; ++i) {
    if (f[static_cast<std::size_t>(i) + 2] != "octile") continue;
    if (h.octile >= 0) in.fail("the octile cost is named twice");
    h.octile = i;
  }
  if (h.octile < 0) in.fail("no octile cost among " + Lines::describe(f));
  f = in.fields("'patch FILE'");
  if (f.size() != 2 || f[0] != "patch")
    in.fail("expected 'patch FILE', found " + Lines::describe(f));
  h.patch = std::string(f[1]);
  f = in.fields("'commands'");
  if (f.size() != 1 || f[0] != "commands")
    in.fail("expected 'commands', found " + Lines::describe(f));
  return h;
}

std::string beside(const std::string& name, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute()) return file;
  return (std::filesystem::path(name).parent_path() / p).string();
}

std::string cell_text(Cell c) {
  // Appended piece by piece: g++ 12 warns (-Wrestrict, a false positive) on "(" + to_string.
  std::string s = "(";
  s.append(std::to_string(c.x)).append(",").append(std::to_string(c.y)).append(")");
  return s;
}

}  // namespace

std::size_t DynamicScenario::queries() const noexcept {
  std::size_t n = 0;
  for (const auto& c : commands) n += c.kind == DynamicCommand::Kind::query ? 1 : 0;
  return n;
}

bool is_dynamic_scenario(std::string_view text) noexcept {
  const std::size_t a = text.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos || text.substr(a, 7) != "version") return false;
  const std::size_t b = text.find_first_not_of(" \t", a + 7);
  if (b == std::string_view::npos || b == a + 7 || text[b] != '2') return false;
  return b + 1 == text.size() || text[b + 1] == ' ' || text[b + 1] == '\t' || text[b + 1] == '\r' ||
         text[b + 1] == '\n';
}

std::vector<Patch> parse_patches(std::string_view text, const std::string& name) {
  Lines in(text, name);
  auto f = in.fields("'type patch'");
  if (f.size() != 2 || f[0] != "type" || f[1] != "patch") {
    in.fail("expected 'type patch', found " + Lines::describe(f));
  }
  const int count = in.keyed(in.fields("'patches N'"), "patches", 0, 100'000'000);
  std::vector<Patch> out;
  for (int k = 0; k < count; ++k) {
    Patch p;
    const int id = in.keyed(in.fields("'patch K'"), "patch", 0, std::numeric_limits<int>::max());
    p.line = in.number();
    if (id != k)
      in.fail("patch " + std::to_string(id) + " where patch " + std::to_string(k) +
              " was expected");
    p.height = in.keyed(in.fields("'height H'"), "height", 1, kDynamicMaxSide);
    p.width = in.keyed(in.fields("'width W'"), "width", 1, kDynamicMaxSide);
    f = in.fields("'map'");
    if (f.size() != 1 || f[0] != "map") in.fail("expected 'map', found " + Lines::describe(f));
    // Grown row by row: a header that claims more rows than the file holds costs nothing.
    p.blocked.reserve(std::min(
        static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height), in.remaining()));
    for (int y = 0; y < p.height; ++y) {
      std::string_view row;
      if (!in.next(row)) {
        in.fail("patch " + std::to_string(k) + " ends after " + std::to_string(y) + " of its " +
                std::to_string(p.height) + " rows");
      }
      if (row.size() != static_cast<std::size_t>(p.width)) {
        in.fail("row of " + std::to_string(row.size()) + " cells in patch " + std::to_string(k) +
                ", which is " + std::to_string(p.width) + " wide");
      }
      for (std::size_t x = 0; x < row.size(); ++x) {
        switch (row[x]) {
          case '.':
          case 'G':
          case 'S':
            p.blocked.push_back(0);
            break;
          case '@':
          case 'O':
          case 'T':
          case 'W':
            p.blocked.push_back(1);
            break;
          default:
            in.fail("unknown map character " + detail::quote(row.substr(x, 1)) + " at column " +
                    std::to_string(x + 1) + " (expected . G S @ O T W)");
        }
      }
    }
    out.push_back(std::move(p));
  }
  std::string_view rest;
  if (in.next(rest)) in.fail("text after the last of the " + std::to_string(count) + " patches");
  return out;
}

std::string dynamic_patch_path(std::string_view text, const std::string& name) {
  Lines in(text, name);
  return beside(name, read_header(in).patch);
}

DynamicScenario parse_dynamic_scenario(std::string_view text, const std::string& name,
                                       std::vector<Patch> patches, const std::string& patch_path) {
  DynamicScenario s;
  s.path = name;
  s.patch_path = patch_path;
  s.patches = std::move(patches);
  Lines in(text, name);
  const Header h = read_header(in);
  s.width = h.width;
  s.height = h.height;
  const std::string size = std::to_string(h.width) + "x" + std::to_string(h.height);
  auto cell = [&](std::string_view x, std::string_view y, const char* what) {
    const Cell c{in.integer(x, what, 0, std::numeric_limits<int>::max()),
                 in.integer(y, what, 0, std::numeric_limits<int>::max())};
    if (c.x >= h.width || c.y >= h.height) {
      in.fail(std::string(what) + " " + cell_text(c) + " is outside the " + size + " map");
    }
    return c;
  };
  std::string_view line;
  while (in.next(line)) {
    const auto f = detail::split_fields(line);
    DynamicCommand c;
    c.line = in.number();
    if (f[0] == "P") {
      if (f.size() != 5) in.fail("expected 'P BUCKET PATCH X Y', found " + Lines::describe(f));
      c.kind = DynamicCommand::Kind::patch;
      c.bucket = in.integer(f[1], "bucket", 0, std::numeric_limits<int>::max());
      c.patch = in.integer(f[2], "patch number", 0, std::numeric_limits<int>::max());
      if (static_cast<std::size_t>(c.patch) >= s.patches.size()) {
        in.fail("patch " + std::to_string(c.patch) + " is not in " + patch_path + " (" +
                std::to_string(s.patches.size()) + " patches)");
      }
      c.at = {in.integer(f[3], "patch x", 0, std::numeric_limits<int>::max()),
              in.integer(f[4], "patch y", 0, std::numeric_limits<int>::max())};
      const Patch& p = s.patches[static_cast<std::size_t>(c.patch)];
      if (std::int64_t{c.at.x} + p.width > h.width || std::int64_t{c.at.y} + p.height > h.height) {
        in.fail("patch " + std::to_string(c.patch) + " (" + std::to_string(p.width) + "x" +
                std::to_string(p.height) + ") at " + cell_text(c.at) + " leaves the " + size +
                " map");
      }
    } else if (f[0] == "Q") {
      const std::size_t want = 6 + static_cast<std::size_t>(h.costs);
      if (f.size() != want) {
        in.fail("expected 'Q BUCKET SX SY GX GY' and " + std::to_string(h.costs) +
                " length(s), found " + std::to_string(f.size()) + " fields");
      }
      c.kind = DynamicCommand::Kind::query;
      c.bucket = in.integer(f[1], "bucket", 0, std::numeric_limits<int>::max());
      c.start = cell(f[2], f[3], "start");
      c.goal = cell(f[4], f[5], "goal");
      for (int i = 0; i < h.costs; ++i) {
        const double v = in.real(f[6 + static_cast<std::size_t>(i)], "length");
        if (i == h.octile) c.length = v;
      }
    } else {
      in.fail("unknown command " + detail::quote(f[0]) + " (expected P or Q)");
    }
    s.commands.push_back(c);
  }
  return s;
}

DynamicScenario load_dynamic_scenario(const std::string& path) {
  const std::string text = detail::read_file(path);
  const std::string patch_path = dynamic_patch_path(text, path);
  return parse_dynamic_scenario(
      text, path, parse_patches(detail::read_file(patch_path), patch_path), patch_path);
}

}  // namespace pathlab::io
