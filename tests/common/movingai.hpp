// The shared Moving AI benchmark set (shared/benchmarks/movingai beside the repository), for the
// tests that check searches against its optimal lengths. Tests skip when it is absent.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace pathlab::testing {

inline std::filesystem::path movingai_dir() {
  return std::filesystem::path(PATHLAB_SHARED_DIR) / "benchmarks" / "movingai";
}

/// Its .scen files, sorted by name; empty when the folder is absent.
inline std::vector<std::filesystem::path> movingai_scenario_files() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(movingai_dir(), ec)) {
    if (e.path().extension() == ".scen") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Why a test skips.
inline std::string movingai_missing() {
  return "Moving AI benchmark data not found at " + movingai_dir().string() +
         " (expected shared/benchmarks/movingai beside the repository)";
}

/// Whether a cost equals a scenario's optimal length: Moving AI prints optima with limited
/// precision (the tolerance of docs/ALGORITHMS.md).
inline bool at_optimum(double cost, double optimal) {
  return std::abs(cost - optimal) <= 0.005 + 1e-5 * optimal;
}

}  // namespace pathlab::testing
