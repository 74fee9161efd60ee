// Internal to the io module: a JSON document that remembers where each of its objects and arrays
// starts in the file, so that a reader can say "FILE:LINE" about a value it refuses (the
// Tiled JSON map and the layered map of tiled.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace pathlab::io::detail {

/// A parsed JSON file and the byte offsets of its objects and arrays.
class JsonDoc {
 public:
  /// Parses `text`; a syntax error throws ParseError(name, line, ...) at the line it was found.
  JsonDoc(std::string_view text, std::string name);
  JsonDoc(const JsonDoc&) = delete;
  JsonDoc& operator=(const JsonDoc&) = delete;

  /// The document's root value.
  [[nodiscard]] const nlohmann::json& root() const noexcept { return root_; }
  /// The file's name as given.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// The line (1-based) where object or array `j` starts; `fallback` for anything else (a
  /// number, a string: their enclosing object's line is the best a caller can say).
  [[nodiscard]] int line_of(const nlohmann::json& j, int fallback = 0) const;
  /// The line of byte `offset` of the text.
  [[nodiscard]] int line_at(std::size_t offset) const;

 private:
  std::string_view text_;
  std::string name_;
  nlohmann::json root_;
  std::unordered_map<const void*, std::size_t> starts_;
  mutable std::vector<std::size_t> newlines_;  // offsets of '\n', indexed on first use
  mutable bool lines_indexed_ = false;
};

}  // namespace pathlab::io::detail
