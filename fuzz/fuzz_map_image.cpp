// libFuzzer target: pathlab::io::parse_map with the image format forced. Malformed input may only
// raise ParseError; any other exception, crash or sanitizer report is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  pathlab::io::MapOptions options;
  options.format = pathlab::io::MapFormat::image;
  // The last byte picks the options (image decoders ignore trailing bytes), so cell merging,
  // thresholds and gray terrain are fuzzed too.
  if (!bytes.empty()) {
    const auto o = static_cast<unsigned char>(bytes.back());
    options.cell = 1 + (o & 7);
    options.gray_terrain = (o & 8) != 0;
    options.threshold = (o >> 4) * 17;
  }
  pathlab::fuzz::check_map(bytes, options);
  return 0;
}
