// Internal to the search module: jps+'s differential heuristic (Goldberg & Harrelson 2005,
// "Computing the shortest path: A* search meets graph theory"; Sturtevant et al. 2009,
// "Memory-based heuristics for explicit state spaces"), kept exact under map edits.
//
// k landmark cells L_i, and for every cell n the distance D_i(n) from L_i in a graph G'. Then
//   h(n) = max_i |D_i(t) - D_i(n)|
// is a lower bound on the distance from n to the goal t in every graph whose shortest paths
// are no shorter than G''s, and consistent (|D_i(u) - D_i(v)| <= c(u, v) for every move u-v
// of G'). G' is the map as built, with every cell opened since added: opening a cell only adds
// moves, so the distances are repaired by a Dijkstra that lowers them outward from the opened
// cells; a cell that becomes a wall stays in G' (G' then has moves the map lacks, and every
// distance of the map is at least G''s: the bound still holds, only weaker). Once the walls
// kept open exceed a share of the map, the owner builds it afresh.
//
// Landmarks are chosen farthest first within the largest connected component (each the cell
// farthest from those chosen). A goal outside it, where every D_i is infinite, gets no bound
// from them (the octile distance alone).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <span>
#include <vector>

#include <pathlab/grid/grid.hpp>

#include "components.hpp"
#include "radix_queue.hpp"

namespace pathlab::search::detail {

/// An allocator on 64-byte boundaries, so that a cell's row of distances starts a cache
/// line. Blocks of 2 MiB and more start on a 2 MiB boundary and, on Linux, ask for huge pages
/// (madvise: a query reads rows all over a table of up to 128 MiB, and with 4 KiB pages most
/// reads also miss the TLB).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::size_t kHuge = std::size_t{1} << 21;
  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
  static std::align_val_t alignment(std::size_t bytes) noexcept {
    return std::align_val_t{bytes >= kHuge ? kHuge : 64};
  }
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    void* p = ::operator new(bytes, alignment(bytes));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= kHuge) (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: ignored if refused
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    ::operator delete(p, alignment(n * sizeof(T)));
  }
  friend bool operator==(CacheLineAllocator, CacheLineAllocator) noexcept {
    return true;
  }
};

class Landmarks {
 public:
  /// At most this many landmarks; fewer when their tables would pass kMaxBytes.
  static constexpr int kMax = 16;
  static constexpr std::size_t kMaxBytes = std::size_t{128} << 20;
  /// Fewer than this many landmarks fit: none are kept (the map is too large).
  static constexpr int kMin = 2;

  /// The per-query view: the goal's distances, so that h(n) reads one row of the table.
  struct Goal {
    const double* table = nullptr;  ///< null: no landmark reaches the goal (h is 0)
    int k = 0;
    double at_goal[kMax];  ///< the first k set (left uninitialised: a query fills it)
    double margin = 0;     ///< taken off: rounding of the sums in the tables
    [[nodiscard]] double h(grid::NodeId n) const noexcept {
      const double* row = table + static_cast<std::size_t>(n) * static_cast<std::size_t>(k);
      // Four running maxima without branches (a compare per landmark was mispredicted often).
      double b0 = 0, b1 = 0, b2 = 0, b3 = 0;
      int i = 0;
      for (; i + 4 <= k; i += 4) {
        b0 = std::max(b0, std::abs(at_goal[i] - row[i]));
        b1 = std::max(b1, std::abs(at_goal[i + 1] - row[i + 1]));
        b2 = std::max(b2, std::abs(at_goal[i + 2] - row[i + 2]));
        b3 = std::max(b3, std::abs(at_goal[i + 3] - row[i + 3]));
      }
      for (; i < k; ++i) b0 = std::max(b0, std::abs(at_goal[i] - row[i]));
      return std::max(std::max(b0, b1), std::max(b2, b3)) - margin;
    }
  };

  /// Chooses the landmarks in g's largest component of `comps` (labelled for g) and fills
  /// the tables for moves of cost `straight` and `diagonal` without corner cutting. Leaves
  /// none when the map has no free cell or is too large (throws std::bad_alloc).
  void build(const grid::Grid& g, const Components& comps, double straight, double diagonal);
  /// Brings the tables up to date after the cells in `areas` changed (Grid::changes_since):
  /// opened cells join G' and lower the distances they shorten; new walls stay in G'. A
  /// landmark whose repair settles more than `budget` cells is given up (its column zeroed:
  /// it adds nothing to the bound); once all are, the tables are cleared (empty()) and the
  /// result is false.
  bool repair(const grid::Grid& g, std::span<const grid::Rect> areas, std::int64_t budget);
  /// The cells of G': one landmark's build settles as many.
  [[nodiscard]] std::int64_t cells() const noexcept { return open_cells_; }
  /// The landmarks not given up.
  [[nodiscard]] int alive() const noexcept { return k_ - std::popcount(dead_); }
  /// Whether the map has so many walls kept open in G' that the bound has grown weak (a
  /// twentieth of G''s cells): the owner should build afresh.
  [[nodiscard]] bool stale() const noexcept { return stale_ * 20 > open_cells_ + 400; }
  [[nodiscard]] bool empty() const noexcept { return k_ == 0; }
  /// Whether the tables were built for these move costs.
  [[nodiscard]] bool fits(double straight, double diagonal) const noexcept {
    return k_ > 0 && straight == straight_ && diagonal == diagonal_;
  }
  [[nodiscard]] int count() const noexcept { return k_; }
  /// Whether g is small enough for kMin landmarks.
  [[nodiscard]] static bool applies(const grid::Grid& g) noexcept {
    return g.padded_size() * sizeof(double) * kMin <= kMaxBytes;
  }
  double seconds = 0;  ///< time of the last build
  /// The padded id of landmark i (i < count()).
  [[nodiscard]] grid::NodeId landmark(int i) const noexcept {
    return marks_[static_cast<std::size_t>(i)];
  }
  /// D_i(n): the distance from landmark i in G' (infinite when it does not reach n).
  [[nodiscard]] double distance(int i, grid::NodeId n) const noexcept {
    return d_[static_cast<std::size_t>(n) * static_cast<std::size_t>(k_) +
              static_cast<std::size_t>(i)];
  }
  /// Fills the view for goal t (table null when the landmarks do not reach t). In place: a
  /// query's fixed cost is a few dozen ns, and zeroing and copying a Goal took a tenth of it.
  void toward(grid::NodeId t, Goal& goal) const noexcept;
  void clear() noexcept;
  [[nodiscard]] std::size_t bytes() const noexcept {
    return d_.capacity() * sizeof(double) + (open_.capacity() + kept_.capacity()) * 8 +
           marks_.capacity() * sizeof(grid::NodeId);
  }

 private:
  [[nodiscard]] bool open(grid::NodeId n) const noexcept { return (open_[n >> 6] >> (n & 63)) & 1; }
  /// Lowers the distances at(n) outward from the cells queued in q_ (a Dijkstra over G'),
  /// stopping once `work` cells were settled past `budget` (false).
  template <class At>
  bool settle(At&& at, std::int32_t stride, std::int64_t& work, std::int64_t budget);
  /// A build's scratch for sweep(): the ring of buckets and the cells already out of theirs.
  struct Buckets {
    std::vector<std::vector<grid::NodeId>> ring;
    std::vector<std::uint64_t> done;
  };
  /// The distances from src over G' into d (all infinite on entry; src's set 0 here): a
  /// build's search, in buckets instead of a priority queue.
  void sweep(std::vector<double>& d, grid::NodeId src, std::int32_t stride, Buckets& scratch);

  int k_ = 0;
  std::uint32_t dead_ = 0;  ///< bit i: landmark i given up by a repair
  double straight_ = 1, diagonal_ = 1.4142135623730951;
  /// d_[n * k + i] = D_i(n); with k = 8, one cell's row is one cache line.
  std::vector<double, CacheLineAllocator<double>> d_;
  std::vector<std::uint64_t> open_;  ///< G''s cells, by padded id (bit set = in G')
  std::vector<std::uint64_t> kept_;  ///< cells of G' that are walls of the map now
  std::vector<grid::NodeId> marks_;
  std::int64_t open_cells_ = 0, stale_ = 0;
  /// Whether `to` lowers `d` by more than the rounding of sums (d may be infinite); a smaller
  /// lowering turned down is kept in refused_.
  bool lower(double to, double d) noexcept;

  double longest_ = 0;  ///< the largest finite distance: sets the rounding margin
  double refused_ = 0;  ///< the largest lowering turned down: adds to the margin
  double margin_ = 0;   ///< Goal::margin, from the two above (set_margin())
  void set_margin() noexcept;
  RadixQueue q_;
  std::vector<grid::NodeId> opened_;  ///< repair()'s scratch: the cells it adds to G'
};

}  // namespace pathlab::search::detail
