// pathlab/core/portable.hpp: the fallbacks the WebAssembly build uses (its libc++ has no
// floating-point from_chars / to_chars) must behave as the standard functions the native build
// uses, which this build has: every case compares the two.
#include <pathlab/core/portable.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using pathlab::core::detail::from_chars_fallback;
using pathlab::core::detail::to_chars_fallback;

template <class T>
void expect_same_parse(const std::string& text) {
  T a = T(-7.25), b = T(-7.25);
  const auto ra = std::from_chars(text.data(), text.data() + text.size(), a);
  const auto rb = from_chars_fallback(text.data(), text.data() + text.size(), b);
  EXPECT_EQ(ra.ec, rb.ec) << "'" << text << "'";
  EXPECT_EQ(ra.ptr - text.data(), rb.ptr - text.data()) << "'" << text << "'";
  if (std::isnan(a)) {
    EXPECT_TRUE(std::isnan(b)) << "'" << text << "'";
  } else if (ra.ec != std::errc::result_out_of_range) {
    // (on out-of-range, libstdc++ and the fallback both leave the value alone)
    EXPECT_EQ(a, b) << "'" << text << "'";
    EXPECT_EQ(std::signbit(a), std::signbit(b)) << "'" << text << "'";
  }
}

template <class T>
std::string standard_text(T v) {
  char buf[512];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

template <class T>
std::string fallback_text(T v) {
  char buf[512];
  const auto r = to_chars_fallback(buf, buf + sizeof buf, v);
  EXPECT_EQ(r.ec, std::errc{});
  return std::string(buf, r.ptr);
}

TEST(Portable, FromCharsMatchesTheStandardOnEdgeCases) {
  const std::vector<std::string> cases = {"0",
                                          "-0",
                                          "1",
                                          "1.5",
                                          "-2.25",
                                          "1e6",
                                          "1E6",
                                          "1e+06",
                                          "1e-5",
                                          ".5",
                                          "5.",
                                          "-.5",
                                          "1.5x",
                                          "12abc",
                                          "",
                                          "-",
                                          "+1",
                                          " 1",
                                          "\t1",
                                          "1 ",
                                          "--1",
                                          "-+1",
                                          "e5",
                                          ".",
                                          "-.",
                                          "1e",
                                          "1e+",
                                          "0x10",
                                          "-0x1p3",
                                          "0X1",
                                          "inf",
                                          "-inf",
                                          "infinity",
                                          "INF",
                                          "nan",
                                          "-nan",
                                          "nan(123)",
                                          "1e400",
                                          "-1e400",
                                          "1e-400",
                                          "4.9e-324",
                                          "2.2250738585072014e-308",
                                          "1.7976931348623157e308",
                                          "123456789012345678901234567890",
                                          "0.1000000000000000055511151231257827",
                                          "00012",
                                          "1..2",
                                          "x",
                                          "1,5",
                                          "3.14159265358979323846264338327950288"};
  for (const auto& c : cases) {
    expect_same_parse<double>(c);
    expect_same_parse<float>(c);
  }
}

TEST(Portable, ToCharsMatchesTheStandardOnEdgeCases) {
  const std::vector<double> doubles = {0.0,
                                       -0.0,
                                       1,
                                       -1,
                                       2,
                                       10,
                                       100,
                                       1000,
                                       1e5,
                                       1e6,
                                       1e7,
                                       123456,
                                       1234567,
                                       0.1,
                                       0.5,
                                       1.5,
                                       1e-4,
                                       1e-5,
                                       0.000123,
                                       1e21,
                                       1e22,
                                       1e-300,
                                       1.7976931348623157e308,
                                       4.9e-324,
                                       3.141592653589793,
                                       2.5e-7,
                                       1e16,
                                       1e15,
                                       123e10,
                                       9.999999999999999e22,
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity()};
  for (const double d : doubles) EXPECT_EQ(standard_text(d), fallback_text(d)) << d;
  const std::vector<float> floats = {0.0f, 1.0f,        1.1f,          2.5f,  100.0f,
                                     1e6f, 1e7f,        3.4028235e38f, 1e-7f, 1.17549435e-38f,
                                     0.3f, 16777216.0f, 123.456f};
  for (const float f : floats) EXPECT_EQ(standard_text(f), fallback_text(f)) << f;
  char small[3];
  EXPECT_EQ(to_chars_fallback(small, small + sizeof small, 12345.0).ec, std::errc::value_too_large);
}

RC_GTEST_PROP(Portable, ToCharsAndFromCharsMatchTheStandardOnAnyDouble, (std::uint64_t bits)) {
  const double d = pathlab::core::bit_cast<double>(bits);
  RC_PRE(!std::isnan(d));
  const std::string s = standard_text(d);
  RC_ASSERT(fallback_text(d) == s);
  double back = 0;
  const auto r = from_chars_fallback(s.data(), s.data() + s.size(), back);
  RC_ASSERT(r.ec == std::errc{});
  RC_ASSERT(back == d);
}

RC_GTEST_PROP(Portable, ToCharsMatchesTheStandardOnAnyFloat, (std::uint32_t bits)) {
  const float f = pathlab::core::bit_cast<float>(bits);
  RC_PRE(!std::isnan(f));
  RC_ASSERT(fallback_text(f) == standard_text(f));
}

RC_GTEST_PROP(Portable, FromCharsMatchesTheStandardOnNumberLikeText, ()) {
  const auto text =
      *rc::gen::container<std::string>(rc::gen::elementOf(std::string("0123456789.eE+-xXinfa ")));
  double a = 0, b = 0;
  const auto ra = std::from_chars(text.data(), text.data() + text.size(), a);
  const auto rb = from_chars_fallback(text.data(), text.data() + text.size(), b);
  RC_ASSERT(ra.ec == rb.ec);
  RC_ASSERT(ra.ptr == rb.ptr);
  if (ra.ec == std::errc{} && !std::isnan(a)) RC_ASSERT(a == b);
}

TEST(Portable, BitCastRoundTrips) {
  EXPECT_EQ(pathlab::core::bit_cast<std::uint64_t>(1.0), 0x3FF0000000000000ull);
  EXPECT_EQ(pathlab::core::bit_cast<double>(0x4000000000000000ull), 2.0);
}

}  // namespace
