// libFuzzer target: pathlab::agents::parse_scenario (simulation scenarios, JSON). Malformed input
// may only raise ParseError; any other exception escapes and is reported as a crash. The
// scenario "lives" in the repository's maps/ folder (PATHLAB_FUZZ_MAPS_DIR, only read), so a
// "map" such as "hybrid_30x20.txt" loads and the checks after the map (markers, positions on
// walls) are reached too; other names fail cleanly as a missing map.
#include <pathlab/agents/scenario.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#ifndef PATHLAB_FUZZ_MAPS_DIR
#define PATHLAB_FUZZ_MAPS_DIR "/nonexistent"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::string path = std::string(PATHLAB_FUZZ_MAPS_DIR) + "/fuzz.json";
  pathlab::agents::Scenario sc;
  try {
    sc = pathlab::agents::parse_scenario(text, path);
  } catch (const pathlab::ParseError&) {
    return 0;
  }
  // What parsed must respect the documented bounds.
  const pathlab::agents::WorldSpec& w = sc.world;
  if (w.agents.empty() || !(w.dt > 0) || !std::isfinite(w.dt) || !(w.time_limit > 0) ||
      w.time_limit > 1e6 || w.grid.cells() <= 0) {
    __builtin_trap();
  }
  for (const auto& a : w.agents) {
    if (!(a.radius > 0 && a.radius < 8) || !(a.max_speed > 0) || !(a.max_accel > 0)) {
      __builtin_trap();
    }
    for (const auto p : {a.start, a.goal}) {
      if (!w.grid.passable(static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y)))) {
        __builtin_trap();
      }
    }
  }
  for (const auto& o : w.obstacles) {
    if (o.validate()) __builtin_trap();
  }
  return 0;
}
