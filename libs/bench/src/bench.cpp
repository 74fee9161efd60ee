// The benchmark runner: loads scenario files with their maps, runs each algorithm over the
// selected queries on N threads (one Pathfinder each), verifies every result and aggregates
// per-map and per-algorithm statistics.
#include <pathlab/bench/bench.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

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
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
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
  bool legal = true;
  std::string problem;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

LoadedScenario load_scenario(const std::string& scen_path, std::size_t max_queries) {
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
  const std::size_t n = s.file.entries.size();
  const std::size_t k = max_queries == 0 ? n : std::min(n, max_queries);
  // Spread the sample evenly over the file, so every bucket (path length) is represented.
  for (std::size_t i = 0; i < k; ++i) s.selected.push_back(i * n / k);
  return s;
}

Report run(const std::vector<LoadedScenario>& scenarios, const BenchOptions& options,
           const Progress& progress) {
  Report report;
  std::size_t per_algo = 0;
  for (const auto& s : scenarios) per_algo += s.selected.size();
  const std::size_t total = per_algo * options.algorithms.size();
  std::size_t done_before = 0;
  const int threads = std::max(1, options.threads);
  const grid::Moves& moves = options.search.moves;

  for (search::Algorithm algo : options.algorithms) {
    Row row;
    row.algorithm = std::string(search::to_string(algo));
    search::Options so = options.search;
    so.algorithm = algo;
    row.optimal = search::info(algo).optimal && so.effective_weight() == 1.0 &&
                  search::admissible(so.effective_heuristic(), so.moves);
    std::vector<double> all_times;
    double ratio_sum = 0, total_us = 0, total_expanded = 0;
    std::size_t ratio_n = 0;

    for (const auto& sc : scenarios) {
      const std::size_t n = sc.selected.size();
      std::vector<QueryOutcome> outcomes(n);
      std::atomic<std::size_t> next{0}, done{0};
      auto worker = [&] {
        search::Pathfinder finder(sc.grid, so);
        search::Result r;
        for (std::size_t i = next++; i < n; i = next++) {
          const io::ScenarioEntry& e = sc.file.entries[sc.selected[i]];
          finder.find(e.start, e.goal, r);
          QueryOutcome& q = outcomes[i];
          q.status = r.status;
          q.cost = r.cost;
          q.time_us = r.stats.time_us;
          q.expanded = r.stats.expanded;
          if (r.status == Status::found) {
            auto problem = grid::check_path(sc.grid, moves, r.path);
            if (!problem && !(r.path.front() == e.start && r.path.back() == e.goal)) {
              problem = "path does not run from start to goal";
            }
            if (problem) {
              q.legal = false;
              q.problem = *problem;
            }
          }
          ++done;
        }
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

      MapRow mr;
      mr.map = sc.map_name;
      mr.queries = n;
      for (std::size_t i = 0; i < n; ++i) {
        const QueryOutcome& q = outcomes[i];
        const io::ScenarioEntry& e = sc.file.entries[sc.selected[i]];
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
        if (q.status == Status::node_limit) {
          ++row.gave_up;
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
      }
      if (n > 0) {
        mr.mean_us /= static_cast<double>(n);
        mr.mean_expanded /= static_cast<double>(n);
      }
      row.queries += mr.queries;
      row.solved += mr.solved;
      row.suboptimal += mr.suboptimal;
      row.maps.push_back(std::move(mr));
    }
    const double q = static_cast<double>(std::max<std::size_t>(1, row.queries));
    row.mean_us = total_us / q;
    row.mean_expanded = total_expanded / q;
    row.median_us = percentile(all_times, 0.5);
    row.p99_us = percentile(all_times, 0.99);
    row.expansions_per_s = total_us > 0 ? total_expanded / (total_us * 1e-6) : 0;
    row.mean_ratio = ratio_n > 0 ? ratio_sum / static_cast<double>(ratio_n) : 0;
    report.rows.push_back(std::move(row));
  }
  return report;
}

}  // namespace pathlab::bench
