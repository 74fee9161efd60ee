// The flow-field targets (issue 15), on Moving AI's AR0011SR (512x512, 115,000 usable cells):
//   FullField   — the whole integration and direction field of one goal, line-of-sight pass
//                 included;
//   Dijkstra    — pathlab's own Dijkstra expanding the whole map from the same goal (the
//                 movement range with no budget), the yardstick the field must beat 3x;
//   Repair      — one cell toggled wall <-> free, the field repaired in place.
// Build with -DPATHLAB_BUILD_BENCH=ON; run build/bench/pathlab_flow_bench.
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>

#include <pathlab/flow/field.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab {
namespace {

const grid::Grid* ar0011sr(benchmark::State& state) {
  static const std::optional<grid::Grid> g = []() -> std::optional<grid::Grid> {
    const std::string path = std::string(PATHLAB_SHARED_DIR) + "/benchmarks/movingai/AR0011SR.map";
    if (!std::filesystem::exists(path)) return std::nullopt;
    return io::load_map(path).grid;
  }();
  if (!g) state.SkipWithError("../shared/benchmarks/movingai/AR0011SR.map is missing");
  return g ? &*g : nullptr;
}

/// A usable cell near the middle of the map: the goal.
Cell middle(const grid::Grid& g) {
  for (int r = 0;; ++r) {
    for (int dy = -r; dy <= r; ++dy) {
      for (int dx = -r; dx <= r; ++dx) {
        const Cell c{g.width() / 2 + dx, g.height() / 2 + dy};
        if (g.passable(c)) return c;
      }
    }
  }
}

void BM_FullField(benchmark::State& state) {
  const grid::Grid* g = ar0011sr(state);
  if (!g) return;
  const Cell goal = middle(*g);
  flow::Field f;
  for (auto _ : state) {
    auto err = f.build(*g, std::span<const Cell>(&goal, 1), flow::Options{});
    benchmark::DoNotOptimize(err);
  }
  state.counters["settled"] = static_cast<double>(f.stats().settled);
}

void BM_Dijkstra(benchmark::State& state) {
  const grid::Grid* g = ar0011sr(state);
  if (!g) return;
  const Cell goal = middle(*g);
  // The movement range with an unbounded budget: Dijkstra expanding every cell it can reach.
  search::Options o;
  o.algorithm = search::Algorithm::dijkstra;
  search::Pathfinder finder(*g, o);
  std::vector<search::ReachCell> cells;
  for (auto _ : state) {
    const Status st = finder.reach(goal, 1e18, cells);
    benchmark::DoNotOptimize(st);
  }
  state.counters["expanded"] = static_cast<double>(cells.size());
}

void BM_DijkstraQuery(benchmark::State& state) {
  const grid::Grid* g = ar0011sr(state);
  if (!g) return;
  const Cell goal = middle(*g);
  // A query to a free cell of another component: Dijkstra expands every cell it can reach,
  // then fails.
  flow::Field f;
  if (f.build(*g, std::span<const Cell>(&goal, 1), flow::Options{})) return;
  Cell away{-1, -1};
  for (int y = 0; y < g->height() && away.x < 0; ++y) {
    for (int x = 0; x < g->width(); ++x) {
      if (g->passable(x, y) && std::isinf(f.distance({x, y}))) {
        away = {x, y};
        break;
      }
    }
  }
  if (away.x < 0) {
    state.SkipWithError("AR0011SR has one component here");
    return;
  }
  search::Options o;
  o.algorithm = search::Algorithm::dijkstra;
  search::Pathfinder finder(*g, o);
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    const search::Result r = finder.find(goal, away);
    expanded = r.stats.expanded;
    benchmark::DoNotOptimize(r.status);
  }
  state.counters["expanded"] = static_cast<double>(expanded);
}

void BM_Repair(benchmark::State& state) {
  const grid::Grid* base = ar0011sr(state);
  if (!base) return;
  grid::Grid g = *base;
  const Cell goal = middle(g);
  flow::Field f;
  if (f.build(g, std::span<const Cell>(&goal, 1), flow::Options{})) return;
  std::uint32_t seed = 1;
  double settled = 0;
  for (auto _ : state) {
    seed = seed * 1664525u + 1013904223u;
    const Cell c{static_cast<int>(seed % 512u), static_cast<int>((seed >> 9) % 512u)};
    if (c == goal) continue;
    grid::Edit e;
    e.kind = g.passable(c) ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
    e.area = {c.x, c.y, c.x, c.y};
    (void)g.apply(e);
    const flow::Stats s = f.update(g);
    settled += static_cast<double>(s.settled);
  }
  state.counters["settled"] = benchmark::Counter(settled, benchmark::Counter::kAvgIterations);
}

BENCHMARK(BM_FullField)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dijkstra)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DijkstraQuery)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Repair)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace pathlab
