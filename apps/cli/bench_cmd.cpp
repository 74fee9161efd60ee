// `pathlab bench`: the Moving AI runner. It verifies while it measures and exits 1 when a
// verification fails (suboptimal or illegal paths, a missed path).
#include <chrono>
#include <cstdio>

#include <fmt/core.h>

#include <pathlab/bench/bench.hpp>
#include <pathlab/core/error.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

struct BenchArgs {
  std::vector<std::string> scens;
  std::string algos = "astar";
  SearchArgs search;
  int threads = 1;
  std::size_t max_queries = 0;
  bool json = false;
};

/// A one-line progress bar on stderr, redrawn at most ten times a second.
class ProgressBar {
 public:
  void operator()(std::size_t done, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int width = 40;
    const int filled = total ? static_cast<int>(width * done / total) : width;
    fmt::print(stderr, "\r[{}{}] {}/{} queries", std::string(static_cast<std::size_t>(filled), '#'),
               std::string(static_cast<std::size_t>(width - filled), '-'), done, total);
    if (done >= total) fmt::print(stderr, "\n");
    std::fflush(stderr);
  }

 private:
  std::chrono::steady_clock::time_point last_{};
};

nlohmann::json row_json(const bench::Row& r) {
  nlohmann::json maps = nlohmann::json::array();
  for (const auto& m : r.maps) {
    maps.push_back({{"map", m.map},
                    {"queries", m.queries},
                    {"solved", m.solved},
                    {"suboptimal", m.suboptimal},
                    {"mean_us", m.mean_us},
                    {"mean_expanded", m.mean_expanded}});
  }
  nlohmann::json j{{"algorithm", r.algorithm},
                   {"queries", r.queries},
                   {"solved", r.solved},
                   {"suboptimal", r.suboptimal},
                   {"illegal", r.illegal},
                   {"gave_up", r.gave_up},
                   {"missed", r.missed},
                   {"max_error", r.max_error},
                   {"mean_us", r.mean_us},
                   {"median_us", r.median_us},
                   {"p99_us", r.p99_us},
                   {"mean_expanded", r.mean_expanded},
                   {"expansions_per_s", r.expansions_per_s},
                   {"prep_s", r.prep_s},
                   {"optimal", r.optimal},
                   {"maps", maps}};
  if (!r.optimal) j["mean_ratio"] = r.mean_ratio;
  return j;
}

int run_bench(const BenchArgs& a) {
  bench::BenchOptions o;
  o.algorithms = parse_algorithms(a.algos);
  o.search = a.search.options();  // Moving AI moves: no corner cutting, 1 and sqrt(2)
  o.threads = a.threads;
  o.max_queries = a.max_queries;
  std::vector<bench::LoadedScenario> scenarios;
  try {
    for (const auto& p : a.scens) scenarios.push_back(bench::load_scenario(p, a.max_queries));
  } catch (const ParseError& e) {
    throw CliError{e.what()};
  }
  bench::Progress progress;
  if (stderr_is_terminal()) progress = ProgressBar{};
  const bench::Report report = bench::run(scenarios, o, progress);

  if (a.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : report.rows) rows.push_back(row_json(r));
    fmt::print("{}\n", nlohmann::json{{"results", rows}}.dump());
  } else {
    fmt::print("{:<10} {:>7} {:>7} {:>6} {:>7} {:>7} {:>10} {:>10} {:>10} {:>11} {:>8}\n",
               "algorithm", "queries", "solved", "subopt", "illegal", "gave_up", "mean_us",
               "median_us", "p99_us", "expanded", "Mexp/s");
    for (const auto& r : report.rows) {
      fmt::print(
          "{:<10} {:>7} {:>7} {:>6} {:>7} {:>7} {:>10.1f} {:>10.1f} {:>10.1f} {:>11.1f} {:>8.2f}\n",
          r.algorithm, r.queries, r.solved, r.suboptimal, r.illegal, r.gave_up, r.mean_us,
          r.median_us, r.p99_us, r.mean_expanded, r.expansions_per_s / 1e6);
    }
    fmt::print("\nper map (mean us / mean expanded):\n");
    for (const auto& r : report.rows) {
      for (const auto& m : r.maps) {
        fmt::print("  {:<10} {:<22} {:>6} queries {:>10.1f} us {:>11.1f} expanded{}\n", r.algorithm,
                   m.map, m.queries, m.mean_us, m.mean_expanded,
                   m.suboptimal ? fmt::format("  {} SUBOPTIMAL", m.suboptimal) : "");
      }
    }
    for (const auto& r : report.rows) {
      if (!r.optimal) fmt::print("{}: mean cost / optimum = {:.4f}\n", r.algorithm, r.mean_ratio);
      for (const auto& f : r.failures) fmt::print("FAIL {}\n", f);
    }
    fmt::print("verification: {}\n", report.passed() ? "passed" : "FAILED");
  }
  return report.passed() ? kExitOk : kExitNegative;
}

}  // namespace

void register_bench(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "run Moving AI scenarios, verify every path against the optimum and time them");
  cmd->add_option("SCEN", args->scens, "Moving AI .scen files (the map is found next to each)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--algo", args->algos, "algorithm or comma-separated list")
      ->capture_default_str();
  args->search.add_to(*cmd);
  cmd->add_option("--threads", args->threads, "worker threads, one finder each")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--max-queries", args->max_queries,
                  "at most N queries per scenario file, spread evenly over it (0 = all)");
  cmd->add_flag("--json", args->json, "machine output (fields fixed by the CLI contract)");
  cmd->callback([args, &exit_code] { exit_code = run_bench(*args); });
}

}  // namespace pathlab::cli
