// Text helpers shared by the map and scenario parsers (see text.hpp).
#include "text.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <pathlab/core/error.hpp>

namespace pathlab::io::detail {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file");
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_file_bytes) throw ParseError(path, 0, "file too large");
  std::string data;
  std::array<char, 65536> buffer;
  // Read in chunks instead of trusting the reported size: pipes and devices report none.
  while (in) {
    in.read(buffer.data(), buffer.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    if (data.size() + got > max_file_bytes) throw ParseError(path, 0, "file too large");
    data.append(buffer.data(), got);
  }
  if (in.bad() || !in.eof()) throw ParseError(path, 0, "cannot read file");
  return data;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t b = line.find_first_not_of(" \t", i);
    if (b == std::string_view::npos) break;
    std::size_t e = line.find_first_of(" \t", b);
    if (e == std::string_view::npos) e = line.size();
    out.push_back(line.substr(b, e - b));
    i = e;
  }
  return out;
}

std::string quote(std::string_view s) {
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (printable(c)) {
      out += s[i];
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  if (s.size() > 40) out += "...";
  return out + "'";
}

}  // namespace pathlab::io::detail
