// The research implementations pathlab is measured against (shared docs/PEERS.md), run side by
// side with pathlab's own rows on the same scenario files: each peer's executable is started in a
// scratch folder, its preprocessing timed, its per-query times read from what it writes and its
// path lengths checked against the scenario's optima (grid peers) or against pathlab's exact
// any-angle lengths between the same cell corners (the any-angle entries). Peers are found by
// file name in one folder; a missing one is skipped. Nothing of theirs is linked: they run as
// separate processes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pathlab/bench/bench.hpp>

namespace pathlab::bench {

/// How a peer is started and how its output is read.
enum class PeerKind : std::uint8_t {
  warthog,   ///< `--alg ALG --scen S --map M`; stdout rows: column 8 is nanoseconds
  gppc2014,  ///< `-pre M S`, then `-run M S` beside copies of M and S; lines with total-time (s)
  gppc2023,  ///< `-pre M S` (index in index_data/), then `-run M S`; result.csv, time_cost (ns)
};

/// One peer implementation and how to run it.
struct Peer {
  std::string executable;             ///< file name in the peers' folder
  std::string label;                  ///< for tables: "SGCH-JPD, GPPC 2023"
  PeerKind kind = PeerKind::warthog;  ///< its command line and output format
  std::string variant;                ///< warthog's --alg
  bool preprocessed = false;  ///< builds an index first: compared with pathlab's preprocessed rows
  /// pathlab's algorithm of the same family (A*, JPS, JPS+, anyangle-exact); without one, for
  /// preprocessed peers the fastest of pathlab's preprocessed rows is the counterpart instead.
  std::optional<search::Algorithm> counterpart;
  /// An entry of the GPPC 2023 any-angle track: its lengths are Euclidean, between the cell
  /// CORNERS a scenario's (x, y) name (the top-left corner of cell (x, y)), so they are checked
  /// against pathlab's anyangle-exact between the same corners or, without that, against the
  /// scenario's octile optimum as an upper bound (LengthCheck).
  bool any_angle = false;
};

/// The peers of shared docs/PEERS.md: warthog A*, JPS and JPS2+, the GPPC 2014 N-level subgoal
/// graphs, the GPPC 2023 SGCH-JPD entry and the six entries of the GPPC 2023 any-angle track
/// (Polyanya_MCDT, EPS_MCDT, RayScan, EPS_Rec, Polyanya_Rec, Gap_Search).
[[nodiscard]] const std::vector<Peer>& known_peers();

/// One query as a peer reported it.
struct PeerQuery {
  double time_us = 0;  ///< the peer's own time for the query (µs), converted from its unit
  double length = -1;  ///< < 0: the peer's output gives no length
};

// The parsers below return one PeerQuery per query line of a peer's output, in scenario order;
// malformed lines are skipped, so a short result means the output was not what was expected.

/// warthog's stdout: tab-separated rows, the time from the "nanos" column (column 8 without a
/// header line) and the length from "pcost" when the header names it.
[[nodiscard]] std::vector<PeerQuery> parse_warthog(std::string_view text);
/// GPPC 2014 output: tab-separated lines whose 2nd field is "total-time", the time in seconds
/// in the 3rd and the length after a "total-len" field when there is one.
[[nodiscard]] std::vector<PeerQuery> parse_gppc2014(std::string_view text);
/// GPPC 2023 result.csv: comma-separated rows after a header naming the columns, the time in
/// nanoseconds from "time_cost" and the length from "path_length" when present.
[[nodiscard]] std::vector<PeerQuery> parse_gppc2023(std::string_view text);

/// What a peer's lengths were checked against (PeerMapRow::check).
enum class LengthCheck : std::uint8_t {
  /// The scenario's 8-neighbour optimum, within ALGORITHMS.md's tolerance (within_tolerance).
  scenario_optimum,
  /// Any-angle lengths with no pathlab reference: at most the scenario's octile optimum +
  /// kOctileSlack (suboptimal above it), and no shorter than the straight line between the
  /// corners (`below` under it). A bound only: a suboptimal path under it passes.
  octile_bound,
  /// Any-angle lengths against pathlab's anyangle-exact length between the same corners, within
  /// kExactRelative relative: longer is suboptimal, shorter is `below` (pathlab's claim of
  /// exactness broken, or the peer's path not legal).
  pathlab_exact,
};

/// "scenario optimum", "octile bound", "pathlab anyangle-exact" (for the output).
[[nodiscard]] std::string_view to_string(LengthCheck check) noexcept;

/// The slack of LengthCheck::octile_bound (the scenario files print optima to 8 decimals).
inline constexpr double kOctileSlack = 1e-4;
/// The relative tolerance of LengthCheck::pathlab_exact (result.csv prints 9 decimals).
inline constexpr double kExactRelative = 1e-6;

/// One peer on one scenario file.
struct PeerMapRow {
  std::string map;             ///< the map's file name (LoadedScenario::map_name)
  std::size_t queries = 0;     ///< the scenario's selected queries the figures cover
  std::size_t checked = 0;     ///< of those, with a length to check
  std::size_t suboptimal = 0;  ///< lengths longer than `check` allows
  std::size_t below = 0;       ///< any-angle lengths shorter than `check` allows (a problem)
  LengthCheck check = LengthCheck::scenario_optimum;  ///< what the lengths were checked against
  double mean_us = 0;                                 ///< over the selected queries
  double prep_s = 0;  ///< wall time of the preprocessing step (0 for warthog)
  std::string error;  ///< why there are no figures (not found, timeout, crash, output)
  /// Whether the figures are valid (no error).
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

/// One peer over every scenario file.
struct PeerRow {
  Peer peer;                     ///< the peer that ran
  std::vector<PeerMapRow> maps;  ///< one per scenario, in the order given
  /// Over the maps with figures, weighted by their queries (0 when none has any).
  std::size_t queries = 0;
  double mean_us = 0;  ///< time per query (µs), over the same maps and weighting as `queries`
};

/// Where run_peers() finds the peers and how long it lets them run.
struct PeerOptions {
  std::string folder;         ///< where the executables are (PEERS.md: peers/bin)
  double timeout_s = 600;     ///< per step (preprocessing, queries); then the peer is killed
  std::string scratch;        ///< scratch folders go here; empty: the system's temp folder
  std::vector<Peer> peers{};  ///< empty: known_peers()
  /// pathlab's own anyangle-exact lengths between the same cell corners, one list per scenario
  /// (costs_by_map of its row, run with BenchOptions::corners): the any-angle peers' lengths are
  /// checked against them. Empty: against the octile bound.
  std::vector<std::vector<double>> anyangle_reference{};
};

/// Runs every peer found in options.folder on every scenario (the .scen file and its map as
/// loaded, the selected queries compared), one process at a time. Peers not found are left out.
/// progress(done, total) counts peer runs.
[[nodiscard]] std::vector<PeerRow> run_peers(const std::vector<LoadedScenario>& scenarios,
                                             const PeerOptions& options,
                                             const Progress& progress = {});

/// One peer on one scenario (exposed for tests). An any-angle peer's lengths are checked against
/// `reference` (pathlab's anyangle-exact lengths between corners) when given, else against the
/// octile bound;
/// options.anyangle_reference is for run_peers.
[[nodiscard]] PeerMapRow run_peer(const Peer& peer, const LoadedScenario& scenario,
                                  const PeerOptions& options,
                                  const std::vector<double>* reference = nullptr);

/// The pathlab row a peer is set against on map k: for an any-angle entry the fastest verified
/// exact any-angle row (anyangle-exact or anyangle-labels: search::answers_points); else the
/// same family when it was measured, the fastest verified preprocessed
/// (search::uses_preparation) row for preprocessed peers, or none.
[[nodiscard]] const Row* counterpart(const Peer& peer, const Report& report, std::size_t k);

/// A peer's map k against pathlab: the counterpart row, when the peer's run there verified with
/// no suboptimal answer (else null), and the ratio of the mean times (peer / pathlab: > 1,
/// pathlab is faster; 0 when there is no row or its time is 0).
[[nodiscard]] std::pair<const Row*, double> versus(const PeerRow& p, const Report& report,
                                                   std::size_t k);

}  // namespace pathlab::bench
