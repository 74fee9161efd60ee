// The C ABI's cost per query (issue 28's target: pathlab_find within 0.5 µs of the C++
// Pathfinder::find). The same finder options, the same den520d map and the same loop of short
// Moving AI queries (buckets 0 and 1: optimal length under 8) run through both; one iteration
// runs every query, and the counter time_per_query is the time per query (Google Benchmark prints
// it with its unit). Their difference is what the C layer adds: the argument checks, the result's
// fields and the path copied into the finder's int32 buffer.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include <pathlab/pathlab.h>
#include <pathlab/bench/bench.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/search/batch.hpp>
#include <pathlab/search/pathfinder.hpp>

using namespace pathlab;

namespace {

const std::string kScen = std::string(PATHLAB_SHARED_DIR) + "/benchmarks/movingai/den520d.map.scen";
const std::string kMap = std::string(PATHLAB_SHARED_DIR) + "/benchmarks/movingai/den520d.map";

struct Fixture {
  bench::LoadedScenario sc;
  std::vector<search::Query> queries;
};

const Fixture* fixture_or_skip(benchmark::State& state) {
  static std::unique_ptr<Fixture> f;
  if (!f) {
    try {
      f = std::make_unique<Fixture>(Fixture{bench::load_scenario(kScen, 0), {}});
    } catch (const ParseError& e) {
      state.SkipWithError(e.what());
      return nullptr;
    }
    for (const auto& e : f->sc.file.entries)
      if (e.bucket <= 1) f->queries.push_back({e.start, e.goal});
  }
  return f.get();
}

void report(benchmark::State& state, std::size_t queries) {
  state.counters["time_per_query"] =
      benchmark::Counter(static_cast<double>(state.iterations() * queries),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * queries));
}

const char* name_of(int algorithm) {
  return algorithm == 0 ? "astar" : "jps+";
}

void BM_CppFind(benchmark::State& state) {
  const Fixture* f = fixture_or_skip(state);
  if (!f) return;
  search::Options o;
  o.algorithm = *search::parse_algorithm(name_of(static_cast<int>(state.range(0))));
  search::Pathfinder finder(f->sc.grid, o);
  search::Result r;
  double total = 0;
  for (auto _ : state) {
    for (const auto& q : f->queries) {
      finder.find(q.start, q.goal, r);
      total += r.cost;
    }
  }
  benchmark::DoNotOptimize(total);
  report(state, f->queries.size());
}

void BM_CFind(benchmark::State& state) {
  const Fixture* f = fixture_or_skip(state);
  if (!f) return;
  pathlab_grid* g = nullptr;
  if (pathlab_grid_load(kMap.c_str(), &g) != PATHLAB_OK) {
    state.SkipWithError(pathlab_last_error());
    return;
  }
  pathlab_options o{};
  o.algorithm = name_of(static_cast<int>(state.range(0)));
  pathlab_finder* finder = nullptr;
  if (pathlab_finder_new(g, &o, &finder) != PATHLAB_OK) {
    state.SkipWithError(pathlab_last_error());
    pathlab_grid_free(g);
    return;
  }
  pathlab_result r;
  double total = 0;
  for (auto _ : state) {
    for (const auto& q : f->queries) {
      pathlab_find(finder, q.start.x, q.start.y, q.goal.x, q.goal.y, &r);
      total += r.cost;
    }
  }
  benchmark::DoNotOptimize(total);
  report(state, f->queries.size());
  pathlab_finder_free(finder);
  pathlab_grid_free(g);
}

}  // namespace

// Argument 0: astar, 1: jps+ (the shortest searches, where the layer's share is largest).
BENCHMARK(BM_CppFind)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CFind)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
