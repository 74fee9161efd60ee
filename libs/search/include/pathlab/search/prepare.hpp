// Per-map preprocessing of the algorithms that have it (jps+: the JPS+ jump-distance table,
// Rabin & Silva 2015 / Harabor & Grastien 2014): build it now instead of on the first query,
// share it between finders (threads), save it to and load it from a file whose header holds a
// format version and the map's checksum, so a stale or foreign file is rejected, never trusted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::search {

/// Version of the file layout written by save_prepared; load_prepared rejects any other.
inline constexpr std::uint32_t kPreparedFormatVersion = 1;

/// Whether the algorithm keeps preprocessed per-map data (jps+).
[[nodiscard]] bool uses_preparation(Algorithm a) noexcept;

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
/// "jps+-0123456789abcdef-v1.prep". A changed map or format gives another name.
[[nodiscard]] std::string prepared_file_name(const grid::Grid& g, Algorithm a);

}  // namespace pathlab::search
