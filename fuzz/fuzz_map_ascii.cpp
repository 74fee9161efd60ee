// libFuzzer target: pathlab::io::parse_map with the ascii format forced. Malformed input may only
// raise ParseError; any other exception, crash or sanitizer report is a bug the fuzzer reports.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  pathlab::io::MapOptions options;
  options.format = pathlab::io::MapFormat::ascii;
  pathlab::fuzz::check_map(bytes, options);
  return 0;
}
