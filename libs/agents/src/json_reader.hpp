// A small strict JSON reader (RFC 8259) for the scenario files, internal to pathlab::agents: it
// keeps the line of every value (and of every object key) so the scenario reader can report
// bad values where they are. No trailing commas, no comments, no duplicate keys; strings must
// be valid UTF-8 (\uXXXX escapes included, surrogate pairs combined, lone surrogates refused);
// numbers are doubles and must be finite; nesting is limited to max_depth levels.
// Every problem is reported as ParseError(file, line, message); nothing else is thrown
// (std::bad_alloc aside).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/error.hpp>

namespace pathlab::agents::json {

enum class Type { null, boolean, number, string, array, object };

/// "null", "a boolean", "a number", "a string", "an array", "an object".
[[nodiscard]] std::string_view describe(Type t) noexcept;

struct Member;

struct Node {
  Type type = Type::null;
  int line = 0;  ///< 1-based line where the value begins
  bool boolean = false;
  double number = 0;
  std::string string;           ///< decoded (UTF-8)
  std::vector<Node> items;      ///< array elements
  std::vector<Member> members;  ///< object members, in document order

  [[nodiscard]] bool is(Type t) const noexcept { return type == t; }
  /// The member named `key`, or nullptr (objects only).
  [[nodiscard]] const Member* find(std::string_view key) const noexcept;
};

struct Member {
  std::string key;
  int line = 0;  ///< line of the key
  Node value;
};

inline constexpr int max_depth = 64;

/// Parses one JSON value (any type) spanning the whole text. An empty or all-blank text is
/// reported at line 0 ("empty file"). A leading UTF-8 byte order mark is skipped.
[[nodiscard]] Node parse(std::string_view text, const std::string& file);

}  // namespace pathlab::agents::json
