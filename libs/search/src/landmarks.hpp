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
// The distances are whole numbers: each move's cost times a power of two P, rounded down (for
// octile costs on a map of up to 2^20 cells, 1024 and 1448: the diagonal a hundredth of a
// percent short). A path's units are then at most P times its cost, h(n) is the units' bound
// divided by P (exact), and the tables are sums without rounding: no margin, and a repair
// compares exactly. Four bytes a distance, half of a double's.
//
// A build's searches are canonical Dijkstra (Sturtevant & Rabin 2016, "Canonical Orderings on
// Grids"): only jump points are queued, and the cells between them get their distances from
// straight and diagonal scans along the canonical (diagonal-first) paths of JPS's ordering
// without corner cutting: on Aurora 2.0-3.4 ms a landmark against 10-13 ms for Dial's buckets
// over every cell.
//
// Landmarks are chosen far apart within the largest connected component, two at a time (see
// build()). A goal outside it, where every D_i is infinite, gets no bound from them (the
// octile distance alone).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <span>
#include <utility>
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

/// CacheLineAllocator whose vectors leave new elements of trivial types uninitialised (resize()
/// writes nothing): for tables written in full right after.
template <class T>
struct UninitialisedAllocator : CacheLineAllocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  explicit UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};

class Landmarks {
 public:
  /// A distance in the tables' units (move costs times P, rounded down).
  using Dist = std::int32_t;
  /// Not reached (from another component of G').
  static constexpr Dist kFar = std::numeric_limits<Dist>::max();
  /// At most this many landmarks; fewer when their tables would pass kMaxBytes.
  static constexpr int kMax = 16;
  static constexpr std::size_t kMaxBytes = std::size_t{64} << 20;
  /// Fewer than this many landmarks fit: none are kept (the map is too large).
  static constexpr int kMin = 2;

  /// The per-query view: the goal's distances, so that h(n) reads one row of the table.
  struct Goal {
    const Dist* table = nullptr;  ///< null: no landmark reaches the goal (h is 0)
    int k = 0;
    Dist at_goal[kMax];  ///< the first k set (left uninitialised: a query fills it)
    double unit = 0;     ///< 1 / P: a unit's cost
    [[nodiscard]] double h(grid::NodeId n) const noexcept {
      const Dist* row = table + static_cast<std::size_t>(n) * static_cast<std::size_t>(k);
      // Without branches (a compare per landmark was mispredicted often); differences of two
      // distances up to kFar fit in a Dist.
      Dist b = 0;
      for (int i = 0; i < k; ++i) b = std::max(b, std::abs(at_goal[i] - row[i]));
      return static_cast<double>(b) * unit;
    }
  };

  /// Chooses up to `want` landmarks (at most kMax, and as many as kMaxBytes holds) in g's
  /// largest component of `comps` (labelled for g) and fills the tables for moves of cost
  /// `straight` and `diagonal` without corner cutting. Leaves none when the map has no free
  /// cell or is too large (throws std::bad_alloc).
  void build(const grid::Grid& g, const Components& comps, double straight, double diagonal,
             int want = kMax);
  /// How many landmarks a build on g may take at most.
  [[nodiscard]] static int capacity(const grid::Grid& g) noexcept {
    return static_cast<int>(
        std::min<std::size_t>(kMax, kMaxBytes / (g.padded_size() * sizeof(Dist))));
  }
  /// Brings the tables up to date after the cells in `areas` changed (Grid::changes_since):
  /// opened cells join G' and lower the distances they shorten; new walls stay in G'. Once a
  /// landmark's repair settles more than `budget` cells, all are given up: the tables are
  /// cleared (empty()) and the result is false (a build costs a few repairs' budgets).
  bool repair(const grid::Grid& g, std::span<const grid::Rect> areas, std::int64_t budget);
  /// The cells of G': one landmark's build settles as many.
  [[nodiscard]] std::int64_t cells() const noexcept { return open_cells_; }
  /// Whether the map has so many walls kept open in G' that the bound has grown weak (a
  /// twentieth of G''s cells): the owner should build afresh.
  [[nodiscard]] bool stale() const noexcept { return stale_ * 20 > open_cells_ + 400; }
  [[nodiscard]] bool empty() const noexcept { return k_ == 0; }
  /// Whether the tables were built for these move costs.
  [[nodiscard]] bool fits(double straight, double diagonal) const noexcept {
    return k_ > 0 && straight == straight_ && diagonal == diagonal_;
  }
  [[nodiscard]] int count() const noexcept { return k_; }
  /// How many the map of the last build holds (capacity()).
  [[nodiscard]] int room() const noexcept { return room_; }
  /// Whether g is small enough for kMin landmarks.
  [[nodiscard]] static bool applies(const grid::Grid& g) noexcept {
    return g.padded_size() * sizeof(Dist) * kMin <= kMaxBytes;
  }
  double seconds = 0;  ///< time of the last build
  /// The padded id of landmark i (i < count()).
  [[nodiscard]] grid::NodeId landmark(int i) const noexcept {
    return marks_[static_cast<std::size_t>(i)];
  }
  /// D_i(n) in units: the distance from landmark i in G' (kFar when it does not reach n).
  [[nodiscard]] Dist distance(int i, grid::NodeId n) const noexcept {
    return d_[static_cast<std::size_t>(n) * static_cast<std::size_t>(k_) +
              static_cast<std::size_t>(i)];
  }
  /// The tables: cell n's row of count() distances starts at data() + n * count().
  [[nodiscard]] const Dist* data() const noexcept { return d_.data(); }
  /// A straight and a diagonal move in units, and a unit's cost (1 / P).
  [[nodiscard]] Dist straight_units() const noexcept { return cs_; }
  [[nodiscard]] Dist diagonal_units() const noexcept { return cd_; }
  [[nodiscard]] double unit() const noexcept { return unit_; }
  /// Fills the view for goal t (table null when no landmark reaches t). In place: a
  /// query's fixed cost is a few dozen ns, and zeroing and copying a Goal took a tenth of it.
  void toward(grid::NodeId t, Goal& goal) const noexcept;
  /// Frees what builds keep between them (for tables that will not be built again here).
  void release_builder() noexcept { builder_.p.reset(); }
  /// No landmarks (the tables' memory kept for the next build; `*this = {}` frees it).
  void clear() noexcept;
  [[nodiscard]] std::size_t bytes() const noexcept;

 private:
  [[nodiscard]] bool open(grid::NodeId n) const noexcept { return (open_[n >> 6] >> (n & 63)) & 1; }
  /// Lowers the distances at(n) outward from the cells queued in q_ (a Dijkstra over G'),
  /// stopping once `work` cells were settled past `budget` (false).
  template <class At>
  bool settle(At&& at, std::int32_t stride, std::int64_t& work, std::int64_t budget);
  /// A build search's scratch (one each, for searches side by side).
  struct Scratch {
    /// canonical(): the directions scanned through a cell
    std::vector<std::uint8_t> seen;
    std::vector<std::vector<grid::NodeId>> ring;
    std::vector<std::uint64_t> done;
    struct Turn {
      Dist d;
      grid::NodeId at;
      std::uint8_t from, to;  ///< the straight direction it was met in, the one it turns to
    };
    std::vector<std::vector<Turn>> turns;
  };
  /// What builds keep between them (a map that changes builds again, at the same size: fresh
  /// arrays each time cost as much in page faults and zeroing as the searches): four search
  /// arrays, copied into the tables four columns at a time, G''s cells a byte each, and two
  /// searches' scratch. Not copied with the landmarks.
  struct Builder {
    std::vector<Dist> cols;
    std::vector<std::uint8_t> cell;
    Scratch scratch[2];
  };
  struct BuilderSlot {
    std::unique_ptr<Builder> p;
    BuilderSlot() = default;
    BuilderSlot(const BuilderSlot&) noexcept {}
    BuilderSlot(BuilderSlot&&) noexcept = default;
    BuilderSlot& operator=(const BuilderSlot&) noexcept { return *this; }
    BuilderSlot& operator=(BuilderSlot&&) noexcept = default;
    ~BuilderSlot() = default;
  };
  BuilderSlot builder_;
  /// The distances from src over G' (`cell`: 1 for a cell of G', by padded id; n cells) into d
  /// (all kFar on entry; src's set 0 here): a build's search. Canonical Dijkstra where the
  /// costs allow it (a straight move cheaper than a diagonal, two dearer), else Dial's buckets.
  void sweep(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
             std::int32_t stride, Scratch& scratch) const;
  void canonical(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
                 std::int32_t stride, Scratch& scratch) const;
  void buckets(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
               std::int32_t stride, Scratch& scratch) const;

  int k_ = 0, room_ = 0;
  double straight_ = 1, diagonal_ = 1.4142135623730951;
  Dist cs_ = 1, cd_ = 1;  ///< the moves in units
  double unit_ = 1;       ///< 1 / P
  /// d_[n * k + i] = D_i(n); with k = 16, one cell's row is one cache line. Kept allocated by
  /// clear() (a map that changes builds again, often at the same size: page faults and
  /// zeroing took a sixth of a build).
  std::vector<Dist, UninitialisedAllocator<Dist>> d_;
  std::vector<std::uint64_t> open_;  ///< G''s cells, by padded id (bit set = in G')
  std::vector<std::uint64_t> kept_;  ///< cells of G' that are walls of the map now
  std::vector<grid::NodeId> marks_;
  std::int64_t open_cells_ = 0, stale_ = 0;
  RadixQueue q_;
  std::vector<grid::NodeId> opened_;  ///< repair()'s scratch: the cells it adds to G'
};

}  // namespace pathlab::search::detail
