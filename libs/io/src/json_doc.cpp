// JsonDoc (json_doc.hpp): nlohmann::json's parser reading through an iterator that tells how far
// it has read, and a callback that notes where each object and array starts.
#include "json_doc.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include <pathlab/core/error.hpp>

namespace pathlab::io::detail {

namespace {

// A character iterator that publishes its position: the parser copies it, so the position is
// written where the caller can read it while the parser runs.
struct TrackingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* p = nullptr;
  const char** where = nullptr;

  reference operator*() const noexcept { return *p; }
  TrackingIterator& operator++() noexcept {
    *where = ++p;
    return *this;
  }
  TrackingIterator operator++(int) noexcept {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  // (a != b is rewritten to !(a == b).)
  friend bool operator==(const TrackingIterator& a, const TrackingIterator& b) noexcept {
    return a.p == b.p;
  }
};

}  // namespace

JsonDoc::JsonDoc(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {
  const char* here = text.data();
  std::vector<std::size_t> open;
  using json = nlohmann::json;
  const json::parser_callback_t note = [&](int, json::parse_event_t event, json& parsed) {
    // The parser has read the bracket (and perhaps one character more) when it reports it.
    const auto at = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, here - text.data() - 1));
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        open.push_back(at);
        break;
      case json::parse_event_t::object_end:
        if (!open.empty()) {
          if (const auto* o = parsed.get_ptr<const json::object_t*>()) starts_[o] = open.back();
          open.pop_back();
        }
        break;
      case json::parse_event_t::array_end:
        if (!open.empty()) {
          if (const auto* a = parsed.get_ptr<const json::array_t*>()) starts_[a] = open.back();
          open.pop_back();
        }
        break;
      default:
        break;
    }
    return true;
  };
  try {
    const TrackingIterator first{text.data(), &here};
    const TrackingIterator last{text.data() + text.size(), &here};
    root_ = json::parse(first, last, note);
  } catch (const json::parse_error& e) {
    const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // nlohmann's message starts "[json.exception.parse_error.101] parse error at line L,
    // column C: ": keep what follows.
    const std::size_t colon = what.find(": ", what.find("column"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw ParseError(name_, line_at(at), "not valid JSON: " + what);
  } catch (const json::exception& e) {
    // A number too large for a double ("1E4444"): nlohmann reports it as out_of_range.
    std::string what = e.what();
    if (const std::size_t b = what.find("] "); b != std::string::npos) what = what.substr(b + 2);
    throw ParseError(name_, line_at(static_cast<std::size_t>(here - text.data())),
                     "not valid JSON: " + what);
  }
}

int JsonDoc::line_of(const nlohmann::json& j, int fallback) const {
  const void* key = nullptr;
  if (const auto* o = j.get_ptr<const nlohmann::json::object_t*>()) key = o;
  if (const auto* a = j.get_ptr<const nlohmann::json::array_t*>()) key = a;
  if (key == nullptr) return fallback;
  const auto it = starts_.find(key);
  return it == starts_.end() ? fallback : line_at(it->second);
}

int JsonDoc::line_at(std::size_t offset) const {
  if (!lines_indexed_) {
    for (std::size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') newlines_.push_back(i);
    }
    lines_indexed_ = true;
  }
  const auto before = std::lower_bound(newlines_.begin(), newlines_.end(), offset);
  return 1 + static_cast<int>(before - newlines_.begin());
}

}  // namespace pathlab::io::detail
