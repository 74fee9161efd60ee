// What C++20 promises and not every standard library has yet: the WebAssembly build (Emscripten
// 3.1.6 with LLVM 14's libc++) lacks floating-point std::from_chars / std::to_chars and
// std::bit_cast. These give the standard behaviour everywhere: the standard functions where the
// library has them (libstdc++ 12, the native build), an equivalent otherwise.
#pragma once

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <type_traits>
#include <version>

#if defined(__cpp_lib_bit_cast)
#include <bit>
#endif

namespace pathlab::core {

/// std::bit_cast.
template <class To, class From>
[[nodiscard]] constexpr To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> &&
                std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
  return std::bit_cast<To>(from);
#else
  return __builtin_bit_cast(To, from);
#endif
}

namespace detail {
template <class T>
T strto(const char* s, char** end) {
  if constexpr (std::is_same_v<T, float>) {
    return std::strtof(s, end);
  } else {
    return std::strtod(s, end);
  }
}
/// from_chars without the standard library's: std::from_chars for float and double
/// (std::chars_format::general): an optional '-', then decimal digits with an optional point and
/// exponent, or inf, infinity, nan. No leading space, no '+', no hexadecimal; the value is left
/// alone on an error.
template <class T>
std::from_chars_result from_chars_fallback(const char* first, const char* last, T& value) {
  static_assert(std::is_floating_point_v<T>);
  // strtod reads more than from_chars (leading space, '+', hexadecimal): refuse those first.
  if (first == last || *first == '+' || *first == ' ' || (*first >= '\t' && *first <= '\r')) {
    return {first, std::errc::invalid_argument};
  }
  const char* digits = first + (*first == '-' ? 1 : 0);
  if (digits == last || *digits == '+' || *digits == '-' || *digits == ' ') {
    return {first, std::errc::invalid_argument};
  }
  std::string text(first, last);
  const std::size_t hex = (digits - first) + 1;  // "0x…" reads as 0, stopping at the x
  if (text.size() > hex && text[hex - 1] == '0' && (text[hex] == 'x' || text[hex] == 'X')) {
    text.resize(hex);
  }
  char* end = nullptr;
  errno = 0;
  const T v = strto<T>(text.c_str(), &end);
  const char* ptr = first + (end - text.c_str());
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  // strtod says ERANGE for a subnormal result too, which from_chars reads: out of range is a
  // value that overflowed to infinity or underflowed to zero.
  if (errno == ERANGE && (v == 0 || std::isinf(v))) return {ptr, std::errc::result_out_of_range};
  value = v;
  return {ptr, std::errc{}};
}

/// to_chars without the standard library's: std::to_chars for float and double without a format:
/// the shortest text that reads back to the same value, fixed or scientific, whichever is shorter
/// (fixed on a tie).
template <class T>
std::to_chars_result to_chars_fallback(char* first, char* last, T value) {
  static_assert(std::is_floating_point_v<T>);
  char buf[64];
  int n = 0;
  if (std::isnan(value)) {
    n = std::snprintf(buf, sizeof buf, "%s", std::signbit(value) ? "-nan" : "nan");
  } else if (std::isinf(value)) {
    n = std::snprintf(buf, sizeof buf, "%s", value < 0 ? "-inf" : "inf");
  } else {
    // The fewest significant digits that read back to the value, in scientific notation.
    const int max_digits = std::is_same_v<T, float> ? 9 : 17;
    int digits = 1;
    for (; digits < max_digits; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(value));
      if (strto<T>(buf, nullptr) == value) break;
    }
    char sci[64];
    const int sci_n =
        std::snprintf(sci, sizeof sci, "%.*e", digits - 1, static_cast<double>(value));
    const int exponent = std::atoi(std::strchr(sci, 'e') + 1);
    // The same digits in fixed notation: as many decimals as the digits reach below the point.
    const int decimals = std::max(0, digits - 1 - exponent);
    char fixed[400];
    const int fixed_n =
        std::snprintf(fixed, sizeof fixed, "%.*f", decimals, static_cast<double>(value));
    if (fixed_n <= sci_n) {
      n = std::snprintf(buf, sizeof buf, "%s",
                        fixed_n < static_cast<int>(sizeof buf) ? fixed : sci);
    } else {
      n = std::snprintf(buf, sizeof buf, "%s", sci);
    }
  }
  if (n > last - first) return {last, std::errc::value_too_large};
  std::memcpy(first, buf, static_cast<std::size_t>(n));
  return {first + n, std::errc{}};
}

}  // namespace detail

/// std::from_chars for float and double (std::chars_format::general): an optional '-', then
/// decimal digits with an optional point and exponent, or inf, infinity, nan. No leading space,
/// no '+', no hexadecimal; the value is left alone on an error.
template <class T>
std::from_chars_result from_chars(const char* first, const char* last, T& value) {
#if defined(__cpp_lib_to_chars)
  return std::from_chars(first, last, value);
#else
  return detail::from_chars_fallback(first, last, value);
#endif
}

/// std::to_chars for float and double without a format: the shortest text that reads back to
/// the same value, fixed or scientific, whichever is shorter (fixed on a tie).
template <class T>
std::to_chars_result to_chars(char* first, char* last, T value) {
#if defined(__cpp_lib_to_chars)
  return std::to_chars(first, last, value);
#else
  return detail::to_chars_fallback(first, last, value);
#endif
}

}  // namespace pathlab::core
