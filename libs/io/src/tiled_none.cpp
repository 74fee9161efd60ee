// The WebAssembly build has no XML parser, zlib or zstd: Tiled maps are not read there (they are
// written: tiled_write.cpp).
#include <pathlab/io/tiled.hpp>

namespace pathlab::io {

Map parse_tmx(std::string_view, const std::string& name, const MapOptions&) {
  throw ParseError(name, 0, "Tiled maps are not read in the WebAssembly build");
}

Map parse_tmj(std::string_view, const std::string& name, const MapOptions&) {
  throw ParseError(name, 0, "Tiled maps are not read in the WebAssembly build");
}

}  // namespace pathlab::io
