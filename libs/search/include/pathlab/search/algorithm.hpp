// The algorithm and heuristic registry: names as the CLI contract spells them, what each
// guarantees (optimal cost, fewest moves), and the heuristics of shared docs/ALGORITHMS.md.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <pathlab/grid/moves.hpp>

namespace pathlab::search {

enum class Algorithm : std::uint8_t {
  bfs,
  dfs,
  iddfs,
  bibfs,
  dijkstra,
  greedy,
  astar,
  wastar,
  biastar,
  idastar,
  theta,
  lazytheta,
  anyangle_exact,
  // Appended (not inserted) so that the values above keep their numbers.
  jps,         ///< "jps"
  jps_plus,    ///< "jps+"
  subgoal,     ///< "subgoal": two-level subgoal graph
  subgoal_ch,  ///< "subgoal-ch": contraction hierarchy over the subgoal graph
};

enum class Heuristic : std::uint8_t { manhattan, octile, euclidean, chebyshev, zero };

/// What the registry knows of one algorithm (algorithms(), info()).
struct AlgorithmInfo {
  Algorithm algorithm;    ///< the algorithm described
  std::string_view name;  ///< its name as the CLI spells it, e.g. "jps+"; a static string
  bool optimal;           ///< least cost (with weight 1 and an admissible heuristic)
  bool fewest_moves;      ///< fewest moves (unit-cost searches)
  bool informed;          ///< uses the heuristic
  bool any_angle;  ///< path = turning points joined by straight segments, cost = their length
  std::string_view summary;  ///< one line on what it does and guarantees; a static string
};

[[nodiscard]] std::span<const AlgorithmInfo> algorithms() noexcept;
[[nodiscard]] const AlgorithmInfo& info(Algorithm a) noexcept;
[[nodiscard]] std::string_view to_string(Algorithm a) noexcept;
[[nodiscard]] std::optional<Algorithm> parse_algorithm(std::string_view s) noexcept;

/// Every heuristic, in the order of the enum.
[[nodiscard]] std::span<const Heuristic> heuristics() noexcept;
[[nodiscard]] std::string_view to_string(Heuristic h) noexcept;
[[nodiscard]] std::optional<Heuristic> parse_heuristic(std::string_view s) noexcept;
/// Octile for 8-neighbour moves, Manhattan for 4-neighbour moves.
[[nodiscard]] Heuristic default_heuristic(const grid::Moves& m) noexcept;
/// Whether h never overestimates under these moves (terrain costs are >= 1, so they keep it).
[[nodiscard]] bool admissible(Heuristic h, const grid::Moves& m) noexcept;

/// Heuristic distance between (x1,y1) and (x2,y2), scaled by the cost model.
[[nodiscard]] double heuristic_distance(Heuristic h, const grid::Moves& m, int dx, int dy) noexcept;

}  // namespace pathlab::search
