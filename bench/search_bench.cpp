// Optimal grid search on a fixed sample of Moving AI scenarios (issue 7): every optimal,
// non-any-angle algorithm of search::algorithms() (so new ones are picked up) on den520d,
// brc202d, Aurora and maze512-1-0, 50 queries each spread evenly over the .scen file. One
// iteration runs the 50 queries; counters give µs per query, expansions per query and per
// second (CPU time). Setup (untimed) loads the map, prepares jps+ and checks every cost against the
// optimum.
#include <benchmark/benchmark.h>

#include <pathlab/bench/bench.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace pathlab;

namespace {

constexpr std::size_t kQueries = 50;
const char* const kMaps[] = {"den520d", "brc202d", "Aurora", "maze512-1-0"};

std::string movingai_dir() {
  return std::string(PATHLAB_SHARED_DIR) + "/benchmarks/movingai";
}

/// Loaded once per map, on first use (listing the benchmarks loads nothing).
const bench::LoadedScenario& scenario(const std::string& map) {
  static std::map<std::string, std::unique_ptr<bench::LoadedScenario>> cache;
  auto& slot = cache[map];
  if (!slot) {
    slot = std::make_unique<bench::LoadedScenario>(
        bench::load_scenario(movingai_dir() + "/" + map + ".map.scen", kQueries));
  }
  return *slot;
}

void run_queries(benchmark::State& state, search::Algorithm algo, const std::string& map) {
  const bench::LoadedScenario* sc = nullptr;
  try {
    sc = &scenario(map);
  } catch (const ParseError& e) {
    state.SkipWithError(e.what());
    return;
  }
  search::Options o;
  o.algorithm = algo;
  search::Pathfinder finder(sc->grid, o);
  if (search::uses_preparation(algo)) (void)search::prepare(finder);
  search::Result r;
  // Warm-up and verification: every query once, untimed.
  for (const std::size_t i : sc->selected) {
    const io::ScenarioEntry& e = sc->file.entries[i];
    if (finder.find(e.start, e.goal, r) != Status::found ||
        !bench::within_tolerance(r.cost, e.optimal)) {
      state.SkipWithError(
          ("wrong cost on " + sc->file.path + ":" + std::to_string(e.line)).c_str());
      return;
    }
  }
  double expanded = 0, query_us = 0;
  for (auto _ : state) {
    for (const std::size_t i : sc->selected) {
      const io::ScenarioEntry& e = sc->file.entries[i];
      finder.find(e.start, e.goal, r);
      expanded += static_cast<double>(r.stats.expanded);
      query_us += r.stats.time_us;
      benchmark::DoNotOptimize(r.cost);
    }
  }
  const double queries = static_cast<double>(state.iterations() * sc->selected.size());
  // The finder's own time per query (as `pathlab bench` reports it), in µs.
  state.counters["us_per_query"] = benchmark::Counter(queries > 0 ? query_us / queries : 0);
  state.counters["expanded_per_query"] = benchmark::Counter(queries > 0 ? expanded / queries : 0);
  state.counters["expansions_per_s"] = benchmark::Counter(expanded, benchmark::Counter::kIsRate);
  state.SetItemsProcessed(static_cast<std::int64_t>(queries));
}

/// IDA* is optimal but re-expands without bound on octile maps: it would hit the node limit
/// on these maps, measuring nothing useful in minutes. It is a memory-saving method, not a
/// speed one.
bool measured(const search::AlgorithmInfo& a) {
  return a.optimal && !a.any_angle && a.algorithm != search::Algorithm::idastar;
}

bool register_all() {
  if (!std::filesystem::is_directory(movingai_dir())) {
    benchmark::RegisterBenchmark("search/skipped", [](benchmark::State& state) {
      state.SkipWithError(("no Moving AI set at " + movingai_dir() + ": skipped").c_str());
    });
    return false;
  }
  for (const search::AlgorithmInfo& a : search::algorithms()) {
    if (!measured(a)) continue;
    for (const char* map : kMaps) {
      const std::string name = "search/" + std::string(a.name) + "/" + map;
      const search::Algorithm algo = a.algorithm;
      const std::string map_name = map;
      benchmark::RegisterBenchmark(name.c_str(), [algo, map_name](benchmark::State& state) {
        run_queries(state, algo, map_name);
      })->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}

[[maybe_unused]] const bool registered = register_all();

}  // namespace
