// Strict JSON reader with line numbers (see json_reader.hpp).
#include "json_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <system_error>
#include <unordered_set>

#include <pathlab/core/portable.hpp>

namespace pathlab::agents::json {

std::string_view describe(Type t) noexcept {
  switch (t) {
    case Type::null:
      return "null";
    case Type::boolean:
      return "a boolean";
    case Type::number:
      return "a number";
    case Type::string:
      return "a string";
    case Type::array:
      return "an array";
    case Type::object:
      return "an object";
  }
  return "?";
}

const Member* Node::find(std::string_view key) const noexcept {
  for (const Member& m : members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

namespace {

/// A character for a message: printable ASCII as is, anything else as a hex byte.
std::string show(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", u);
  return std::string("byte ") + buf;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  Node document() {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip_space();
    if (pos_ == s_.size()) throw ParseError(file_, 0, "empty file");
    Node root = value(0);
    skip_space();
    if (pos_ != s_.size()) {
      fail("unexpected " + show(s_[pos_]) + " after the end of the JSON value");
    }
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
  [[noreturn]] void fail_at(int line, const std::string& message) const {
    throw ParseError(file_, line, message);
  }

  /// The character at pos_ is not what the grammar wants here.
  [[noreturn]] void unexpected(const std::string& expected) const {
    if (peek() == '/') fail("comments are not allowed in JSON");
    if (peek() == '\'') fail("strings must use double quotes");
    fail("expected " + expected + ", found " + show(peek()));
  }

  [[noreturn]] void unclosed(const char* what, int opened) const {
    fail(std::string("unexpected end of input inside ") + what + " (opened at line " +
         std::to_string(opened) + ")");
  }

  [[nodiscard]] bool at_end() const noexcept { return pos_ >= s_.size(); }
  [[nodiscard]] char peek() const noexcept { return s_[pos_]; }

  void skip_space() {
    while (!at_end()) {
      const char c = peek();
      if (c == '\n') {
        ++line_;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++pos_;
    }
  }

  Node value(int depth) {
    if (at_end()) fail("unexpected end of input: expected a value");
    Node n;
    n.line = line_;
    const char c = peek();
    switch (c) {
      case '{':
        if (depth >= max_depth)
          fail("nesting deeper than " + std::to_string(max_depth) + " levels");
        object(n, depth + 1);
        break;
      case '[':
        if (depth >= max_depth)
          fail("nesting deeper than " + std::to_string(max_depth) + " levels");
        array(n, depth + 1);
        break;
      case '"':
        n.type = Type::string;
        n.string = string();
        break;
      case 't':
        literal("true");
        n.type = Type::boolean;
        n.boolean = true;
        break;
      case 'f':
        literal("false");
        n.type = Type::boolean;
        break;
      case 'n':
        literal("null");
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          n.type = Type::number;
          n.number = number();
          break;
        }
        if (c == '/') fail("comments are not allowed in JSON");
        if (c == '\'') fail("strings must use double quotes");
        fail("unexpected " + show(c) + ": expected a value");
    }
    return n;
  }

  void literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) {
      // Name the bare word for the message (e.g. True, nul, yes).
      std::size_t e = pos_;
      while (e < s_.size() && e - pos_ < 16 &&
             ((s_[e] >= 'a' && s_[e] <= 'z') || (s_[e] >= 'A' && s_[e] <= 'Z'))) {
        ++e;
      }
      fail("invalid literal '" + std::string(s_.substr(pos_, e - pos_)) +
           "': expected true, false or null");
    }
    pos_ += word.size();
    if (!at_end() && ((peek() >= 'a' && peek() <= 'z') || (peek() >= 'A' && peek() <= 'Z') ||
                      (peek() >= '0' && peek() <= '9') || peek() == '_')) {
      fail("invalid literal: expected true, false or null");
    }
  }

  void object(Node& n, int depth) {
    n.type = Type::object;
    ++pos_;  // '{'
    skip_space();
    if (!at_end() && peek() == '}') {
      ++pos_;
      return;
    }
    std::unordered_set<std::string> keys;
    int comma_line = 0;  // line of the last ',' (a trailing comma is reported there)
    for (;;) {
      skip_space();
      if (at_end()) unclosed("an object", n.line);
      if (peek() != '"') {
        if (peek() == '}') fail_at(comma_line, "trailing comma before '}'");
        unexpected("a key in double quotes");
      }
      Member m;
      m.line = line_;
      m.key = string();
      if (!keys.insert(m.key).second) fail("duplicate key '" + m.key + "'");
      skip_space();
      if (at_end() || peek() != ':') {
        fail(at_end() ? "unexpected end of input: expected ':' after key '" + m.key + "'"
                      : "expected ':' after key '" + m.key + "', found " + show(peek()));
      }
      ++pos_;
      skip_space();
      m.value = value(depth);
      n.members.push_back(std::move(m));
      skip_space();
      if (at_end()) unclosed("an object", n.line);
      if (peek() == ',') {
        comma_line = line_;
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return;
      }
      unexpected("',' or '}' after a member of an object");
    }
  }

  void array(Node& n, int depth) {
    n.type = Type::array;
    ++pos_;  // '['
    skip_space();
    if (!at_end() && peek() == ']') {
      ++pos_;
      return;
    }
    int comma_line = 0;  // line of the last ',' (a trailing comma is reported there)
    for (;;) {
      skip_space();
      if (at_end()) unclosed("an array", n.line);
      if (peek() == ']') fail_at(comma_line, "trailing comma before ']'");
      n.items.push_back(value(depth));
      skip_space();
      if (at_end()) unclosed("an array", n.line);
      if (peek() == ',') {
        comma_line = line_;
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return;
      }
      unexpected("',' or ']' after an element of an array");
    }
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// Four hex digits after "\u" (pos_ at the first digit).
  std::uint32_t hex4() {
    if (s_.size() - pos_ < 4) fail("incomplete \\u escape in string");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_ + static_cast<std::size_t>(i)];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        fail("invalid \\u escape in string: expected 4 hex digits");
      }
    }
    pos_ += 4;
    return v;
  }

  /// Copies one raw UTF-8 sequence starting at pos_ (a byte >= 0x80), checking it.
  void utf8_sequence(std::string& out) {
    const auto b0 = static_cast<unsigned char>(s_[pos_]);
    std::size_t len = 0;
    std::uint32_t cp = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2, cp = b0 & 0x1Fu, min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3, cp = b0 & 0x0Fu, min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4, cp = b0 & 0x07u, min = 0x10000;
    } else {
      fail("invalid UTF-8 in string");
    }
    if (s_.size() - pos_ < len) fail("invalid UTF-8 in string");
    for (std::size_t i = 1; i < len; ++i) {
      const auto b = static_cast<unsigned char>(s_[pos_ + i]);
      if ((b & 0xC0u) != 0x80u) fail("invalid UTF-8 in string");
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      fail("invalid UTF-8 in string");
    }
    out.append(s_.substr(pos_, len));
    pos_ += len;
  }

  /// A string (pos_ at the opening quote); strings cannot span lines.
  std::string string() {
    const int start_line = line_;
    ++pos_;
    std::string out;
    for (;;) {
      if (at_end()) fail_at(start_line, "unterminated string");
      const char c = peek();
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c == '\n' || c == '\r')
        fail_at(start_line, "unterminated string (line break in a string)");
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("control character " + show(c) + " in string (escape it)");
      }
      if (static_cast<unsigned char>(c) >= 0x80) {
        utf8_sequence(out);
        continue;
      }
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (at_end()) fail_at(start_line, "unterminated string");
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail("invalid \\u escape: lone low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.substr(pos_, 2) != "\\u") {
              fail("invalid \\u escape: high surrogate without a low surrogate");
            }
            pos_ += 2;
            const std::uint32_t lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) {
              fail("invalid \\u escape: high surrogate without a low surrogate");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail("invalid escape '\\" +
               (static_cast<unsigned char>(e) >= 0x20 && static_cast<unsigned char>(e) < 0x7f
                    ? std::string(1, e)
                    : show(e)) +
               "' in string");
      }
    }
  }

  [[nodiscard]] bool digit_at(std::size_t i) const noexcept {
    return i < s_.size() && s_[i] >= '0' && s_[i] <= '9';
  }

  /// Roughly log10 of a well-formed number token [b, e): > 0 only for magnitudes of 1 or more.
  [[nodiscard]] long long decimal_magnitude(std::size_t b, std::size_t e) const noexcept {
    std::size_t i = b;
    if (s_[i] == '-') ++i;
    long long mag = 0;
    bool nonzero = false;
    for (; i < e && s_[i] >= '0' && s_[i] <= '9'; ++i) {
      if (s_[i] != '0') nonzero = true;
      if (nonzero) ++mag;
    }
    if (i < e && s_[i] == '.') {
      for (++i; i < e && s_[i] >= '0' && s_[i] <= '9'; ++i) {
        if (!nonzero && s_[i] != '0') nonzero = true;
        if (!nonzero) --mag;
      }
    }
    if (i < e && (s_[i] == 'e' || s_[i] == 'E')) {
      ++i;
      const bool negative = s_[i] == '-';
      if (s_[i] == '+' || s_[i] == '-') ++i;
      long long x = 0;
      for (; i < e; ++i) x = std::min(x * 10 + (s_[i] - '0'), 1000000000LL);
      mag += negative ? -x : x;
    }
    return mag;
  }

  double number() {
    const std::size_t begin = pos_;
    std::size_t i = pos_;
    // The whole token, for the message: everything up to a delimiter.
    auto token = [&] {
      std::size_t e = begin;
      while (e < s_.size() && e - begin < 32 && s_[e] != ',' && s_[e] != ']' && s_[e] != '}' &&
             s_[e] != ' ' && s_[e] != '\n' && s_[e] != '\r' && s_[e] != '\t') {
        ++e;
      }
      std::string t(s_.substr(begin, e - begin));
      for (char& ch : t) {
        if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f) {
          ch = '?';
        }
      }
      return t;
    };
    auto bad = [&]() { fail("invalid number '" + token() + "'"); };
    if (s_[i] == '-') ++i;
    if (!digit_at(i)) bad();
    if (s_[i] == '0') {
      ++i;
      if (digit_at(i)) bad();  // leading zero
    } else {
      while (digit_at(i)) ++i;
    }
    if (i < s_.size() && s_[i] == '.') {
      ++i;
      if (!digit_at(i)) bad();
      while (digit_at(i)) ++i;
    }
    if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      ++i;
      if (i < s_.size() && (s_[i] == '+' || s_[i] == '-')) ++i;
      if (!digit_at(i)) bad();
      while (digit_at(i)) ++i;
    }
    if (i < s_.size()) {
      const char c = s_[i];
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || c == '+' ||
          c == '-') {
        bad();
      }
    }
    double v = 0;
    const char* first = s_.data() + begin;
    const char* last = s_.data() + i;
    const auto r = core::from_chars(first, last, v);
    if (r.ec == std::errc::result_out_of_range) {
      // Overflow is an error; underflow (a magnitude below the smallest double) reads as zero.
      if (decimal_magnitude(begin, i) > 0) fail("number '" + token() + "' is out of range");
      v = 0;
    } else if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) {
      fail("number '" + token() + "' is out of range");
    }
    pos_ = i;
    return v;
  }

  std::string_view s_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

Node parse(std::string_view text, const std::string& file) {
  return Parser(text, file).document();
}

}  // namespace pathlab::agents::json
