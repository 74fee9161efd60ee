// Units: a radius and, per terrain class, a cost multiplier or "forbidden", given per query
// instead of baked into the grid (shared docs/ALGORITHMS.md, "Units: terrain classes, size and
// filters"). A grid serves any unit through Grid::view(unit): the grid as that unit sees it,
// cached and shared. Its wall bits come from one clearance field per set of forbidden
// classes, which serves every radius: no grid copy per query or per radius.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <pathlab/grid/grid.hpp>

namespace pathlab::grid {

/// Whether c names a class: a printable ASCII character other than space.
[[nodiscard]] constexpr bool valid_class(char c) noexcept {
  return c > ' ' && c <= '~';
}
/// Moving AI spells ground 'G' too and walls 'O' too: the canonical class of a map character.
[[nodiscard]] constexpr char canonical_class(char c) noexcept {
  return c == 'G' ? kGroundClass : c == 'O' ? kWallClass : c;
}

struct Unit {
  /// The cost of a class the unit may not enter.
  static constexpr float forbidden = std::numeric_limits<float>::infinity();
  /// Largest radius a unit may have, in cells (the clearance field is exact up to it).
  static constexpr double max_radius = 16.0;

  /// Centre-to-edge size in cells: a cell is usable when no square blocked for the unit comes
  /// closer than this to its centre. <= 0.5 is a unit that fits every free cell.
  double radius = 0;
  /// Cost multiplier of entering each class (index: the class character), >= 1, or forbidden.
  /// The wall class '@' is always blocked; its entry is ignored.
  std::array<float, 128> cost{};

  /// The default unit of the Moving AI benchmark rules: radius 0, 'T' and 'W' forbidden,
  /// every other class costs 1.
  Unit() noexcept {
    cost.fill(1.0f);
    cost['T'] = forbidden;
    cost['W'] = forbidden;
  }
  [[nodiscard]] float class_cost(char c) const noexcept {
    return c == kWallClass ? forbidden : cost[static_cast<unsigned char>(c) & 127];
  }
  [[nodiscard]] bool forbids(char c) const noexcept { return std::isinf(class_cost(c)); }
  /// Sets a class's rule (canonical_class applies), e.g. set('T', 2) or set('W', forbidden).
  Unit& set(char c, float v) noexcept {
    cost[static_cast<unsigned char>(canonical_class(c)) & 127] = v;
    return *this;
  }
  friend bool operator==(const Unit&, const Unit&) = default;
};

/// A message for a unit the grid cannot serve: radius outside [0, max_radius], a cost < 1 or NaN.
[[nodiscard]] std::optional<std::string> validate(const Unit& u);

/// Parses "C=V[,C=V...]" (the CLI's --class-cost): C a class character ('.' ground, 'S', 'T',
/// 'W', ...), V a multiplier >= 1 or 'x' (forbidden). Sets those classes in `unit`; unnamed
/// classes keep its rules. Returns a message for malformed text (and leaves `unit` as it
/// was): an empty item, no '=', a class that is not one character or is the wall '@', a value
/// that is not a number >= 1 or 'x', a class given twice.
[[nodiscard]] std::optional<std::string> parse_class_costs(std::string_view text, Unit& unit);

/// The unit's rules that differ from the default unit's, as parse_class_costs reads them
/// ("T=2,W=x"; empty for the default rules), classes in character order.
[[nodiscard]] std::string class_costs_text(const Unit& u);

/// Parses an edit as the CLI's --edit reads it: KIND:X,Y[:X2,Y2] with KIND `wall`, `free`,
/// `class=C` or `terrain=V` (the rectangle's corners in either order). Returns a message for
/// malformed text; the edit's area is not checked against a map here (Grid::check does).
[[nodiscard]] std::optional<std::string> parse_edit(std::string_view text, Edit& out);

/// Whether a unit may stand on a cell (start or end a query there), and if not, why: the first
/// reason in this order. The CLI and the Python module word the reason their own way.
enum class Footing : std::uint8_t { ok, outside, wall, forbidden_class, too_close };
[[nodiscard]] Footing footing(const Grid& g, const Unit& unit, Cell c);

/// The clearance of a cell for `unit` (its forbidden classes): the Euclidean distance from the
/// cell's centre to the nearest square blocked for the unit (a wall, a forbidden class, the
/// outside of the map), 0 for a blocked cell. Exact up to Unit::max_radius + 0.5; larger
/// distances read as that. From the grid's shared clearance field.
[[nodiscard]] double clearance(const Grid& g, const Unit& unit, Cell c);

}  // namespace pathlab::grid
