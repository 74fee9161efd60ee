// libFuzzer target: pathlab::io::parse_map with the tmx format forced (a Tiled map), external
// tilesets served from memory. Malformed input may only raise ParseError; any other exception,
// crash or sanitizer report is a bug the fuzzer reports (fuzz_tiled_common.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_tiled_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  pathlab::fuzz::check_tiled(bytes, pathlab::io::MapFormat::tmx);
  return 0;
}
