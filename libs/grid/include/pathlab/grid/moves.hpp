// Movement rules on a grid: which diagonal moves are legal (as in PathFinding.js), what a step
// costs (Moving AI: 1 and sqrt(2), or the users' integer 10 and 14), neighbour iteration and
// path validation. Definitions: shared docs/ALGORITHMS.md, "Grid moves and costs".
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <pathlab/grid/grid.hpp>

namespace pathlab::grid {

/// Which diagonal steps are legal (the rules of PathFinding.js).
enum class DiagonalRule : std::uint8_t {
  never,          ///< no diagonal steps: 4-neighbour moves
  no_corner_cut,  ///< a diagonal step needs both orthogonal cells free (Moving AI; the default)
  one_corner,     ///< a diagonal step needs at least one of the orthogonal cells free
  always          ///< a diagonal step needs only its target cell free
};
/// What a step costs before terrain.
enum class CostModel : std::uint8_t {
  octile,  ///< 1 straight, sqrt 2 diagonal (Moving AI; the default)
  integer  ///< 10 straight, 14 diagonal (the users' integer costs)
};

/// The rule's name as the CLI spells it: "never", "no-corner-cut", "one-corner" or "always"
/// ("?" for a value outside the enum).
[[nodiscard]] std::string_view to_string(DiagonalRule r) noexcept;
/// The cost model's name: "octile" or "integer".
[[nodiscard]] std::string_view to_string(CostModel m) noexcept;
/// The rule named exactly as to_string() spells it; nullopt for any other text.
[[nodiscard]] std::optional<DiagonalRule> parse_diagonal_rule(std::string_view s) noexcept;
/// The cost model named "octile" or "integer"; nullopt for any other text.
[[nodiscard]] std::optional<CostModel> parse_cost_model(std::string_view s) noexcept;

/// How a path may move on the grid: which diagonal steps are legal and what a step costs.
struct Moves {
  /// Which diagonal steps are legal; by default Moving AI's rule, no corner cutting.
  DiagonalRule diagonal = DiagonalRule::no_corner_cut;
  /// What a step costs: octile (1 and sqrt 2, the default) or integer (10 and 14).
  CostModel cost_model = CostModel::octile;

  /// The cost of a straight step before terrain: 1 (octile) or 10 (integer).
  [[nodiscard]] double straight_cost() const noexcept {
    return cost_model == CostModel::integer ? 10.0 : 1.0;
  }
  /// The cost of a diagonal step before terrain: sqrt 2 (octile) or 14 (integer).
  [[nodiscard]] double diagonal_cost() const noexcept {
    return cost_model == CostModel::integer ? 14.0 : 1.4142135623730951;
  }
  /// Whether diagonal steps exist at all (every rule but DiagonalRule::never).
  [[nodiscard]] bool eight_connected() const noexcept { return diagonal != DiagonalRule::never; }
};

// The eight directions: 0..3 straight (N, E, S, W), 4..7 diagonal (NE, SE, SW, NW).

/// The column step of each direction 0..7 (N, E, S, W, NE, SE, SW, NW): -1, 0 or +1.
inline constexpr std::array<int, 8> kDx = {0, 1, 0, -1, 1, 1, -1, -1};
/// The row step of each direction 0..7 (N, E, S, W, NE, SE, SW, NW): -1 (up), 0 or +1.
inline constexpr std::array<int, 8> kDy = {-1, 0, 1, 0, -1, 1, 1, -1};

/// Calls f(neighbour_id, direction) for every legal move out of passable node n, direction
/// indexing kDx/kDy (0..3 straight N, E, S, W; 4..7 diagonal NE, SE, SW, NW). No bounds
/// checks: the padding reads as walls. The rules are symmetric, so the same iteration gives
/// the predecessors of n for backward searches.
template <DiagonalRule R, class F>
inline void for_each_neighbour(const Grid& g, NodeId n, F&& f) {
  const std::int32_t s = g.stride();
  const NodeId up = n - s, down = n + s, left = n - 1, right = n + 1;
  const bool pu = g.passable_id(up), pr = g.passable_id(right);
  const bool pd = g.passable_id(down), pl = g.passable_id(left);
  if (pu) f(up, 0);
  if (pr) f(right, 1);
  if (pd) f(down, 2);
  if (pl) f(left, 3);
  if constexpr (R != DiagonalRule::never) {
    auto ok = [](bool a, bool b) {
      if constexpr (R == DiagonalRule::no_corner_cut) return a && b;
      if constexpr (R == DiagonalRule::one_corner) return a || b;
      return true;
    };
    if (ok(pr, pu) && g.passable_id(up + 1)) f(up + 1, 4);
    if (ok(pr, pd) && g.passable_id(down + 1)) f(down + 1, 5);
    if (ok(pl, pd) && g.passable_id(down - 1)) f(down - 1, 6);
    if (ok(pl, pu) && g.passable_id(up - 1)) f(up - 1, 7);
  }
}

/// Runtime dispatch on the rule: calls body(std::integral_constant<DiagonalRule, R>{}).
template <class Body>
inline decltype(auto) dispatch_rule(DiagonalRule r, Body&& body) {
  switch (r) {
    case DiagonalRule::never:
      return body(std::integral_constant<DiagonalRule, DiagonalRule::never>{});
    case DiagonalRule::one_corner:
      return body(std::integral_constant<DiagonalRule, DiagonalRule::one_corner>{});
    case DiagonalRule::always:
      return body(std::integral_constant<DiagonalRule, DiagonalRule::always>{});
    case DiagonalRule::no_corner_cut:
    default:
      return body(std::integral_constant<DiagonalRule, DiagonalRule::no_corner_cut>{});
  }
}

/// Whether a single step a -> b is legal: both cells passable, 4/8-adjacent, and the
/// diagonal rule obeyed.
[[nodiscard]] bool step_legal(const Grid& g, const Moves& m, Cell a, Cell b) noexcept;

/// Cost of the legal step a -> b: base cost times the terrain of b.
[[nodiscard]] double step_cost(const Grid& g, const Moves& m, Cell a, Cell b) noexcept;

/// Checks a grid path: non-empty, every step legal. On failure returns a description of the
/// first problem; std::nullopt means the path is legal.
[[nodiscard]] std::optional<std::string> check_path(const Grid& g, const Moves& m,
                                                    std::span<const Cell> path);

/// Sum of step costs along a (legal) path.
[[nodiscard]] double path_cost(const Grid& g, const Moves& m, std::span<const Cell> path) noexcept;

}  // namespace pathlab::grid
