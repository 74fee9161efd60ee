// Flow fields as JSON: the object of `pathlab flow --json` and POST /api/flow (shared
// docs/DESIGN.md): width, height, goals, row-major distance (null where no goal is reachable)
// and direction (codes 0 E ... 7 NE, -1 none), the reachable count, the unit, and time_us.
#pragma once

#include <nlohmann/json.hpp>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>

namespace pathlab::json {

/// A whole-map field, plus "sees": per cell, the index of the goal it sees (-1 none).
[[nodiscard]] nlohmann::json flow_field(const flow::Field& f, const grid::Grid* g = nullptr);
/// A sectored field the same way (no "sees"), plus "sector", "sectors_x", "sectors_y",
/// "sectors_built" (row-major, 1 where the corridor's field is built) and "corridor_cells";
/// "time_us" is the last require's.
[[nodiscard]] nlohmann::json flow_field(const flow::SectorField& f, const grid::Grid* g = nullptr);

}  // namespace pathlab::json
