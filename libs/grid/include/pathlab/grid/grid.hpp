// Grid: bit-packed walls with a one-cell padded border (so neighbour lookups need no bounds
// checks), optional per-cell terrain cost, and clearance for agents with a radius.
// Cells are addressed by (x,y) or by a padded node id; search code works on node ids.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include <pathlab/core/types.hpp>

namespace pathlab::grid {

/// Index of a cell in the padded layout: id = (y+1)*stride + (x+1).
using NodeId = std::uint32_t;

/// A grid's revision: a number taken from a process-wide counter whenever its cells change.
/// A copy keeps it (same cells); a moved-from grid gets a new one. It never takes part in
/// comparing grids.
class Revision {
 public:
  Revision() noexcept : value_(next()) {}
  Revision(const Revision&) noexcept = default;
  Revision& operator=(const Revision&) noexcept = default;
  Revision(Revision&& o) noexcept : value_(o.value_) { o.value_ = next(); }
  Revision& operator=(Revision&& o) noexcept {
    value_ = o.value_;
    if (&o != this) o.value_ = next();
    return *this;
  }
  ~Revision() = default;
  void renew() noexcept { value_ = next(); }
  [[nodiscard]] std::uint64_t value() const noexcept { return value_; }
  friend bool operator==(const Revision&, const Revision&) noexcept { return true; }

 private:
  static std::uint64_t next() noexcept {
    static std::atomic<std::uint64_t> counter{1};
    return counter.fetch_add(1, std::memory_order_relaxed);
  }
  std::uint64_t value_;
};

class Grid {
 public:
  /// Limit checked by parsers before allocating (2^28 cells).
  static constexpr std::int64_t max_cells = std::int64_t{1} << 28;

  Grid() : Grid(0, 0) {}
  /// An all-free grid. [Limit: 0 <= width, height and width*height <= max_cells; throws
  /// std::length_error otherwise].
  Grid(int width, int height);

  [[nodiscard]] int width() const noexcept { return width_; }
  [[nodiscard]] int height() const noexcept { return height_; }
  [[nodiscard]] std::int64_t cells() const noexcept { return std::int64_t{width_} * height_; }
  [[nodiscard]] bool in_bounds(int x, int y) const noexcept {
    return x >= 0 && y >= 0 && x < width_ && y < height_;
  }
  [[nodiscard]] bool in_bounds(Cell c) const noexcept { return in_bounds(c.x, c.y); }

  /// False for walls and for anything outside the map.
  [[nodiscard]] bool passable(int x, int y) const noexcept {
    return in_bounds(x, y) && passable_id(id(x, y));
  }
  [[nodiscard]] bool passable(Cell c) const noexcept { return passable(c.x, c.y); }
  void set_blocked(int x, int y, bool blocked);
  void set_blocked(Cell c, bool blocked) { set_blocked(c.x, c.y, blocked); }

  /// Terrain cost multiplier of a cell, >= 1 (1 unless set).
  [[nodiscard]] float terrain(int x, int y) const noexcept {
    return terrain_.empty() ? 1.0f : terrain_[id(x, y)];
  }
  /// [Limit: cost >= 1 and finite; throws std::invalid_argument otherwise].
  void set_terrain(int x, int y, float cost);
  [[nodiscard]] bool has_terrain() const noexcept { return !terrain_.empty(); }
  [[nodiscard]] std::int64_t wall_count() const noexcept;

  // --- padded node ids: the fast path used by searches -------------------------------------
  [[nodiscard]] std::int32_t stride() const noexcept { return stride_; }
  [[nodiscard]] std::size_t padded_size() const noexcept {
    return static_cast<std::size_t>(stride_) * static_cast<std::size_t>(height_ + 2);
  }
  [[nodiscard]] NodeId id(int x, int y) const noexcept {
    return static_cast<NodeId>((y + 1) * stride_ + (x + 1));
  }
  [[nodiscard]] NodeId id(Cell c) const noexcept { return id(c.x, c.y); }
  [[nodiscard]] Cell cell(NodeId n) const noexcept {
    return {static_cast<std::int32_t>(n % static_cast<NodeId>(stride_)) - 1,
            static_cast<std::int32_t>(n / static_cast<NodeId>(stride_)) - 1};
  }
  /// Unchecked: n must be a padded id (padding cells read as walls).
  [[nodiscard]] bool passable_id(NodeId n) const noexcept {
    return ((walls_[n >> 6] >> (n & 63)) & 1u) == 0;
  }
  [[nodiscard]] float terrain_id(NodeId n) const noexcept {
    return terrain_.empty() ? 1.0f : terrain_[n];
  }
  /// Changes whenever a wall or a terrain cost changes; two grids with the same revision have
  /// the same cells. Per-grid caches (the JPS+ table, subgoal graphs) compare it instead of
  /// the walls on every query.
  [[nodiscard]] std::uint64_t revision() const noexcept { return revision_.value(); }
  /// Raw wall bits in padded layout (bit set = blocked), 64 cells per word.
  [[nodiscard]] const std::vector<std::uint64_t>& wall_words() const noexcept { return walls_; }

  /// The grid an agent of radius r may use: a free cell becomes blocked when any wall square
  /// (or the outside of the map) comes closer than r to its centre. r <= 0.5 changes nothing.
  [[nodiscard]] Grid with_clearance(double radius) const;

  /// FNV-1a over size, walls and terrain; identifies a map for caches.
  [[nodiscard]] std::uint64_t checksum() const noexcept;

  friend bool operator==(const Grid& a, const Grid& b) = default;

 private:
  int width_ = 0;
  int height_ = 0;
  std::int32_t stride_ = 2;
  std::vector<std::uint64_t> walls_;  // padded layout, bit set = blocked
  std::vector<float> terrain_;        // padded layout; empty when every cost is 1
  Revision revision_;
};

}  // namespace pathlab::grid
