// find_batch: a pool of threads over one shared const grid, queries handed out in small chunks
// from an atomic counter (neighbouring queries of a scenario file share cache lines of the
// search state they touch; chunks keep them on one thread).
#include <pathlab/search/batch.hpp>

#include <algorithm>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include <pathlab/search/prepare.hpp>

namespace pathlab::search {
namespace {
constexpr std::size_t kChunk = 8;  // queries taken at a time by a thread
}  // namespace

BatchFinder::BatchFinder(const grid::Grid& g, const Options& options, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  finders_.push_back(std::make_unique<Pathfinder>(g, options));
  Pathfinder& first = *finders_.front();
  if (uses_preparation(options.algorithm)) (void)prepare(first);
  (void)first.searched_grid();
  for (int t = 1; t < threads; ++t) {
    finders_.push_back(std::make_unique<Pathfinder>(g, options));
    (void)share_prepared(first, *finders_.back());
  }
}

std::size_t BatchFinder::find(std::span<const Query> queries, std::span<Result> results,
                              const std::atomic<bool>* cancel) noexcept {
  const std::size_t n = std::min(queries.size(), results.size());
  for (std::size_t i = 0; i < n; ++i) {
    results[i].status = Status::invalid_input;
    results[i].path.clear();
  }
  if (n == 0) return 0;
  const std::size_t pool = std::min(finders_.size(), (n + kChunk - 1) / kChunk);
  std::atomic<std::size_t> next{0}, answered{0};
  auto work = [&](Pathfinder& finder) {
    std::size_t done = 0;
    for (;;) {
      // Chunks of kChunk, then single queries for the last few per thread: a batch whose
      // queries grow longer toward its end (Moving AI files are sorted by length) would
      // otherwise end on one thread finishing a chunk of the longest while the others wait.
      const std::size_t seen = next.load(std::memory_order_relaxed);
      const std::size_t step = n - std::min(n, seen) > pool * kChunk * 8 ? kChunk : 1;
      const std::size_t begin = next.fetch_add(step, std::memory_order_relaxed);
      if (begin >= n) break;
      const std::size_t end = std::min(n, begin + step);
      for (std::size_t i = begin; i < end; ++i) {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
          answered.fetch_add(done);
          return;
        }
        finder.find(queries[i].start, queries[i].goal, results[i]);
        ++done;
      }
    }
    answered.fetch_add(done);
  };
  std::vector<std::thread> workers;
  try {
    workers.reserve(pool);
    for (std::size_t t = 1; t < pool; ++t) workers.emplace_back([&, t] { work(*finders_[t]); });
  } catch (const std::exception&) {
    // The threads that started, and this one, share the queries.
  }
  work(*finders_.front());
  for (auto& w : workers) w.join();
  return answered.load();
}

std::size_t find_batch(const grid::Grid& g, const Options& options, std::span<const Query> queries,
                       std::span<Result> results, int threads,
                       const std::atomic<bool>* cancel) noexcept {
  try {
    BatchFinder pool(g, options, threads);
    return pool.find(queries, results, cancel);
  } catch (const std::bad_alloc&) {
    const std::size_t n = std::min(queries.size(), results.size());
    for (std::size_t i = 0; i < n; ++i) results[i].status = Status::invalid_input;
    return 0;
  }
}

}  // namespace pathlab::search
