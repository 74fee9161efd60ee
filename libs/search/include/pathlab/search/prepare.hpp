// Per-map preprocessing of the algorithms that have it (jps+: the JPS+ jump-distance table,
// Rabin & Silva 2015 / Harabor & Grastien 2014; subgoal and subgoal-ch: their subgoal graphs):
// build it now instead of on the first query, ask where it stands and wait for its rebuild
// after edits, share it between finders (threads), save it to and load it from a file whose
// header holds a format version and the map's checksum, so a stale or foreign file is
// rejected, never trusted.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::search {

/// Version of the file layout written by save_prepared; load_prepared rejects any other.
inline constexpr std::uint32_t kPreparedFormatVersion = 1;

/// Whether the algorithm keeps preprocessed per-map data (jps+).
[[nodiscard]] bool uses_preparation(Algorithm a) noexcept;

/// What a finder's preprocessed data is (prepare(), prepared_info()).
struct PrepareInfo {
  bool ready = false;     ///< the finder holds data for its grid (false: none, or it falls back)
  bool loaded = false;    ///< the data came from load_prepared (or a finder sharing it did)
  double seconds = 0;     ///< time to build it, or to read and verify it when loaded
  std::size_t bytes = 0;  ///< memory the data occupies
};

/// Helper with access to a finder's workspace; implementation detail of the functions below.
struct PreparedAccess;

/// Builds the finder's preprocessed data for its grid and options now (otherwise the first
/// query does, outside its timed part). Does nothing if it is up to date. ready = false when
/// the algorithm has none or does not use it here (terrain, another diagonal rule: the finder
/// answers with A* and says so in Result::note). Never throws: ready = false on bad_alloc.
PrepareInfo prepare(Pathfinder& finder) noexcept;

/// What the finder holds now (ready = false before prepare or the first query).
[[nodiscard]] PrepareInfo prepared_info(const Pathfinder& finder) noexcept;

/// Where a finder's preprocessed data stands for its grid as it is now.
enum class PrepareState : std::uint8_t {
  none,      ///< nothing to prepare: the algorithm keeps no data (not jps+, subgoal or
             ///< subgoal-ch), or does not use it here and falls back (fallback_for says why),
             ///< or the options' unit is invalid
  missing,   ///< not built yet: prepare(), wait_prepared() or the next query builds it, on the
             ///< calling thread
  stale,     ///< built for cells the grid no longer has (it was edited): the next query or
             ///< prepare() repairs it (jps+'s table; subgoal's and subgoal-ch's graph after an
             ///< edit over at most 1/16 of the map), else starts a rebuild on another thread
             ///< there (or in wait_prepared), jps+ (or jps) answering meanwhile
  building,  ///< subgoal, subgoal-ch: a rebuild runs on another thread; queries meanwhile are
             ///< answered by the grown graph, repaired, while it stays fit, else by jps+
             ///< (jps on maps of over 2^21 cells)
             ///< (Result::fallback == Fallback::rebuilding; fallback_for says which)
  ready,     ///< up to date: the next query uses it (a finished rebuild is taken over by the
             ///< next query or wait_prepared, without waiting)
};
/// "none", "missing", "stale", "building", "ready".
[[nodiscard]] std::string_view to_string(PrepareState s) noexcept;

/// Where the finder's preprocessed data stands (PrepareState). Never blocks, builds nothing,
/// never waits for a rebuild: cheap (a revision compare; after an edit that left the walls as
/// they were, one compare of the wall bits). Like every call on a finder, from the thread
/// using it (the rebuild's own thread only reads a copy of the grid and hands its result over
/// through a future, so a query and a rebuild never race).
[[nodiscard]] PrepareState preparation_state(const Pathfinder& finder) noexcept;

/// Brings the finder's preprocessed data up to date and waits at most `timeout` for a rebuild
/// on another thread: what a caller does after edits that wants the next queries answered by
/// the algorithm itself (subgoal, subgoal-ch) instead of jps. By state: none: returns true at
/// once (nothing to wait for); missing, or stale for jps+: builds or repairs now, on this
/// thread, whatever the timeout (as prepare() does); stale for subgoal methods: starts the
/// rebuild; building: waits for it, up to the deadline; ready: takes a finished rebuild over.
/// Edits made while a rebuild runs make it stale: another starts, within the same deadline.
/// True when the state is then ready (or none); false on timeout (the rebuild goes on; ask
/// again later) or when memory ran out. Blocks only its caller: other finders and threads
/// keep querying. Same thread rules as the finder's queries.
bool wait_prepared(Pathfinder& finder, std::chrono::milliseconds timeout) noexcept;

/// How the finder's next query will be answered: fallback_for(grid, options) of its grid and
/// options, and Fallback::rebuilding (answered_by jps+, or jps on maps of over 2^21 cells)
/// while its subgoal graph is stale or being rebuilt.
[[nodiscard]] FallbackInfo fallback_for(const Pathfinder& finder) noexcept;

/// Lets `to` use the (immutable) data of `from`: threads share one table instead of building
/// one each. False (and `to` untouched) when `from` has none or the two grids' walls differ.
bool share_prepared(const Pathfinder& from, Pathfinder& to) noexcept;

/// Writes the finder's data (preparing it first if needed): a header (magic, format version,
/// algorithm, width, height, the map's Grid::checksum(), payload size and payload checksum)
/// then the table. False when the algorithm has no data here or the stream fails.
bool save_prepared(Pathfinder& finder, std::ostream& out);

/// Reads data written by save_prepared into the finder. Returns false, leaving the finder as it
/// was, on any mismatch: magic, format version, algorithm, map size or checksum (the map
/// changed: a stale file; or another map: a foreign one), payload size or checksum (a damaged
/// file), or a read error. The caller then prepares afresh (and may save again).
bool load_prepared(Pathfinder& finder, std::istream& in);

/// A file name for the cache folder: algorithm, map checksum and format version, e.g.
/// "jps+-0123456789abcdef-v1.prep". A changed map or format gives another name, and so does
/// another diagonal rule for the one algorithm that prepares under every rule (anyangle-labels:
/// "anyangle-labels-always-0123456789abcdef-v1.prep"; no-corner-cut is not named).
[[nodiscard]] std::string prepared_file_name(
    const grid::Grid& g, Algorithm a, grid::DiagonalRule rule = grid::DiagonalRule::no_corner_cut);

}  // namespace pathlab::search
