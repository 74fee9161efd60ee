// Property tests of the search family on random grids with random terrain, under every
// diagonal rule and cost model (shared docs/ALGORITHMS.md): optimal algorithms match an
// independent Dijkstra, every path is legal and its cost recomputes, weighted A* stays within
// w * optimal, the unit-cost searches find the fewest moves, and traces replay to the path.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/search/pathfinder.hpp>

#include "test_grids.hpp"

using namespace pathlab;
using namespace pathlab::testing;
using search::Algorithm;

namespace {

struct SearchCase {
  grid::Grid grid;
  grid::Moves moves;
  Cell start, goal;
};

/// Draws a random grid (up to 24x24), moves, and start/goal on free cells.
SearchCase draw_case(bool terrain) {
  const int w = *rc::gen::inRange(1, 25);
  const int h = *rc::gen::inRange(1, 25);
  const int walls = *rc::gen::inRange(0, 45);
  const auto seed = *rc::gen::arbitrary<std::uint32_t>();
  const auto mi = *rc::gen::inRange<std::size_t>(0, std::size(kAllMoves));
  SearchCase c{random_grid(seed, w, h, walls, terrain), kAllMoves[mi], {}, {}};
  const auto cells = passable_cells(c.grid);
  RC_PRE(!cells.empty());
  c.start = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  c.goal = cells[*rc::gen::inRange<std::size_t>(0, cells.size())];
  return c;
}

search::Result solve(const SearchCase& c, Algorithm a, std::optional<search::Heuristic> h = {},
                     std::optional<double> w = {}, search::SearchListener* l = nullptr) {
  search::Options o;
  o.algorithm = a;
  o.moves = c.moves;
  o.heuristic = h;
  o.weight = w;
  search::Pathfinder f(c.grid, o);
  return f.find(c.start, c.goal, l);
}

void expect_legal(const SearchCase& c, const search::Result& r) {
  RC_ASSERT(r.status == Status::found);
  RC_ASSERT(!grid::check_path(c.grid, c.moves, r.path).has_value());
  RC_ASSERT(r.path.front() == c.start);
  RC_ASSERT(r.path.back() == c.goal);
  RC_ASSERT(pathlab::testing::near(r.cost, grid::path_cost(c.grid, c.moves, r.path)));
}

constexpr Algorithm kAll[] = {
    Algorithm::bfs,    Algorithm::dfs,   Algorithm::iddfs,  Algorithm::bibfs,   Algorithm::dijkstra,
    Algorithm::greedy, Algorithm::astar, Algorithm::wastar, Algorithm::biastar, Algorithm::idastar};
constexpr Algorithm kOptimal[] = {Algorithm::dijkstra, Algorithm::astar, Algorithm::biastar,
                                  Algorithm::idastar};

}  // namespace

RC_GTEST_PROP(SearchProperty, OptimalAlgorithmsMatchReferenceDijkstra, ()) {
  const SearchCase c = draw_case(*rc::gen::arbitrary<bool>());
  const auto ref = reference_distances(c.grid, c.moves, c.start);
  const double opt = dist_at(ref, c.grid, c.goal);
  for (Algorithm a : kOptimal) {
    const auto r = solve(c, a);
    if (std::isinf(opt)) {
      RC_ASSERT(r.status == Status::no_path);
      continue;
    }
    expect_legal(c, r);
    RC_ASSERT(pathlab::testing::near(r.cost, opt));
  }
}

RC_GTEST_PROP(SearchProperty, EveryAdmissibleHeuristicKeepsAStarOptimal, ()) {
  const SearchCase c = draw_case(true);
  const auto ref = reference_distances(c.grid, c.moves, c.start);
  const double opt = dist_at(ref, c.grid, c.goal);
  RC_PRE(!std::isinf(opt));
  for (auto h :
       {search::Heuristic::manhattan, search::Heuristic::octile, search::Heuristic::euclidean,
        search::Heuristic::chebyshev, search::Heuristic::zero}) {
    if (!search::admissible(h, c.moves)) continue;
    for (Algorithm a : {Algorithm::astar, Algorithm::biastar, Algorithm::idastar}) {
      const auto r = solve(c, a, h);
      expect_legal(c, r);
      RC_ASSERT(pathlab::testing::near(r.cost, opt));
    }
  }
}

RC_GTEST_PROP(SearchProperty, EveryAlgorithmReturnsALegalPathWithItsCost, ()) {
  const SearchCase c = draw_case(true);
  const auto ref = reference_distances(c.grid, c.moves, c.start);
  const bool reachable = !std::isinf(dist_at(ref, c.grid, c.goal));
  for (Algorithm a : kAll) {
    const auto r = solve(c, a);
    if (!reachable) {
      RC_ASSERT(r.status == Status::no_path);
      RC_ASSERT(r.path.empty());
    } else {
      expect_legal(c, r);
    }
  }
}

RC_GTEST_PROP(SearchProperty, WeightedAStarWithinWeightTimesOptimal, ()) {
  const SearchCase c = draw_case(true);
  const double opt = dist_at(reference_distances(c.grid, c.moves, c.start), c.grid, c.goal);
  RC_PRE(!std::isinf(opt));
  const double w = *rc::gen::element(1.0, 1.25, 1.5, 2.0, 3.0, 5.0);
  for (Algorithm a : {Algorithm::wastar, Algorithm::astar}) {
    const auto r = solve(c, a, std::nullopt, w);
    expect_legal(c, r);
    RC_ASSERT(r.cost <= w * opt + 1e-9);
  }
}

RC_GTEST_PROP(SearchProperty, UnitCostSearchesFindFewestMoves, ()) {
  const SearchCase c = draw_case(false);
  const double fewest =
      dist_at(reference_distances(c.grid, c.moves, c.start, true), c.grid, c.goal);
  RC_PRE(!std::isinf(fewest));
  for (Algorithm a : {Algorithm::bfs, Algorithm::iddfs, Algorithm::bibfs}) {
    const auto r = solve(c, a);
    expect_legal(c, r);
    RC_ASSERT(static_cast<double>(r.moves()) == fewest);
  }
}

RC_GTEST_PROP(SearchProperty, UnreachableGoalVisitsOnlyTheComponents, ()) {
  // Split the grid with a full wall column so the two halves cannot meet.
  SearchCase c = draw_case(true);
  RC_PRE(c.grid.width() >= 3);
  const int wall_x = *rc::gen::inRange(1, c.grid.width() - 1);
  for (int y = 0; y < c.grid.height(); ++y) c.grid.set_blocked(wall_x, y, true);
  const auto cells = passable_cells(c.grid);
  std::vector<Cell> left, right;
  for (Cell x : cells) (x.x < wall_x ? left : right).push_back(x);
  RC_PRE(!left.empty() && !right.empty());
  c.start = left[*rc::gen::inRange<std::size_t>(0, left.size())];
  c.goal = right[*rc::gen::inRange<std::size_t>(0, right.size())];
  const auto from_start = reference_distances(c.grid, c.moves, c.start, true);
  const auto from_goal = reference_distances(c.grid, c.moves, c.goal, true);
  for (Algorithm a : kAll) {
    search::TraceRecorder rec;
    const auto r = solve(c, a, std::nullopt, std::nullopt, &rec);
    RC_LOG() << search::to_string(a) << " status " << to_string(r.status) << " expanded "
             << r.stats.expanded << "\n";
    RC_ASSERT(r.status == Status::no_path);
    const bool bidirectional = a == Algorithm::bibfs || a == Algorithm::biastar;
    for (const auto& e : rec.events()) {
      if (e.type != search::EventType::opened && e.type != search::EventType::closed) continue;
      const bool in_start = !std::isinf(dist_at(from_start, c.grid, e.cell));
      const bool in_goal = !std::isinf(dist_at(from_goal, c.grid, e.cell));
      RC_ASSERT(in_start || (bidirectional && in_goal));
    }
  }
}

RC_GTEST_PROP(SearchProperty, TraceReplaysToTheReturnedPath, ()) {
  const SearchCase c = draw_case(true);
  for (Algorithm a : kAll) {
    search::TraceRecorder rec;
    const auto r = solve(c, a, std::nullopt, std::nullopt, &rec);
    const auto plain = solve(c, a);
    // Tracing never changes the result.
    RC_ASSERT(r.status == plain.status);
    RC_ASSERT(r.path == plain.path);
    RC_ASSERT(r.stats.expanded == plain.stats.expanded);
    if (r.status != Status::found) continue;
    const auto replayed = search::replay_path(rec.events(), c.start, c.goal);
    RC_ASSERT(replayed.has_value());
    RC_ASSERT(*replayed == r.path);
    // Every expansion is announced once per side, and only for generated cells.
    std::size_t closed = 0;
    for (const auto& e : rec.events()) closed += e.type == search::EventType::closed;
    RC_ASSERT(closed == r.stats.expanded);
  }
}
