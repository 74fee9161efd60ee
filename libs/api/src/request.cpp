// Requests from the wire's request target (see api.hpp): percent-decoding as cpp-httplib does it,
// so that the static page's requests read as the server's do.
#include <pathlab/api/api.hpp>

namespace pathlab::api {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// %XX is the byte XX; a '%' without two hex digits stays; '+' is a space where `plus_space`.
std::string decode(std::string_view s, bool plus_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += plus_space && s[i] == '+' ? ' ' : s[i];
  }
  return out;
}

}  // namespace

std::optional<std::string_view> Request::param(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) return std::string_view(value);
  }
  return std::nullopt;
}

Request Request::from_target(std::string method, std::string_view target, std::string_view body) {
  Request r;
  r.method = std::move(method);
  r.body = body;
  const std::size_t q = target.find('?');
  r.path = decode(target.substr(0, q), false);
  if (q == std::string_view::npos) return r;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == 0) continue;  // no name
    r.query.emplace_back(decode(pair.substr(0, eq), true), eq == std::string_view::npos
                                                               ? std::string()
                                                               : decode(pair.substr(eq + 1), true));
  }
  return r;
}

}  // namespace pathlab::api
