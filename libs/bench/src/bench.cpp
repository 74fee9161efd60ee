// The benchmark runner: loads scenario files with their maps, runs each algorithm over the
// selected queries on N threads (one Pathfinder each), verifies every result and aggregates
// per-map and per-algorithm statistics.
#include <pathlab/bench/bench.hpp>

#include <random>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <concepts>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <pathlab/grid/los.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/io/map.hpp>

namespace pathlab::bench {

bool within_tolerance(double cost, double optimum) noexcept {
  return std::abs(cost - optimum) <= 0.005 + 1e-5 * optimum;
}

bool Report::passed() const noexcept {
  return std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.passed(); });
}

namespace {

std::string cell_text(Cell c) {
  std::string s = "(";
  s.append(std::to_string(c.x)).append(",").append(std::to_string(c.y)).append(")");
  return s;
}

void check_entry(const io::ScenarioFile& f, const io::ScenarioEntry& e, const grid::Grid& g,
                 const std::string& map_name) {
  if (e.width != g.width() || e.height != g.height()) {
    throw ParseError(f.path, e.line,
                     "scenario is for a " + std::to_string(e.width) + "x" +
                         std::to_string(e.height) + " map but " + map_name + " is " +
                         std::to_string(g.width()) + "x" + std::to_string(g.height()));
  }
  for (auto [c, what] : {std::pair{e.start, "start"}, std::pair{e.goal, "goal"}}) {
    if (!g.in_bounds(c)) {
      throw ParseError(f.path, e.line,
                       std::string(what) + " " + cell_text(c) + " is outside the map");
    }
    if (!g.passable(c)) {
      throw ParseError(f.path, e.line, std::string(what) + " " + cell_text(c) + " is on a wall");
    }
  }
}

struct QueryOutcome {
  Status status = Status::invalid_input;
  double cost = 0;
  double time_us = 0;
  std::uint64_t expanded = 0;
  std::uint64_t los_checks = 0;
  bool legal = true;
  std::string problem;
  double smoothed_cost = 0;  // BenchOptions::smooth
  double smooth_us = 0;
  std::uint64_t smooth_los = 0;
};

/// Accumulates Lengths.
struct LengthSum {
  double octile = 0, exact = 0;
  std::size_t octile_n = 0, exact_n = 0;
  void add(double cost, double optimum, double exact_optimum) {
    if (optimum > 0) {
      octile += cost / optimum;
      ++octile_n;
    }
    if (exact_optimum > 0) {
      exact += cost / exact_optimum;
      ++exact_n;
    }
  }
  void add(const LengthSum& o) {
    octile += o.octile;
    exact += o.exact;
    octile_n += o.octile_n;
    exact_n += o.exact_n;
  }
  [[nodiscard]] Lengths mean() const {
    Lengths l;
    l.vs_octile = octile_n > 0 ? octile / static_cast<double>(octile_n) : 0;
    l.vs_exact = exact_n > 0 ? exact / static_cast<double>(exact_n) : 0;
    l.exact_queries = exact_n;
    return l;
  }
};

/// Any-angle paths: start and goal in place and every segment in line of sight (anyangle-exact
/// bends at wall corners and is exempt from the cell-level test, docs/ALGORITHMS.md).
std::optional<std::string> check_any_angle(const grid::Grid& g, const search::Options& o,
                                           const search::Result& r, const io::ScenarioEntry& e) {
  if (r.path.empty() || r.path.front() != e.start || r.path.back() != e.goal) {
    return "path does not run from start to goal";
  }
  if (search::answers_points(o.algorithm)) return std::nullopt;
  for (std::size_t i = 1; i < r.path.size(); ++i) {
    if (!grid::line_of_sight(g, o.moves.diagonal, r.path[i - 1], r.path[i])) {
      std::string what = "no line of sight from ";
      what.append(cell_text(r.path[i - 1])).append(" to ").append(cell_text(r.path[i]));
      return what;
    }
  }
  return std::nullopt;
}

/// The exact any-angle optimum of each selected query (0 where it did not run), on `threads`.
std::vector<double> exact_optima(const LoadedScenario& sc, const search::Options& base, int threads,
                                 bool corners) {
  const std::size_t n = sc.selected.size();
  std::vector<double> out(n, 0.0);
  search::Options o = base;
  o.algorithm = search::Algorithm::anyangle_exact;
  o.weight.reset();
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    search::Pathfinder finder(sc.grid, o);
    search::Result r;
    for (std::size_t i = next++; i < n; i = next++) {
      const io::ScenarioEntry& e = sc.file.entries[sc.selected[i]];
      const Status st =
          corners ? finder.find_corners(e.start, e.goal, r) : finder.find(e.start, e.goal, r);
      if (st == Status::found) out[i] = r.cost;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return out;
}

/// A finder that reports the bytes of its workspace (search state).
template <class F>
concept ReportsMemory = requires(const F& f) {
  { f.memory_bytes() } -> std::convertible_to<std::size_t>;
};

/// The search state one finder holds after its queries. Until Pathfinder reports it, an
/// estimate: a node record (g, parent, stamp, heap position: 24 bytes) per padded cell and
/// direction, plus a 16-byte heap entry per open node at the peak.
template <class F>
std::size_t search_state_bytes(const F& finder, search::Algorithm a, std::uint64_t peak_open) {
  if constexpr (ReportsMemory<F>) {
    (void)a;
    (void)peak_open;
    return finder.memory_bytes();
  } else {
    const bool two_sided = a == search::Algorithm::bibfs || a == search::Algorithm::biastar;
    return finder.grid().padded_size() * 24 * (two_sided ? 2 : 1) +
           static_cast<std::size_t>(peak_open) * 16;
  }
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

bool is_dynamic_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[256] = {};
  in.read(head, sizeof head);
  return io::is_dynamic_scenario(std::string_view(head, static_cast<std::size_t>(in.gcount())));
}

namespace {

/// At most max_queries (0: all) of n entries, spread evenly over the file, so that every
/// bucket (path length) is represented.
std::vector<std::size_t> spread(std::size_t n, std::size_t max_queries) {
  const std::size_t k = max_queries == 0 ? n : std::min(n, max_queries);
  std::vector<std::size_t> out;
  out.reserve(k);
  for (std::size_t i = 0; i < k; ++i) out.push_back(i * n / k);
  return out;
}

/// A dynamic-track scenario as a LoadedScenario: its queries as entries on the open map.
LoadedScenario load_dynamic(const std::string& scen_path, std::size_t max_queries) {
  LoadedScenario s;
  auto dyn = std::make_shared<io::DynamicScenario>(io::load_dynamic_scenario(scen_path));
  if (dyn->queries() == 0) throw ParseError(scen_path, 0, "no query (Q) commands");
  s.map_name = std::filesystem::path(scen_path).filename().string();
  s.file.path = scen_path;
  for (std::size_t k = 0; k < dyn->commands.size(); ++k) {
    const io::DynamicCommand& c = dyn->commands[k];
    if (c.kind != io::DynamicCommand::Kind::query) continue;
    io::ScenarioEntry e;
    e.bucket = c.bucket;
    e.map = s.map_name;
    e.width = dyn->width;
    e.height = dyn->height;
    e.start = c.start;
    e.goal = c.goal;
    e.optimal = c.length;  // < 0: no path
    e.line = c.line;
    s.file.entries.push_back(e);
    s.command_of.push_back(k);
  }
  s.grid = grid::Grid(dyn->width, dyn->height);  // the track's maps start open
  s.dynamic = std::move(dyn);
  s.selected = spread(s.file.entries.size(), max_queries);  // every patch still applies
  return s;
}

}  // namespace

LoadedScenario load_scenario(const std::string& scen_path, std::size_t max_queries) {
  if (is_dynamic_scenario_file(scen_path)) return load_dynamic(scen_path, max_queries);
  LoadedScenario s;
  s.file = io::load_scenarios(scen_path);
  if (s.file.entries.empty()) throw ParseError(scen_path, 0, "no scenario lines");
  const std::string map_path = s.file.map_path();
  s.map_name = std::filesystem::path(map_path).filename().string();
  io::MapOptions mo;
  mo.format = io::MapFormat::movingai;
  if (!std::filesystem::exists(map_path)) {
    throw ParseError(scen_path, s.file.entries.front().line,
                     "map " + map_path + " not found (looked for it next to the .scen file)");
  }
  s.grid = io::load_map(map_path, mo).grid;
  for (const auto& e : s.file.entries) check_entry(s.file, e, s.grid, s.map_name);
  s.selected = spread(s.file.entries.size(), max_queries);
  return s;
}

/// One map's churn: the cells each query toggles first, and the reference answer on the map
/// as edited by then (a fresh Dijkstra; infinity where the goal is cut off).
struct ChurnPlan {
  std::vector<std::vector<Cell>> toggles;
  std::vector<double> reference;
};

ChurnPlan plan_churn(const LoadedScenario& sc, const BenchOptions& options, std::size_t map) {
  ChurnPlan plan;
  grid::Grid g = sc.grid;
  std::mt19937_64 rng(options.churn_seed * 0x9E3779B97F4A7C15ull + map);
  search::Options o = options.search;
  o.algorithm = search::Algorithm::dijkstra;
  search::Pathfinder reference(g, o);
  search::Result r;
  const auto w = static_cast<std::uint64_t>(g.width()), h = static_cast<std::uint64_t>(g.height());
  for (const std::size_t index : sc.selected) {
    const io::ScenarioEntry& e = sc.file.entries[index];
    std::vector<Cell> cells;
    for (const Cell c : {e.start, e.goal}) {
      if (!g.passable(c)) cells.push_back(c);  // blocked by an earlier toggle: freed
    }
    for (int k = 0; k < options.churn; ++k) {
      Cell c;
      do {
        c = {static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
      } while (c == e.start || c == e.goal);
      cells.push_back(c);
    }
    for (const Cell c : cells) g.set_blocked(c, g.passable(c));
    reference.find(e.start, e.goal, r);
    plan.reference.push_back(r.status == Status::found ? r.cost
                                                       : std::numeric_limits<double>::infinity());
    plan.toggles.push_back(std::move(cells));
  }
  return plan;
}

Report run(const std::vector<LoadedScenario>& scenarios, const BenchOptions& options,
           const Progress& progress) {
  Report report;
  std::size_t per_algo = 0;
  for (const auto& s : scenarios) per_algo += s.selected.size();
  const std::size_t total = per_algo * options.algorithms.size();
  std::size_t done_before = 0;
  // Maps that change between queries (churn, the dynamic track) run on one thread.
  bool dynamic = false;
  for (const auto& s : scenarios) dynamic = dynamic || s.dynamic != nullptr;
  const int threads = options.churn > 0 || dynamic ? 1 : std::max(1, options.threads);
  const grid::Moves& moves = options.search.moves;
  std::vector<ChurnPlan> plans(options.churn > 0 ? scenarios.size() : 0);
  for (std::size_t k = 0; k < plans.size(); ++k) plans[k] = plan_churn(scenarios[k], options, k);

  // Exact any-angle optima, when something measured is compared with them.
  bool want_exact = options.smooth;
  for (const auto a : options.algorithms) want_exact = want_exact || search::info(a).any_angle;
  std::vector<std::vector<double>> exact(scenarios.size());
  if (want_exact && options.exact_max_cells > 0) {
    for (std::size_t k = 0; k < scenarios.size(); ++k) {
      // (Not on a dynamic scenario: its map changes between queries.)
      if (scenarios[k].dynamic == nullptr && scenarios[k].grid.cells() <= options.exact_max_cells) {
        exact[k] = exact_optima(scenarios[k], options.search, threads, options.corners);
      }
    }
  }

  for (search::Algorithm algo : options.algorithms) {
    Row row;
    row.algorithm = std::string(search::to_string(algo));
    search::Options so = options.search;
    so.algorithm = algo;
    const bool any_angle = search::info(algo).any_angle;
    row.any_angle = any_angle;
    // The scenario optimum is an 8-neighbour grid cost: only grid algorithms promise it.
    row.optimal = search::info(algo).optimal && !any_angle && so.effective_weight() == 1.0 &&
                  search::admissible(so.effective_heuristic(), so.moves);
    row.memory_estimated = !ReportsMemory<search::Pathfinder>;
    row.samples.reserve(per_algo);
    std::vector<double> all_times;
    double ratio_sum = 0, total_us = 0, total_expanded = 0;
    double los_sum = 0, smooth_us_sum = 0, smooth_los_sum = 0;
    std::size_t ratio_n = 0, smoothed_n = 0;
    LengthSum lengths_all, smoothed_all;

    for (std::size_t scen_index = 0; scen_index < scenarios.size(); ++scen_index) {
      const auto& sc = scenarios[scen_index];
      const std::vector<double>& exact_of = exact[scen_index];
      const std::size_t n = sc.selected.size();
      std::vector<QueryOutcome> outcomes(n);
      std::atomic<std::size_t> next{0}, done{0};
      MapRow mr;
      // Under churn the queries run on a copy of the map that the edits change.
      const ChurnPlan* plan = options.churn > 0 ? &plans[scen_index] : nullptr;
      // A dynamic-track scenario: its patches are pasted, in order, into a copy of the map.
      const io::DynamicScenario* dyn = sc.dynamic.get();
      const bool changing = plan != nullptr || dyn != nullptr;
      grid::Grid edited;
      if (changing) edited = sc.grid;
      const grid::Grid& map_grid = changing ? edited : sc.grid;
      double edit_us = 0, patch_us = 0;
      std::size_t next_command = 0;  // dynamic: the first command not yet carried out
      mr.dynamic = dyn != nullptr;
      // Preprocessed data (jps+) is built once per map, timed apart, and shared by the threads.
      std::optional<search::Pathfinder> prepared;
      if (search::uses_preparation(algo)) {
        prepared.emplace(map_grid, so);
        const auto t0 = std::chrono::steady_clock::now();
        const search::PrepareInfo pi =
            options.prepare ? options.prepare(*prepared) : search::prepare(*prepared);
        if (pi.ready) {
          mr.prep_loaded = pi.loaded;
          mr.prep_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          mr.prep_bytes = pi.bytes;
        }
      }
      std::mutex memory_mutex;
      auto worker = [&] {
        search::Pathfinder own(map_grid, so);
        // Under churn (one thread) the prepared finder itself runs the queries: its data is
        // what the edits must keep up to date.
        search::Pathfinder& finder = changing && prepared ? *prepared : own;
        if (prepared && &finder != &*prepared) search::share_prepared(*prepared, finder);
        std::uint64_t peak_open = 0;
        search::Result r;
        // Untimed queries first: the workspace allocates its search state on its first search
        // (warm-up), which is not what a query costs. jps and jps+ answer a query with a free
        // octile path without a search, so the warm-up goes on until one query searched (at
        // most 16 of them).
        auto query = [&](const io::ScenarioEntry& e) {
          if (options.corners) {
            finder.find_corners(e.start, e.goal, r);
          } else {
            finder.find(e.start, e.goal, r);
          }
        };
        for (std::size_t w = 0; w < std::min<std::size_t>(n, 16); ++w) {
          query(sc.file.entries[sc.selected[w]]);
          if (r.stats.expanded > 0) break;
        }
        for (std::size_t i = next++; i < n; i = next++) {
          const io::ScenarioEntry& e = sc.file.entries[sc.selected[i]];
          if (plan != nullptr) {
            const auto t0 = std::chrono::steady_clock::now();
            for (const Cell c : plan->toggles[i]) {
              grid::Edit edit;
              edit.kind = edited.passable(c) ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
              edit.area = {c.x, c.y, c.x, c.y};
              (void)edited.apply(edit);
            }
            if (prepared) (void)search::prepare(finder);
            edit_us +=
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                    .count();
            mr.edits += plan->toggles[i].size();
          }
          if (dyn != nullptr) {
            // The patches before this query, through the edit API (Grid::paste), then the
            // finder's preprocessed data brought up to date: the track counts both.
            const std::size_t upto = sc.command_of[sc.selected[i]];
            const auto t0 = std::chrono::steady_clock::now();
            std::size_t pasted = 0;
            for (; next_command < upto; ++next_command) {
              const io::DynamicCommand& c = dyn->commands[next_command];
              if (c.kind != io::DynamicCommand::Kind::patch) continue;
              const io::Patch& p = dyn->patches[static_cast<std::size_t>(c.patch)];
              (void)edited.paste(c.at, p.width, p.height, p.blocked);
              ++pasted;
            }
            next_command = upto + 1;
            if (prepared && pasted > 0) (void)search::prepare(finder);
            patch_us +=
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                    .count();
            mr.patches += pasted;
          }
          query(e);
          QueryOutcome& q = outcomes[i];
          q.status = r.status;
          q.cost = r.cost;
          q.time_us = r.stats.time_us;
          q.expanded = r.stats.expanded;
          q.los_checks = r.stats.los_checks;
          peak_open = std::max(peak_open, r.stats.peak_open);
          if (r.status == Status::found) {
            std::optional<std::string> problem;
            if (any_angle) {
              problem = check_any_angle(map_grid, so, r, e);
            } else {
              problem = grid::check_path(map_grid, moves, r.path);
              if (!problem && !(r.path.front() == e.start && r.path.back() == e.goal)) {
                problem = "path does not run from start to goal";
              }
            }
            if (problem) {
              q.legal = false;
              q.problem = *problem;
            }
            if (options.smooth && q.legal) {
              const auto t0 = std::chrono::steady_clock::now();
              const post::SmoothedPath sm = post::smooth_result(map_grid, so, r, options.smoothing);
              q.smooth_us =
                  std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                      .count();
              q.smooth_los = sm.los_checks;
              q.smoothed_cost = sm.cost;
            }
          }
          ++done;
        }
        const std::size_t bytes = search_state_bytes(finder, algo, peak_open);
        const std::lock_guard lock(memory_mutex);
        mr.memory_bytes = std::max(mr.memory_bytes, bytes);
      };
      std::vector<std::thread> pool;
      for (int t = 0; t < threads && threads > 1; ++t) pool.emplace_back(worker);
      if (threads == 1) {
        worker();
      } else {
        // The calling thread reports progress while the pool works.
        while (done.load() < n) {
          if (progress) progress(done_before + done.load(), total);
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
      for (auto& t : pool) t.join();
      done_before += n;
      if (progress) progress(done_before, total);

      LengthSum length_map, smoothed_map;
      mr.map = sc.map_name;
      mr.queries = n;
      std::vector<double> map_times;
      map_times.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        const QueryOutcome& q = outcomes[i];
        io::ScenarioEntry e = sc.file.entries[sc.selected[i]];
        // Under churn the optimum is the fresh Dijkstra's on the edited map; a dynamic
        // scenario gives its own (negative: no path).
        const bool cut_off = (plan != nullptr && std::isinf(plan->reference[i])) ||
                             (dyn != nullptr && e.optimal < 0);
        if (plan != nullptr && !cut_off) e.optimal = plan->reference[i];
        row.samples.push_back(QuerySample{e.optimal, q.time_us, q.expanded,
                                          static_cast<std::uint32_t>(row.maps.size()), q.status,
                                          q.status == Status::found ? q.cost : -1.0});
        map_times.push_back(q.time_us);
        auto fail = [&](const std::string& what) {
          if (row.failures.size() < 10) {
            row.failures.push_back(sc.file.path + ":" + std::to_string(e.line) + ": " + what);
          }
        };
        all_times.push_back(q.time_us);
        total_us += q.time_us;
        total_expanded += static_cast<double>(q.expanded);
        mr.mean_us += q.time_us;
        mr.mean_expanded += static_cast<double>(q.expanded);
        mr.mean_los_checks += static_cast<double>(q.los_checks);
        if (q.status == Status::node_limit) {
          ++row.gave_up;
          continue;
        }
        if (cut_off) {
          if (q.status == Status::no_path) {
            ++mr.solved;
          } else {
            ++row.missed;
            fail(row.algorithm + " reported " + std::string(to_string(q.status)) +
                 (dyn != nullptr ? " where the scenario gives no path"
                                 : " where the edits cut the goal off"));
          }
          continue;
        }
        if (q.status != Status::found) {
          ++row.missed;
          fail(row.algorithm + " reported " + std::string(to_string(q.status)));
          continue;
        }
        ++mr.solved;
        if (!q.legal) {
          ++row.illegal;
          fail(row.algorithm + " returned an illegal path: " + q.problem);
          continue;
        }
        row.max_error = std::max(row.max_error, std::abs(q.cost - e.optimal));
        if (e.optimal > 0) {
          ratio_sum += q.cost / e.optimal;
          ++ratio_n;
        }
        if (row.optimal && !within_tolerance(q.cost, e.optimal)) {
          ++mr.suboptimal;
          fail(row.algorithm + " cost " + std::to_string(q.cost) + " but the optimum is " +
               std::to_string(e.optimal));
        }
        const double ex = exact_of.empty() ? 0.0 : exact_of[i];
        los_sum += static_cast<double>(q.los_checks);
        if (any_angle && ex > 0 && q.cost < ex - 1e-9 * std::max(1.0, ex)) {
          ++row.below_exact;
          fail(row.algorithm + " length " + std::to_string(q.cost) +
               " is below the exact any-angle optimum " + std::to_string(ex));
        }
        if (search::answers_points(algo) && q.cost > e.optimal + 0.005 + 1e-5 * e.optimal) {
          ++mr.suboptimal;
          fail(row.algorithm + " length " + std::to_string(q.cost) +
               " exceeds the 8-neighbour optimum " + std::to_string(e.optimal));
        }
        length_map.add(q.cost, e.optimal, ex);
        if (options.smooth) {
          smoothed_map.add(q.smoothed_cost, e.optimal, ex);
          smooth_us_sum += q.smooth_us;
          smooth_los_sum += static_cast<double>(q.smooth_los);
          ++smoothed_n;
        }
      }
      mr.length = length_map.mean();
      mr.smoothed_length = smoothed_map.mean();
      lengths_all.add(length_map);
      smoothed_all.add(smoothed_map);
      if (n > 0) {
        mr.mean_us /= static_cast<double>(n);
        mr.mean_expanded /= static_cast<double>(n);
        mr.mean_los_checks /= static_cast<double>(n);
      }
      if (dyn != nullptr) {
        // The track's total, and the queries after the first 10 % of the commands.
        double query_us = 0, late_us = 0;
        std::size_t late_n = 0;
        const std::size_t first_tenth = dyn->commands.size() / 10;
        for (std::size_t i = 0; i < n; ++i) {
          query_us += outcomes[i].time_us;
          if (sc.command_of[sc.selected[i]] >= first_tenth) {
            late_us += outcomes[i].time_us;
            ++late_n;
          }
        }
        mr.patch_us = mr.patches > 0 ? patch_us / static_cast<double>(mr.patches) : 0;
        mr.total_s = (patch_us + query_us) * 1e-6;
        mr.late_us = late_n > 0 ? late_us / static_cast<double>(late_n) : 0;
        row.dynamic = true;
        row.patches += mr.patches;
        row.patch_us += patch_us;  // a sum until the row's end
        row.total_s += mr.total_s;
      }
      mr.median_us = percentile(map_times, 0.5);
      mr.p99_us = percentile(std::move(map_times), 0.99);
      row.prep_s += mr.prep_s;
      if (mr.edits > 0) mr.edit_us = edit_us / static_cast<double>(mr.edits);
      row.edit_us += edit_us;
      row.edits += mr.edits;
      row.memory_bytes = std::max(row.memory_bytes, mr.memory_bytes + mr.prep_bytes);
      row.queries += mr.queries;
      row.solved += mr.solved;
      row.suboptimal += mr.suboptimal;
      row.maps.push_back(std::move(mr));
    }
    const double q = static_cast<double>(std::max<std::size_t>(1, row.queries));
    row.mean_us = total_us / q;
    if (row.edits > 0) row.edit_us /= static_cast<double>(row.edits);
    row.patch_us = row.patches > 0 ? row.patch_us / static_cast<double>(row.patches) : 0;
    row.mean_expanded = total_expanded / q;
    row.median_us = percentile(all_times, 0.5);
    row.p99_us = percentile(all_times, 0.99);
    row.expansions_per_s = total_us > 0 ? total_expanded / (total_us * 1e-6) : 0;
    row.mean_ratio = ratio_n > 0 ? ratio_sum / static_cast<double>(ratio_n) : 0;
    row.mean_los_checks = los_sum / q;
    row.length = lengths_all.mean();
    row.smoothed_length = smoothed_all.mean();
    if (smoothed_n > 0) {
      row.mean_smooth_us = smooth_us_sum / static_cast<double>(smoothed_n);
      row.mean_smooth_los = smooth_los_sum / static_cast<double>(smoothed_n);
    }
    report.rows.push_back(std::move(row));
  }
  return report;
}

std::vector<std::vector<double>> costs_by_map(const Row& row) {
  std::vector<std::vector<double>> out(row.maps.size());
  for (const QuerySample& q : row.samples) {
    if (q.map < out.size()) out[q.map].push_back(q.cost);
  }
  return out;
}

}  // namespace pathlab::bench
