// The algorithm registry and the heuristics' names, defaults and admissibility.
#include <pathlab/search/algorithm.hpp>

#include <array>
#include <cmath>

namespace pathlab::search {
namespace {

constexpr std::array<AlgorithmInfo, 18> kAlgorithms{{
    {Algorithm::bfs, "bfs", false, true, false, false, "breadth-first search: fewest moves"},
    {Algorithm::dfs, "dfs", false, false, false, false, "depth-first search: any path"},
    {Algorithm::iddfs, "iddfs", false, true, false, false,
     "iterative deepening DFS: fewest moves, little memory"},
    {Algorithm::bibfs, "bibfs", false, true, false, false, "bidirectional BFS: fewest moves"},
    {Algorithm::dijkstra, "dijkstra", true, false, false, false,
     "Dijkstra: least cost, no heuristic"},
    {Algorithm::greedy, "greedy", false, false, true, false, "greedy best-first: f = h"},
    {Algorithm::astar, "astar", true, false, true, false, "A*: f = g + w*h (w = 1: least cost)"},
    {Algorithm::wastar, "wastar", false, false, true, false,
     "weighted A*: f = g + w*h, cost <= w * optimal (default w = 2)"},
    {Algorithm::biastar, "biastar", true, false, true, false,
     "bidirectional A*: front-to-end, least cost"},
    {Algorithm::idastar, "idastar", true, false, true, false, "IDA*: least cost, little memory"},
    {Algorithm::theta, "theta", false, false, true, true,
     "Theta*: any-angle A*, a neighbour takes its grandparent as parent when it sees it"},
    {Algorithm::lazytheta, "lazytheta", false, false, true, true,
     "Lazy Theta*: Theta* that checks line of sight only when a cell is expanded"},
    {Algorithm::anyangle_exact, "anyangle-exact", true, false, true, true,
     "exact shortest any-angle path: A* over the visibility graph of wall corners"},
    {Algorithm::jps, "jps", true, false, true, false,
     "jump point search: A* over jump points, 64-cell block scans (unit terrain, no-corner-cut)"},
    {Algorithm::jps_plus, "jps+", true, false, true, false,
     "JPS+: jump point search over precomputed jump distances (built on first use)"},
    {Algorithm::subgoal, "subgoal", true, false, true, false,
     "two-level subgoal graph (Uras, Koenig & Hernandez 2013): A* over convex-corner subgoals "
     "(preprocessed on first use)"},
    {Algorithm::subgoal_ch, "subgoal-ch", true, false, true, false,
     "contraction hierarchy over the subgoal graph: upward A* from both ends over convex-corner "
     "subgoals and shortcuts (preprocessed on first use, on every core)"},
    {Algorithm::anyangle_labels, "anyangle-labels", true, false, true, true,
     "exact shortest any-angle path from hub labels over the wall-corner visibility graph "
     "(preprocessed on first use)"},
}};

constexpr std::array<std::string_view, 5> kHeuristics{"manhattan", "octile", "euclidean",
                                                      "chebyshev", "zero"};

}  // namespace

std::span<const AlgorithmInfo> algorithms() noexcept {
  return kAlgorithms;
}

const AlgorithmInfo& info(Algorithm a) noexcept {
  return kAlgorithms[static_cast<std::size_t>(a)];
}

std::string_view to_string(Algorithm a) noexcept {
  return info(a).name;
}

std::optional<Algorithm> parse_algorithm(std::string_view s) noexcept {
  for (const auto& a : kAlgorithms) {
    if (a.name == s) return a.algorithm;
  }
  return std::nullopt;
}

std::span<const Heuristic> heuristics() noexcept {
  static constexpr Heuristic all[] = {Heuristic::manhattan, Heuristic::octile, Heuristic::euclidean,
                                      Heuristic::chebyshev, Heuristic::zero};
  return all;
}

std::string_view to_string(Heuristic h) noexcept {
  return kHeuristics[static_cast<std::size_t>(h)];
}

std::optional<Heuristic> parse_heuristic(std::string_view s) noexcept {
  for (std::size_t i = 0; i < kHeuristics.size(); ++i) {
    if (kHeuristics[i] == s) return static_cast<Heuristic>(i);
  }
  return std::nullopt;
}

Heuristic default_heuristic(const grid::Moves& m) noexcept {
  return m.eight_connected() ? Heuristic::octile : Heuristic::manhattan;
}

bool admissible(Heuristic h, const grid::Moves& m) noexcept {
  // Manhattan overestimates a diagonal step; the others never exceed the octile distance,
  // which is the exact cost on an empty 8-neighbour grid.
  return h != Heuristic::manhattan || !m.eight_connected();
}

double heuristic_distance(Heuristic h, const grid::Moves& m, int dx, int dy) noexcept {
  dx = std::abs(dx);
  dy = std::abs(dy);
  const double s = m.straight_cost(), d = m.diagonal_cost();
  switch (h) {
    case Heuristic::manhattan:
      return s * (dx + dy);
    case Heuristic::octile:
      return s * (std::max(dx, dy) - std::min(dx, dy)) + d * std::min(dx, dy);
    case Heuristic::euclidean:
      return s * std::hypot(dx, dy);
    case Heuristic::chebyshev:
      return s * std::max(dx, dy);
    case Heuristic::zero:
      return 0;
  }
  return 0;
}

}  // namespace pathlab::search
