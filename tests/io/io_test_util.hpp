// Helpers shared by the io tests: where the bundled maps and fixtures live, reading a file.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace pathlab::testing {

inline const std::string maps_dir = PATHLAB_SOURCE_DIR "/maps/";
inline const std::string data_dir = PATHLAB_SOURCE_DIR "/tests/io/data/";

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace pathlab::testing
