// The flow-field targets (issue 15), on Moving AI's AR0011SR (512x512, 115,000 usable cells):
//   FullField   — the whole integration and direction field of one goal, line-of-sight pass
//                 included;
//   Dijkstra    — pathlab's own Dijkstra expanding the whole map from the same goal (the
//                 movement range with no budget), the yardstick the field must beat 3x;
//   Repair      — one cell toggled wall <-> free, the field repaired in place;
//   Sectors4096 — one group's sectored field on a 4096x4096 map with 20 % random walls.
// Build with -DPATHLAB_BUILD_BENCH=ON; run build/bench/pathlab_flow_bench.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
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

/// 4096x4096, 20 % of the cells walls at random (seeded): the big map of the sector target.
const grid::Grid& big_random() {
  static const grid::Grid g = [] {
    grid::Grid out(4096, 4096);
    std::uint64_t x = 88172645463325252ull;
    for (int y = 0; y < 4096; ++y) {
      for (int c = 0; c < 4096; ++c) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x % 5 == 0) out.set_blocked(c, y, true);
      }
    }
    return out;
  }();
  return g;
}

/// Moving AI's Boston_0_1024 scaled 4x: a 4096x4096 city map (streets, parks, blocks), the big
/// map as a game would have it; nullptr when ../shared is absent.
const grid::Grid* big_city() {
  static const std::optional<grid::Grid> g = []() -> std::optional<grid::Grid> {
    const std::string path =
        std::string(PATHLAB_SHARED_DIR) + "/benchmarks/movingai/Boston_0_1024.map";
    if (!std::filesystem::exists(path)) return std::nullopt;
    const grid::Grid small = io::load_map(path).grid;
    grid::Grid out(small.width() * 4, small.height() * 4);
    for (int y = 0; y < out.height(); ++y) {
      for (int x = 0; x < out.width(); ++x) {
        if (!small.passable(x / 4, y / 4)) out.set_blocked(x, y, true);
      }
    }
    return out;
  }();
  return g ? &*g : nullptr;
}

/// A group of 100 units in a 10x10 block near (x, y), on free cells.
std::vector<Cell> group_near(const grid::Grid& g, int x, int y) {
  std::vector<Cell> out;
  for (int dy = 0; dy < 20 && out.size() < 100; ++dy) {
    for (int dx = 0; dx < 20 && out.size() < 100; ++dx) {
      if (g.passable(x + dx, y + dy)) out.push_back({x + dx, y + dy});
    }
  }
  return out;
}

// One group's field on the 4096x4096 map, sectors on the way only: the group in one corner
// region, the goal `range` cells away diagonally. Counters: sectors built and labelled, corridor
// cells, and the group's mean distance over the whole-map optimum (1 = as short). Second
// argument: the corridor widened (1) or the way alone (0).
void sectors_4096(benchmark::State& state, const grid::Grid& g) {
  const int range = static_cast<int>(state.range(0));
  const bool widen = state.range(1) != 0;
  Cell from{40, 40};
  while (!g.passable(from)) ++from.x;
  const std::vector<Cell> group = group_near(g, from.x, from.y);
  Cell goal{40 + range, 40 + range};
  while (!g.passable(goal)) ++goal.x;
  flow::SectorField f;
  for (auto _ : state) {
    f = flow::SectorField{};
    if (f.build(g, std::span<const Cell>(&goal, 1), flow::Options{},
                flow::SectorField::kDefaultSector, widen)) {
      return;
    }
    f.require(group);
  }
  const auto built = f.sectors_built();
  state.counters["sectors"] = static_cast<double>(std::count(built.begin(), built.end(), 1));
  state.counters["labelled"] = static_cast<double>(f.sectors_labelled());
  state.counters["cells"] = static_cast<double>(f.corridor_cells());
  // The price of the corridor: the group's distances against the whole map's (one Field).
  flow::Field whole;
  if (whole.build(g, std::span<const Cell>(&goal, 1), flow::Options{})) return;
  double ratio = 0;
  int n = 0;
  for (const Cell c : group) {
    if (!std::isfinite(whole.distance(c)) || whole.distance(c) == 0) continue;
    ratio += f.distance(c) / whole.distance(c);
    ++n;
  }
  state.counters["vs_optimum"] = n ? ratio / n : 0;
  state.counters["whole_ms"] = whole.stats().time_us / 1000;
}

void BM_Sectors4096(benchmark::State& state) {
  sectors_4096(state, big_random());
}

// The same on the city map.
void BM_SectorsCity(benchmark::State& state) {
  const grid::Grid* g = big_city();
  if (!g) {
    state.SkipWithError("../shared/benchmarks/movingai/Boston_0_1024.map is missing");
    return;
  }
  sectors_4096(state, *g);
}

/// Goal 1,000 or 4,000 cells away, the way alone (0) or widened (1).
void sector_cases(benchmark::internal::Benchmark* b) {
  b->Args({1000, 0})->Args({1000, 1})->Args({4000, 0})->Args({4000, 1});
  b->Unit(benchmark::kMillisecond)->Iterations(5);
}
BENCHMARK(BM_SectorsCity)->Apply(sector_cases);
BENCHMARK(BM_Sectors4096)->Apply(sector_cases);
BENCHMARK(BM_FullField)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dijkstra)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DijkstraQuery)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Repair)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace pathlab
