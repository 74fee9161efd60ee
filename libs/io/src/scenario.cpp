// Moving AI scenario files: parsing with the tolerance real files need (version 1 or 1.0 or none,
// tabs or spaces, CRLF, blank lines), strict checks on each entry's numbers, and writing.
// Whether an entry fits its actual map is checked by the caller, who has the map.
#include <pathlab/core/portable.hpp>
#include <pathlab/io/scenario.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "text.hpp"

namespace pathlab::io {

namespace {

class EntryParser {
 public:
  EntryParser(const std::string& name, int line) : name_(name), line_(line) {}

  /// A non-negative int field.
  int count(std::string_view field, const char* what) const {
    int v = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, v);
    if (ec == std::errc::result_out_of_range)
      fail(std::string(what) + " out of range: " + detail::quote(field));
    if (ec != std::errc{} || ptr != end)
      fail(std::string(what) + " is not an integer: " + detail::quote(field));
    if (v < 0) fail(std::string("negative ") + what + ": " + std::to_string(v));
    return v;
  }

  double length(std::string_view field) const {
    double v = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = core::from_chars(field.data(), end, v);
    if (ec != std::errc{} || ptr != end)
      fail("optimal length is not a number: " + detail::quote(field));
    if (!std::isfinite(v)) fail("optimal length is not finite: " + detail::quote(field));
    if (v < 0) fail("negative optimal length: " + detail::quote(field));
    return v;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError(name_, line_, message);
  }

 private:
  const std::string& name_;
  int line_;
};

// "version 1" and "version 1.0" (the bg512 files) are the only versions there are.
bool is_version_one(std::string_view v) {
  double d = 0;
  const auto [ptr, ec] = core::from_chars(v.data(), v.data() + v.size(), d);
  return ec == std::errc{} && ptr == v.data() + v.size() && d == 1.0 &&
         v.find_first_not_of("0123456789.") == std::string_view::npos;
}

}  // namespace

std::string ScenarioFile::map_path() const {
  if (entries.empty()) return {};
  const std::string& m = entries.front().map;
  // The map column holds a path inside the original archive, with either separator.
  const std::size_t cut = m.find_last_of("/\\");
  const std::string base = cut == std::string::npos ? m : m.substr(cut + 1);
  const std::size_t dir = path.find_last_of("/\\");
  if (dir == std::string::npos) return base;
  return path.substr(0, dir + 1) + base;
}

ScenarioFile parse_scenarios(std::string_view text, const std::string& name) {
  ScenarioFile file;
  file.path = name;
  if (text.empty()) throw ParseError(name, 0, "empty file");
  // Line numbers are ints.
  if (text.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw ParseError(name, 0, "file too large");
  }
  bool seen_content = false;
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    EntryParser p(name, number);
    for (std::size_t i = 0; i < line.size(); ++i) {
      const auto c = static_cast<unsigned char>(line[i]);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", c);
        p.fail(std::string("unexpected byte ") + hex + " at column " + std::to_string(i + 1));
      }
    }
    const auto f = detail::split_fields(line);
    if (f.empty()) continue;  // blank lines occur anywhere in real files
    const bool first = !seen_content;
    seen_content = true;
    if (f[0] == "version") {
      if (!first) p.fail("'version' line after the first entry");
      if (f.size() != 2 || !is_version_one(f[1])) {
        p.fail("unsupported version line " + detail::quote(line) + " (expected 'version 1')");
      }
      continue;
    }
    if (f.size() != 9) {
      p.fail(
          "expected 9 fields (bucket map width height start-x start-y goal-x goal-y "
          "optimal), found " +
          std::to_string(f.size()));
    }
    ScenarioEntry e;
    e.line = number;
    e.bucket = p.count(f[0], "bucket");
    e.map = std::string(f[1]);
    e.width = p.count(f[2], "width");
    e.height = p.count(f[3], "height");
    if (e.width == 0 || e.height == 0)
      p.fail("empty map size " + detail::quote(f[2]) + "x" + detail::quote(f[3]));
    e.start = {p.count(f[4], "start x"), p.count(f[5], "start y")};
    e.goal = {p.count(f[6], "goal x"), p.count(f[7], "goal y")};
    e.optimal = p.length(f[8]);
    for (auto [c, what] : {std::pair{e.start, "start"}, std::pair{e.goal, "goal"}}) {
      if (c.x >= e.width || c.y >= e.height) {
        p.fail(std::string(what) + " (" + std::to_string(c.x) + "," + std::to_string(c.y) +
               ") is outside the " + std::to_string(e.width) + "x" + std::to_string(e.height) +
               " map");
      }
    }
    file.entries.push_back(std::move(e));
  }
  return file;
}

ScenarioFile load_scenarios(const std::string& path) {
  return parse_scenarios(detail::read_file(path), path);
}

std::string write_scenarios(const ScenarioFile& file) {
  std::string out = "version 1\n";
  for (const ScenarioEntry& e : file.entries) {
    char optimal[64];
    std::snprintf(optimal, sizeof optimal, "%.8f", e.optimal);
    out += std::to_string(e.bucket) + '\t' + e.map + '\t' + std::to_string(e.width) + '\t' +
           std::to_string(e.height) + '\t' + std::to_string(e.start.x) + '\t' +
           std::to_string(e.start.y) + '\t' + std::to_string(e.goal.x) + '\t' +
           std::to_string(e.goal.y) + '\t' + optimal + '\n';
  }
  return out;
}

}  // namespace pathlab::io
