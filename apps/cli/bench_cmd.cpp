// `pathlab bench`: the Moving AI runner. It verifies while it measures and exits 1 when a
// verification fails (suboptimal or illegal paths, a missed path). --report writes the
// competition-style chart and tables (HTML or SVG).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>

#include <fmt/core.h>

#include <pathlab/bench/bench.hpp>
#include <pathlab/bench/peers.hpp>
#include <pathlab/bench/report.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/json/bench.hpp>

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
  bool smooth = false;
  std::string smoothing = "refined";
  std::int64_t exact_max_cells = 300 * 300;
  std::string report;  ///< --report OUT.html|.svg
  std::string cache;   ///< --cache DIR: where `pathlab prepare` left preprocessed data
  int churn = 0;       ///< --churn K: cells toggled before each query
  std::uint64_t seed = 1;
  std::string peers;  ///< --peers DIR: the research peers' executables (docs/PEERS.md)
  double peer_timeout = 600;
  std::string endpoints = "centre";  ///< --endpoints centre|corner
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

void print_peers(const bench::Report& report, const std::vector<bench::PeerRow>& peers,
                 const std::string& folder) {
  fmt::print("\nbeside the peers in {} (ratio = peer us / pathlab us: > 1, pathlab is faster):\n",
             folder);
  if (peers.empty()) fmt::print("  none found\n");
  for (const auto& p : peers) {
    for (std::size_t k = 0; k < p.maps.size(); ++k) {
      const auto& m = p.maps[k];
      if (!m.ok()) {
        fmt::print("  {:<34} {:<22} {}\n", p.peer.label, m.map, m.error);
        continue;
      }
      const auto [row, ratio] = bench::versus(p, report, k);
      // Any-angle entries: what their lengths (between cell corners) were checked against.
      std::string lengths;
      if (m.check == bench::LengthCheck::pathlab_exact) {
        lengths =
            fmt::format("  [lengths vs pathlab anyangle-exact, corners: {} checked]", m.checked);
      } else if (m.check == bench::LengthCheck::octile_bound) {
        lengths = fmt::format("  [lengths vs the octile bound only: {} checked]", m.checked);
      }
      if (m.below > 0) {
        lengths +=
            fmt::format("  {} BELOW {}", m.below,
                        m.check == bench::LengthCheck::pathlab_exact ? "PATHLAB'S ANYANGLE-EXACT"
                                                                     : "THE STRAIGHT LINE");
      }
      fmt::print(
          "  {:<34} {:<22} {:>10.1f} us{}  {}{}{}\n", p.peer.label, m.map, m.mean_us,
          p.peer.preprocessed ? fmt::format(" (prep {:.2f} s)", m.prep_s) : "",
          row ? fmt::format("vs {} {:.1f} us: {:.2f}", row->algorithm, row->maps[k].mean_us, ratio)
              : std::string("no pathlab counterpart"),
          m.suboptimal ? fmt::format("  {} SUBOPTIMAL", m.suboptimal) : "", lengths);
    }
  }
}

/// Writes the --report file; an unwritable path is bad input.
void write_report(const BenchArgs& a, const bench::Report& report,
                  const std::vector<bench::PeerRow>& peers, bench::ReportFormat format,
                  std::size_t scenario_count) {
  bench::ReportOptions ro;
  ro.peers = peers;
  ro.title = "pathlab bench";
  std::size_t queries = report.rows.empty() ? 0 : report.rows.front().queries;
  ro.notes.push_back(fmt::format(
      "{} scenario file{}, {} queries per algorithm{}, {} thread{}", scenario_count,
      scenario_count == 1 ? "" : "s", queries,
      a.max_queries ? fmt::format(" (at most {} per file)", a.max_queries) : std::string(),
      a.threads, a.threads == 1 ? "" : "s"));
  ro.notes.push_back(fmt::format("verification: {}", report.passed() ? "passed" : "FAILED"));
  if (!a.peers.empty()) {
    ro.notes.push_back(fmt::format("peers: {} of the {} known found in {}", peers.size(),
                                   bench::known_peers().size(), a.peers));
  }
  const std::string text = bench::render_report(report, format, ro);
  std::ofstream out(a.report, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())) || !out.flush()) {
    throw CliError{a.report + ": cannot write the report"};
  }
}

int run_bench(const BenchArgs& a) {
  std::optional<bench::ReportFormat> report_format;
  if (!a.report.empty()) {
    report_format = bench::report_format(a.report);
    if (!report_format) throw CliError{"--report " + a.report + ": expected a .html or .svg file"};
  }
  bench::BenchOptions o;
  o.algorithms = parse_algorithms(a.algos);
  o.search = a.search.options();  // Moving AI moves: no corner cutting, 1 and sqrt(2)
  o.threads = a.threads;
  o.max_queries = a.max_queries;
  o.smooth = a.smooth;
  o.exact_max_cells = a.exact_max_cells;
  const auto smoothing = post::parse_smoothing(a.smoothing);
  if (!smoothing) throw CliError{"--smoothing expects greedy or refined"};
  o.smoothing = *smoothing;
  o.churn = a.churn;
  o.churn_seed = a.seed;
  if (a.endpoints != "centre" && a.endpoints != "corner") {
    throw CliError{"--endpoints expects centre or corner, got '" + a.endpoints + "'"};
  }
  o.corners = a.endpoints == "corner";
  if (o.corners) {
    for (const auto algo : o.algorithms) {
      if (!search::answers_points(algo)) {
        throw CliError{fmt::format(
            "--endpoints corner: {} searches between cell centres; corner endpoints need an "
            "algorithm that takes any point: anyangle-exact",
            search::to_string(algo))};
      }
    }
    if (a.churn > 0) throw CliError{"--endpoints corner does not combine with --churn"};
  }
  if (a.churn > 0 && a.threads > 1 && !a.json) {
    fmt::print(stderr, "pathlab: note: --churn edits the map between queries: one thread\n");
  }
  // Preprocessed data (jps+) comes from the cache folder of `pathlab prepare` when a file there
  // matches the map; otherwise it is built in memory (prep_s is then the build time).
  o.prepare = [cache = a.cache](search::Pathfinder& f) {
    return load_or_prepare(f, f.grid(), f.options().algorithm, cache, false).info;
  };
  std::vector<bench::LoadedScenario> scenarios;
  try {
    for (const auto& p : a.scens) scenarios.push_back(bench::load_scenario(p, a.max_queries));
  } catch (const ParseError& e) {
    throw CliError{e.what()};
  }
  // The competition's dynamic track (version-2 scenarios): the map changes between queries.
  bool dynamic = false;
  for (const auto& s : scenarios) dynamic = dynamic || s.dynamic != nullptr;
  if (dynamic) {
    if (a.churn > 0) throw CliError{"--churn does not combine with a dynamic-track scenario"};
    if (o.corners)
      throw CliError{"--endpoints corner does not combine with a dynamic-track scenario"};
    if (!a.peers.empty()) {
      throw CliError{
          "--peers runs Moving AI scenarios (version 1); the peers of docs/PEERS.md "
          "do not take the dynamic track's files"};
    }
    if (a.threads > 1 && !a.json) {
      fmt::print(stderr,
                 "pathlab: note: a dynamic-track scenario changes the map between "
                 "queries: one thread\n");
    }
  }
  bench::Progress progress;
  if (stderr_is_terminal()) progress = ProgressBar{};
  const bench::Report report = bench::run(scenarios, o, progress);
  std::vector<bench::PeerRow> peers;
  if (!a.peers.empty()) {
    bench::PeerOptions po;
    po.folder = a.peers;
    po.timeout_s = a.peer_timeout;
    // The any-angle entries' lengths are between cell corners: pathlab's own anyangle-exact
    // lengths are their reference when that row ran between corners, else the octile bound.
    // (anyangle-labels gives the same lengths: the first exact any-angle row serves.)
    if (o.corners) {
      for (const bench::Row& r : report.rows) {
        const auto algorithm = search::parse_algorithm(r.algorithm);
        if (algorithm && search::answers_points(*algorithm)) {
          po.anyangle_reference = bench::costs_by_map(r);
          break;
        }
      }
    }
    bench::Progress peer_progress;
    if (stderr_is_terminal()) {
      peer_progress = [](std::size_t done, std::size_t total) {
        fmt::print(stderr, "\rpeers: {}/{} runs", done, total);
        if (done >= total) fmt::print(stderr, "\n");
        std::fflush(stderr);
      };
    }
    peers = bench::run_peers(scenarios, po, peer_progress);
  }
  if (report_format) write_report(a, report, peers, *report_format, scenarios.size());

  if (a.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : report.rows) rows.push_back(json::bench_row(r, a.smooth, a.churn > 0));
    nlohmann::json out{{"results", rows}};
    if (!a.peers.empty()) out["peers"] = json::bench_peers(report, peers);
    fmt::print("{}\n", out.dump());
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
        fmt::print("  {:<10} {:<22} {:>6} queries {:>10.1f} us {:>11.1f} expanded{}{}\n",
                   r.algorithm, m.map, m.queries, m.mean_us, m.mean_expanded,
                   m.edits > 0 ? fmt::format("  {:.2f} us per edit ({} edits)", m.edit_us, m.edits)
                   : m.dynamic
                       ? fmt::format("  {} patches, {:.1f} us per patch, track total {:.4f} s, "
                                     "{:.1f} us per query after the first 10 %",
                                     m.patches, m.patch_us, m.total_s, m.late_us)
                       : "",
                   m.suboptimal ? fmt::format("  {} SUBOPTIMAL", m.suboptimal) : "");
      }
    }
    // Path lengths: relative to the scenario's 8-neighbour optimum and, on the maps where the
    // exact any-angle reference ran, to that.
    bool lengths = a.smooth;
    for (const auto& r : report.rows) lengths = lengths || r.any_angle || !r.optimal;
    if (lengths) {
      auto ratio = [](const bench::Lengths& l) {
        return l.exact_queries > 0 ? fmt::format("{:>8.4f} {:>8.4f}", l.vs_octile, l.vs_exact)
                                   : fmt::format("{:>8.4f} {:>8}", l.vs_octile, "-");
      };
      fmt::print(
          "\nlength / optimum (octile: the scenario's 8-neighbour optimum; exact: the "
          "any-angle optimum, maps up to {} cells){}:\n",
          a.exact_max_cells, a.smooth ? "; smoothed: after " + a.smoothing + " smoothing" : "");
      fmt::print("  {:<14} {:<22} {:>8} {:>8} {:>10}", "algorithm", "map", "octile", "exact",
                 "los/query");
      if (a.smooth) fmt::print("  {:>8} {:>8}", "smoothed", "exact");
      fmt::print("\n");
      for (const auto& r : report.rows) {
        const double los_per_query = r.mean_los_checks;
        for (const auto& m : r.maps) {
          fmt::print("  {:<14} {:<22} {} {:>10}", r.algorithm, m.map, ratio(m.length),
                     r.any_angle ? fmt::format("{:.1f}", m.mean_los_checks) : "");
          if (a.smooth) fmt::print("  {}", ratio(m.smoothed_length));
          fmt::print("\n");
        }
        fmt::print("  {:<14} {:<22} {} {:>10.1f}", r.algorithm, "all", ratio(r.length),
                   los_per_query);
        if (a.smooth) {
          fmt::print("  {}  ({:.1f} us, {:.1f} LOS checks per smoothing)", ratio(r.smoothed_length),
                     r.mean_smooth_us, r.mean_smooth_los);
        }
        fmt::print("\n");
      }
    }
    for (const auto& r : report.rows) {
      if (r.below_exact)
        fmt::print("{}: {} paths BELOW THE EXACT OPTIMUM\n", r.algorithm, r.below_exact);
      for (const auto& f : r.failures) fmt::print("FAIL {}\n", f);
    }
    if (!a.peers.empty()) print_peers(report, peers, a.peers);
    fmt::print("verification: {}\n", report.passed() ? "passed" : "FAILED");
    if (report_format) fmt::print("report: {}\n", a.report);
  }
  return report.passed() ? kExitOk : kExitNegative;
}

}  // namespace

void register_bench(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "run Moving AI scenarios, verify every path against the optimum and time them");
  cmd->add_option("SCEN", args->scens,
                  "Moving AI .scen files (the map is found next to each), or the dynamic "
                  "track's version-2 scenarios (the patch file next to each)")
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
  cmd->add_flag("--smooth", args->smooth,
                "also smooth every path (waypoint pruning) and report its length, timed apart");
  cmd->add_option("--smoothing", args->smoothing, "with --smooth: greedy or refined")
      ->capture_default_str();
  cmd->add_option("--exact-max-cells", args->exact_max_cells,
                  "maps up to N cells also get the exact any-angle optimum of every query, to "
                  "compare any-angle and smoothed lengths with (0 = never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  add_cache_option(*cmd, args->cache);
  cmd->add_option("--churn", args->churn,
                  "a changing map: before each query toggle K seeded random cells (wall <-> "
                  "free) through the edit API and verify against a fresh Dijkstra on the edited "
                  "map; edit_us is the time per edit, repair of preprocessed data included "
                  "(one thread)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "with --churn: the seed of the edits")
      ->capture_default_str();
  cmd->add_option("--report", args->report,
                  "also write a report to OUT.html or OUT.svg: time per query against path "
                  "length per algorithm, and tables of times, expansions and memory");
  cmd->add_option("--peers", args->peers,
                  "also run the research peers found in DIR (docs/PEERS.md: warthog-astar, "
                  "warthog-jps, nlevel-sg-2014, sgch-jpd-2023, and the any-angle entries "
                  "anyangle-polyanya-mcdt, anyangle-eps-mcdt, anyangle-rayscan, anyangle-eps-rec, "
                  "anyangle-polyanya-rec, anyangle-gap-search, best with --algo anyangle-exact "
                  "--endpoints corner) on the same scenarios, after pathlab, and set them beside "
                  "pathlab in the output, --json and --report")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--peer-timeout", args->peer_timeout,
                  "seconds a peer's preprocessing or query run may take before it is stopped")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--endpoints", args->endpoints,
                  "centre: a scenario's X,Y is the centre of cell (X,Y), as in Moving AI's "
                  "benchmarks; corner: its top-left corner, as in the any-angle competition "
                  "(GPPC 2023), for anyangle-exact")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "machine output (fields fixed by the CLI contract)");
  cmd->callback([args, &exit_code] { exit_code = run_bench(*args); });
}

}  // namespace pathlab::cli
