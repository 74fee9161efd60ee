// The Moving AI benchmark runner: it verifies while it measures. Every returned path is checked
// for legality, its cost recomputed and compared with the scenario's optimum (tolerance of
// shared docs/ALGORITHMS.md), and search time is taken per query, apart from map loading.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/io/dynamic.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

namespace pathlab::bench {

/// |cost - optimum| <= 0.005 + 1e-5 * optimum: Moving AI files print optima with limited
/// precision (2 decimals in the bg512 set).
[[nodiscard]] bool within_tolerance(double cost, double optimum) noexcept;

/// What run() measures and how.
struct BenchOptions {
  /// The algorithms to run, one Row each, in this order (default: A* alone).
  std::vector<search::Algorithm> algorithms{search::Algorithm::astar};
  search::Options search;       ///< heuristic, weight, moves, node limit (algorithm is overridden)
  int threads = 1;              ///< one Pathfinder per thread
  std::size_t max_queries = 0;  ///< per scenario file, spread evenly over its lines; 0 = all
  /// Also smooth every found path (post::smooth) and report its length, timed apart.
  bool smooth = false;
  post::Smoothing smoothing = post::Smoothing::refined;  ///< the method, with `smooth`
  /// Maps with at most this many cells also get the exact any-angle optimum of each query
  /// (anyangle-exact, untimed) when an any-angle algorithm or smoothing is measured, so that
  /// lengths can be compared with it. 0: never.
  std::int64_t exact_max_cells = 300 * 300;
  /// Gives a finder its algorithm's preprocessed data for its map (algorithms with
  /// search::uses_preparation), once per map and algorithm, timed as prep_s; the threads share
  /// the result. Empty: search::prepare (built in memory). The CLI loads from its cache folder.
  std::function<search::PrepareInfo(search::Pathfinder&)> prepare;
  /// Changing maps (DESIGN.md, bench --churn K): before each query, K seeded random cells of a
  /// copy of the map (never the query's start or goal) are toggled wall <-> free through the
  /// edit API; a start or goal an earlier toggle blocked is freed first (those edits count
  /// too). After the edits the finder brings its preprocessed data up to date
  /// (search::prepare): that time, with the edits', is Row::edit_us. Every answer is verified
  /// against a fresh Dijkstra on the edited map instead of the scenario's optimum (a goal cut
  /// off counts as solved when the algorithm says no_path). Every algorithm sees the same edits.
  /// Runs on one thread. 0: the maps stay as loaded.
  int churn = 0;
  std::uint64_t churn_seed = 1;  ///< seeds the churn's random cells (with the map's index)
  /// The any-angle competition's endpoints (GPPC 2023 any-angle track): a scenario's (x, y) is
  /// the top-left corner of cell (x, y), not its centre, and queries run through
  /// Pathfinder::find_corners. Only for algorithms with search::answers_points; the exact
  /// optima (exact_max_cells) are then between corners too.
  bool corners = false;
};

/// Mean length ratios of a set of solved queries (0 when there was nothing to average).
struct Lengths {
  double vs_octile = 0;  ///< mean cost / scenario optimum (the 8-neighbour grid optimum)
  double vs_exact = 0;   ///< mean cost / exact any-angle optimum, over queries where it ran
  std::size_t exact_queries = 0;  ///< queries vs_exact averages over (0: it is not measured)
};

/// One query as measured: what a report plots.
struct QuerySample {
  double optimal = 0;          ///< the scenario's optimal length (the x axis of the plots)
  double time_us = 0;          ///< search time
  std::uint64_t expanded = 0;  ///< nodes expanded (search::Stats::expanded)
  std::uint32_t map = 0;       ///< index in Row::maps
  Status status = Status::invalid_input;  ///< what the search answered
  double cost = -1;  ///< the length found (Result::cost); < 0 when none was found
};

/// One algorithm on one scenario file.
struct MapRow {
  std::string map;          ///< the map's file name (LoadedScenario::map_name)
  std::size_t queries = 0,  ///< queries run (the scenario's selected entries)
      solved = 0,           ///< found (legal or not), or no_path where the churn cut the goal off
      suboptimal = 0;       ///< solved but longer than the optimum allows (see Row::suboptimal)
  double mean_us = 0,       ///< search time per query (µs), over every query run
      mean_expanded = 0;    ///< nodes expanded per query, over every query run
  double median_us = 0,     ///< median search time (µs)
      p99_us = 0;           ///< 99th-percentile search time (µs)
  /// Search state of one finder (one thread) after its queries on this map: node records, open
  /// list and per-finder caches. Estimated when the library does not report it (see
  /// Row::memory_estimated).
  std::size_t memory_bytes = 0;
  std::size_t prep_bytes = 0;  ///< preprocessed data (jps+), shared by the threads
  double prep_s = 0;           ///< time to build it (or to load it: prep_loaded)
  double edit_us = 0;          ///< churn: mean time per edit, repair included
  std::size_t edits = 0;       ///< churn: edits made
  /// A scenario of the competition's dynamic track (LoadedScenario::dynamic): the patches,
  /// their time and the track's total are measured.
  bool dynamic = false;
  std::size_t patches = 0;  ///< dynamic: P commands applied
  /// dynamic: mean time per P command (µs), the repair of preprocessed data included (the
  /// finder is brought up to date, search::prepare, before the query that follows).
  double patch_us = 0;
  /// dynamic: the track's total (s): every patch and every query, what the track counts.
  double total_s = 0;
  /// dynamic: mean search time (µs) of the queries after the first 10 % of the commands (the
  /// map has taken its shape; the first queries of a scenario may run on a blank map).
  double late_us = 0;
  bool prep_loaded = false;    ///< the preprocessed data was loaded (a cache), not built
  double mean_los_checks = 0;  ///< line-of-sight checks per query (search)
  Lengths length;              ///< of the algorithm's paths
  Lengths smoothed_length;     ///< of the smoothed paths (BenchOptions::smooth)
};

/// One algorithm over every scenario: the sums and the verdict.
struct Row {
  std::string algorithm;    ///< its name, as search::to_string() spells it ("astar", "jps", ...)
  bool optimal = false;     ///< the algorithm promises least cost
  std::size_t queries = 0,  ///< queries run over every map
      solved = 0,           ///< as MapRow::solved, over every map
      suboptimal = 0,       ///< solved outside within_tolerance() of the optimum (optimal
                            ///< algorithms), or longer than the octile optimum (anyangle-exact)
      illegal = 0,          ///< found a path that breaks the map's rules (ends, steps, sight)
      gave_up = 0;          ///< stopped at the node limit (not counted as missed)
  std::size_t missed = 0;   ///< no path reported on a scenario that has one
  double max_error = 0;     ///< largest |cost - optimum| over solved queries
  double mean_ratio = 0;    ///< mean cost / optimum over solved queries with optimum > 0
  double mean_us = 0,       ///< search time per query (µs), over every query
      median_us = 0,        ///< median search time (µs) over every query
      p99_us = 0,           ///< 99th-percentile search time (µs) over every query
      mean_expanded = 0;    ///< nodes expanded per query
  double expansions_per_s = 0;  ///< total expanded / total search time
  double prep_s = 0;            ///< preprocessing, total seconds over the maps
  double edit_us = 0;           ///< churn: mean time per edit over every map, repair included
  std::size_t edits = 0;        ///< churn: edits made
  bool dynamic = false;         ///< some map is a dynamic-track scenario (MapRow::dynamic)
  std::size_t patches = 0;      ///< dynamic: P commands applied over every map
  double patch_us = 0;          ///< dynamic: mean time per P command over every map (µs)
  double total_s = 0;           ///< dynamic: the track's total over every map (s)
  /// Largest per-map search state + preprocessed data (MapRow::memory_bytes + prep_bytes).
  std::size_t memory_bytes = 0;
  bool memory_estimated = false;  ///< memory_bytes computed from the map size, not reported
  bool any_angle = false;         ///< lengths are Euclidean; legality is line of sight
  std::size_t below_exact = 0;    ///< any-angle cost below the exact optimum (a bug)
  double mean_los_checks = 0;     ///< line-of-sight checks per query (search)
  Lengths length;                 ///< over every map
  Lengths smoothed_length;        ///< BenchOptions::smooth
  double mean_smooth_us = 0;      ///< time to smooth a path
  double mean_smooth_los = 0;     ///< line-of-sight checks per smoothing
  std::vector<MapRow> maps;       ///< one per scenario file, in the order given to run()
  /// Every query run, in scenario order (time per query against path length, for reports).
  std::vector<QuerySample> samples;
  std::vector<std::string> failures;  ///< first few verification failures, for the user

  /// No illegal path, no missed or below-exact answer, and no suboptimal one if it is optimal.
  [[nodiscard]] bool passed() const noexcept {
    return illegal == 0 && missed == 0 && below_exact == 0 && (!optimal || suboptimal == 0);
  }
};

/// What run() returns.
struct Report {
  std::vector<Row> rows;  ///< one per BenchOptions::algorithms entry, in that order
  /// Whether every row passed (Row::passed()); true for no rows.
  [[nodiscard]] bool passed() const noexcept;
};

/// A scenario file with its map, checked against each other.
struct LoadedScenario {
  io::ScenarioFile file;              ///< the .scen file's entries (never empty)
  grid::Grid grid;                    ///< its Moving AI map, every entry checked to fit it
  std::string map_name;               ///< basename of the map file
  std::vector<std::size_t> selected;  ///< indices of entries to run
  /// A scenario of the competition's dynamic track (shared docs/DESIGN.md, "Changing maps in
  /// the competition's format"), else null. Then `grid` is the open map it starts from,
  /// `file.entries` are its queries (optimal < 0: no path), `map_name` the scenario file's
  /// name, and run() pastes every patch command, in order, before the query that follows it.
  std::shared_ptr<const io::DynamicScenario> dynamic;
  /// dynamic: the index in dynamic->commands of each entry's Q command.
  std::vector<std::size_t> command_of;
};

/// Whether the file at `path` is a scenario of the competition's dynamic track ("version 2").
[[nodiscard]] bool is_dynamic_scenario_file(const std::string& path);

/// Loads a .scen file and its map (resolved by basename next to it), or a dynamic-track
/// scenario and its patch file (is_dynamic_scenario_file). Throws ParseError naming the .scen
/// line when an entry does not fit the map (size, coordinates, walls), or the file and line at
/// fault in a dynamic scenario or its patches.
LoadedScenario load_scenario(const std::string& scen_path, std::size_t max_queries);

/// progress(done, total) is called from the calling thread now and then.
using Progress = std::function<void(std::size_t done, std::size_t total)>;

/// Runs every algorithm over every scenario. Never throws for search failures: they are counted.
Report run(const std::vector<LoadedScenario>& scenarios, const BenchOptions& options,
           const Progress& progress = {});

/// The length each query of `row` found, one list per map (Row::maps order) in the order of its
/// selected queries; < 0 where none was found. What the any-angle peers are checked against.
[[nodiscard]] std::vector<std::vector<double>> costs_by_map(const Row& row);

}  // namespace pathlab::bench
