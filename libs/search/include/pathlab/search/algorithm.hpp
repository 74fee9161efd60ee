// The algorithm and heuristic registry: names as the CLI contract spells them, what each
// guarantees (optimal cost, fewest moves), and the heuristics of shared docs/ALGORITHMS.md.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <pathlab/grid/moves.hpp>

namespace pathlab::search {

/// A search algorithm; each enumerator's comment starts with its CLI name (to_string()).
enum class Algorithm : std::uint8_t {
  bfs,             ///< "bfs": breadth-first search, fewest moves
  dfs,             ///< "dfs": depth-first search, any path
  iddfs,           ///< "iddfs": iterative deepening DFS, fewest moves in little memory
  bibfs,           ///< "bibfs": bidirectional BFS, fewest moves
  dijkstra,        ///< "dijkstra": Dijkstra, least cost without a heuristic
  greedy,          ///< "greedy": greedy best-first, f = h
  astar,           ///< "astar": A*, f = g + w·h (least cost with w = 1)
  wastar,          ///< "wastar": weighted A*, cost <= w · optimal (w = 2 by default)
  biastar,         ///< "biastar": bidirectional front-to-end A*, least cost
  idastar,         ///< "idastar": IDA*, least cost in little memory
  theta,           ///< "theta": Theta*, any-angle A* (a cell takes its grandparent if it sees it)
  lazytheta,       ///< "lazytheta": Lazy Theta*, line of sight checked only on expansion
  anyangle_exact,  ///< "anyangle-exact": shortest any-angle path over wall-corner visibility
  // Appended (not inserted) so that the values above keep their numbers.
  jps,              ///< "jps": jump point search, A* over jump points
  jps_plus,         ///< "jps+": JPS over precomputed jump distances
  subgoal,          ///< "subgoal": two-level subgoal graph
  subgoal_ch,       ///< "subgoal-ch": contraction hierarchy over the subgoal graph
  anyangle_labels,  ///< "anyangle-labels": anyangle-exact's paths from hub labels (preprocessed)
};

/// An estimate of the remaining cost, scaled by the cost model (heuristic_distance()).
enum class Heuristic : std::uint8_t {
  manhattan,  ///< dx + dy straight steps (admissible only for 4-neighbour moves)
  octile,     ///< max - min straight steps plus min diagonal steps (8-neighbour default)
  euclidean,  ///< the straight-line distance sqrt(dx² + dy²) in straight steps
  chebyshev,  ///< max(dx, dy) straight steps
  zero        ///< always 0 (A* with it explores as Dijkstra does)
};

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

/// Every algorithm's AlgorithmInfo, in the order of the enum (a static table).
[[nodiscard]] std::span<const AlgorithmInfo> algorithms() noexcept;
/// The registry's entry for a. [Limit: a is one of the enumerators]
[[nodiscard]] const AlgorithmInfo& info(Algorithm a) noexcept;
/// The algorithm's CLI name, info(a).name: "astar", "jps+", "anyangle-exact"...
[[nodiscard]] std::string_view to_string(Algorithm a) noexcept;
/// The algorithm whose CLI name is exactly s (as to_string() spells it); nullopt for any other
/// text.
[[nodiscard]] std::optional<Algorithm> parse_algorithm(std::string_view s) noexcept;

/// Every heuristic, in the order of the enum.
[[nodiscard]] std::span<const Heuristic> heuristics() noexcept;
/// The heuristic's name: "manhattan", "octile", "euclidean", "chebyshev" or "zero".
[[nodiscard]] std::string_view to_string(Heuristic h) noexcept;
/// The heuristic named exactly as to_string() spells it; nullopt for any other text.
[[nodiscard]] std::optional<Heuristic> parse_heuristic(std::string_view s) noexcept;
/// Octile for 8-neighbour moves, Manhattan for 4-neighbour moves.
[[nodiscard]] Heuristic default_heuristic(const grid::Moves& m) noexcept;
/// Whether h never overestimates under these moves (terrain costs are >= 1, so they keep it).
[[nodiscard]] bool admissible(Heuristic h, const grid::Moves& m) noexcept;

/// Heuristic distance between (x1,y1) and (x2,y2), scaled by the cost model.
[[nodiscard]] double heuristic_distance(Heuristic h, const grid::Moves& m, int dx, int dy) noexcept;

}  // namespace pathlab::search
