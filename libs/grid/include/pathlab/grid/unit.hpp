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
/// Grids store only canonical classes (a cell never has class 'G' or 'O'); readers of text
/// (maps, parse_class_costs, parse_edit, Grid::set_class) map the aliases through this.
[[nodiscard]] constexpr char canonical_class(char c) noexcept {
  return c == 'G' ? kGroundClass : c == 'O' ? kWallClass : c;
}

/// Who moves (see the top of this file): a radius in cells and, per terrain class, a cost
/// multiplier or forbidden. A plain value, given per query; Unit{} is the default unit.
struct Unit {
  /// The cost of a class the unit may not enter.
  static constexpr float forbidden = std::numeric_limits<float>::infinity();
  /// Largest radius a unit may have, in cells (the clearance field is exact up to it).
  static constexpr double max_radius = 16.0;

  /// Centre-to-edge size in cells: a cell is usable when no square blocked for the unit comes
  /// closer than this to its centre. <= 0.5 is a unit that fits every free cell. On hex layouts
  /// a whole number k of hexes: a cell is usable when every hex within hex distance k is not
  /// blocked (validate(unit, layout) refuses other values there).
  double radius = 0;
  /// Cost multiplier of entering each class (index: the class character as the grid stores
  /// it), >= 1, or forbidden. The wall class '@' is always blocked; its entry is ignored. The
  /// entries of the aliases 'G' and 'O' are never read either (no cell has those classes:
  /// ground is '.', walls '@'), so a table copied entry by entry, through `cost` or set(),
  /// gives a unit that behaves alike.
  std::array<float, 128> cost{};

  /// The default unit of the Moving AI benchmark rules: radius 0, 'T' and 'W' forbidden,
  /// every other class costs 1.
  Unit() noexcept {
    cost.fill(1.0f);
    cost['T'] = forbidden;
    cost['W'] = forbidden;
  }
  /// The multiplier of entering a cell of class c (canonical_class applies: 'G' reads
  /// ground's entry, 'O' and '@' are forbidden).
  [[nodiscard]] float class_cost(char c) const noexcept {
    c = canonical_class(c);
    return c == kWallClass ? forbidden : cost[static_cast<unsigned char>(c) & 127];
  }
  /// Whether the unit may not enter a cell of class c (class_cost(c) is forbidden): always true
  /// for walls, '@' and 'O'.
  [[nodiscard]] bool forbids(char c) const noexcept { return std::isinf(class_cost(c)); }
  /// Sets one entry of the table, cost[c] = v, and nothing else, e.g. set('T', 2) or
  /// set('W', forbidden): the class characters are the grid's ('.' for ground). It does not
  /// map the Moving AI aliases, so copying a table through it (for c in 0..127: u2.set(c,
  /// u.cost[c])) gives u2.cost == u.cost; set('G', v) writes the unused 'G' entry and leaves
  /// ground alone. Text in the Moving AI spelling goes through parse_class_costs ("G=2" sets
  /// ground). v is not checked here: validate() (and every query) refuses a cost < 1 or NaN.
  Unit& set(char c, float v) noexcept {
    cost[static_cast<unsigned char>(c) & 127] = v;
    return *this;
  }
  /// Same radius and every entry of `cost` equal, the unused '@', 'G' and 'O' entries too.
  friend bool operator==(const Unit&, const Unit&) = default;
};

/// A message for a unit the grid cannot serve: radius outside [0, max_radius], a cost < 1 or NaN
/// (the unused entries '@', 'G' and 'O' are not checked).
[[nodiscard]] std::optional<std::string> validate(const Unit& u);
/// validate(u), and on a hex layout a radius that is not a whole number of hexes (shared
/// docs/ALGORITHMS.md, "Hex grids": a unit of radius k >= 0 stands where every hex within hex
/// distance k is not blocked for it).
[[nodiscard]] std::optional<std::string> validate(const Unit& u, Layout l);

/// Parses "C=V[,C=V...]" (the CLI's --class-cost), e.g. "S=2,T=x,.=1.5".
///
/// - C: one printable character naming a class: '.' ground, Moving AI's 'S', 'T', 'W', or a
///   class of the user's own. The Moving AI alias 'G' names ground (it sets cost['.'], like
///   '.'); 'O' and '@' name walls and are refused.
/// - V: a multiplier from 1 to 1e9 (decimal, e.g. 2 or 1.5), or 'x' / 'X' for forbidden.
///
/// Sets those classes in `unit` (radius and unnamed classes keep their rules: start from
/// Unit{} for the default unit's, where 'T' and 'W' are forbidden). Returns a message for
/// malformed text and then leaves `unit` as it was: empty text or an empty item, no '=', a
/// class that is not one printable character or is a wall, a value that is not a number
/// from 1 to 1e9 or 'x', a class given twice ("G=2,.=3" names ground twice). class_costs_text
/// writes the same syntax back.
[[nodiscard]] std::optional<std::string> parse_class_costs(std::string_view text, Unit& unit);

/// The unit's rules that differ from the default unit's, as parse_class_costs reads them
/// ("T=2,W=x"; empty for the default rules), classes in character order.
[[nodiscard]] std::string class_costs_text(const Unit& u);

/// Parses an edit as the CLI's --edit reads it: KIND:X,Y[:X2,Y2] with KIND `wall`, `free`,
/// `class=C`, `terrain=V`, or `wall-S` / `open-S` (S one of n, e, s, w, or north, east, south,
/// west: put up or take down the wall on that side of each cell; Edit::Kind::edge_wall,
/// edge_open; on hex maps S is the direction code 0..5 of the edge, Edit::hex_side); the
/// rectangle's corners in either order. Given the map, a floor may come before the cells,
/// KIND:L:X,Y[:X2,Y2] (rows of floor L, stacked onto the grid's rows as Grid::at does; without
/// it the rows are the grid's own).
/// Returns a message for malformed text; the edit's area is not checked against a map here
/// (Grid::check does).
[[nodiscard]] std::optional<std::string> parse_edit(std::string_view text, Edit& out,
                                                    const Grid* map = nullptr);

/// Whether a unit may stand on a cell, and if not, why: the first reason in this order.
enum class Footing : std::uint8_t {
  ok,               ///< usable: a query for the unit may start or end here
  outside,          ///< not in the grid
  wall,             ///< class '@'
  forbidden_class,  ///< a class the unit forbids (the default unit: 'T', 'W')
  too_close,        ///< clearance(g, unit, c) < unit.radius: the unit does not fit
};
/// Whether `unit` may stand on cell c of g: start or end a query there, be a goal of a flow
/// field. ok exactly when the cell is passable in g.view(unit), i.e. when a query from c
/// does not answer Status::invalid_input for its start. To pick a valid start for a unit,
/// test candidate cells with footing() == Footing::ok (or, for many cells, read
/// g.view(unit)->passable(c): the same answer, one bit test each); a cell that fails says why
/// (the CLI and the Python module word the reason their own way). The walls and classes are
/// checked first, so a unit with radius > 0.5 only builds (or reuses) the grid's cached view
/// when the cell passes those. [Throws std::invalid_argument for an invalid unit (validate)
/// once the view is needed, std::bad_alloc.] Thread-safe (the view cache is); not during an
/// edit of g.
[[nodiscard]] Footing footing(const Grid& g, const Unit& unit, Cell c);

/// The clearance of cell c for `unit`: the Euclidean distance from the cell's centre to the
/// nearest square blocked for the unit (a wall, a class the unit forbids, the outside of the
/// map, at distance x + 0.5 from the left edge and so on), in cells; 0 for a blocked cell or
/// one outside the map. Only the unit's forbidden classes matter, not its radius: a unit of
/// radius r fits on an unblocked cell exactly when clearance >= r (the usable cells of
/// shared docs/ALGORITHMS.md, "Units"; a radius <= 0.5 fits every unblocked cell, since
/// every clearance is >= 0.5). Exact up to Unit::max_radius + 0.5; larger distances read as
/// that. Computed from the grid's shared clearance field (built on first use for that set
/// of forbidden classes, repaired by every edit), under the grid's cache lock: cheap for one
/// cell, not for scanning a map (use g.view(unit) for that). [Throws std::bad_alloc.]
/// Thread-safe; not during an edit of g.
[[nodiscard]] double clearance(const Grid& g, const Unit& unit, Cell c);

}  // namespace pathlab::grid
