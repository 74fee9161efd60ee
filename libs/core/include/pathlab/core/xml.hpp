// Text for SVG and HTML: every writer of pictures and reports escapes user text (titles,
// algorithm and map names, tile kinds) the same way.
#pragma once

#include <string>
#include <string_view>

namespace pathlab {

/// s with & < > " ' replaced by their entities, safe in element text and quoted attributes.
[[nodiscard]] inline std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace pathlab
