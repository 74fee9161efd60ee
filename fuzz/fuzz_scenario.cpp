// libFuzzer target: pathlab::io::parse_scenarios. Malformed input may only raise ParseError;
// entries that parse must respect the documented bounds and survive a write/parse round trip.
#include <pathlab/io/scenario.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pathlab::io::ScenarioFile file;
  try {
    file = pathlab::io::parse_scenarios(text, "fuzz.scen");
  } catch (const pathlab::ParseError&) {
    return 0;
  }
  for (const pathlab::io::ScenarioEntry& e : file.entries) {
    if (e.width <= 0 || e.height <= 0 || e.start.x < 0 || e.start.y < 0 || e.goal.x < 0 ||
        e.goal.y < 0 || e.start.x >= e.width || e.goal.x >= e.width || e.start.y >= e.height ||
        e.goal.y >= e.height || !std::isfinite(e.optimal) || e.optimal < 0 || e.map.empty()) {
      __builtin_trap();
    }
  }
  (void)file.map_path();
  // Written entries must read back (a ParseError here is a bug, so it is not caught).
  const pathlab::io::ScenarioFile again =
      pathlab::io::parse_scenarios(pathlab::io::write_scenarios(file), "again.scen");
  if (again.entries.size() != file.entries.size()) __builtin_trap();
  return 0;
}
