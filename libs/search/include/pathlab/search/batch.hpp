// Batch queries: many queries answered on a pool of threads, each thread with its own
// Pathfinder, on one shared const grid. Preprocessed data (jps+ tables, subgoal graphs) and
// unit views are built once and shared. What a server or a Python find_many runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/pathfinder.hpp>

namespace pathlab::search {

/// One query of a batch: a path from `start` to `goal`, answered as Pathfinder::find does.
struct Query {
  Cell start;  ///< where the path starts
  Cell goal;   ///< where the path must end
};

/// A pool of finders for batches on one grid, kept between batches: their workspaces stay
/// warm and the preprocessed data (and unit view) is built once, by the first, and shared.
/// Each batch runs on `threads` threads started for it (one of them the caller's).
///
/// Lifetimes and threads (as Pathfinder's): it keeps a pointer to the grid, which must outlive
/// it and stay at its address. find() is called by one thread at a time. The grid may be
/// edited between batches, never during one (its threads read the cells without locks); after
/// an edit each finder of the pool repairs its own data on its next query, as a Pathfinder
/// does (Result::fallback says when subgoal methods answer with jps+ or jps meanwhile).
class BatchFinder {
 public:
  /// A pool over `g` (which must outlive it) for `options`; prepares the first finder's data
  /// now and shares it with the others. threads: 0 for one per hardware thread. [Throws
  /// std::bad_alloc.]
  BatchFinder(const grid::Grid& g, const Options& options, int threads = 0);
  /// Answers queries[i] into results[i], as find_batch does.
  std::size_t find(std::span<const Query> queries, std::span<Result> results,
                   const std::atomic<bool>* cancel = nullptr) noexcept;
  /// The finders in the pool, >= 1: a batch runs on at most this many threads (fewer when it
  /// has few queries).
  [[nodiscard]] int threads() const noexcept { return static_cast<int>(finders_.size()); }
  /// The options its finders answer with.
  [[nodiscard]] const Options& options() const noexcept { return finders_.front()->options(); }

 private:
  std::vector<std::unique_ptr<Pathfinder>> finders_;
};

/// Answers queries[i] into results[i] (results.size() >= queries.size()) with `threads`
/// threads (0: one per hardware thread; never more than there are queries). Each result is
/// what Pathfinder::find gives for its query. `cancel` (optional) is read between queries:
/// once it is true the threads stop, and the queries not run keep status invalid_input.
/// Returns the number of queries answered. Never throws: a thread that cannot start leaves its
/// share to the others. The grid must not be edited while it runs.
std::size_t find_batch(const grid::Grid& g, const Options& options, std::span<const Query> queries,
                       std::span<Result> results, int threads = 0,
                       const std::atomic<bool>* cancel = nullptr) noexcept;

}  // namespace pathlab::search
