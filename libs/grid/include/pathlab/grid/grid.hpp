// Grid: bit-packed walls with a one-cell padded border (so neighbour lookups need no bounds
// checks), optional per-cell terrain cost, a terrain class per cell, and clearance for agents
// with a radius. Cells are addressed by (x,y) or by a padded node id; search code works on
// node ids.
//
// Classes and units (shared docs/ALGORITHMS.md, "Units"): every cell is a wall ('@') or has a
// terrain class named by its map character ('.' ground, Moving AI 'S', 'T', 'W', ...). The
// grid's own passability is the default unit's (walls and the classes it forbids, 'T' and 'W',
// are blocked), so code that ignores units sees exactly the Moving AI map. Any other unit sees
// the grid through view(unit) (unit.hpp): a cached grid of its own wall bits and step costs,
// built from one clearance field per set of forbidden classes and repaired by every edit.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
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

/// A rectangle of cells, corners included: x0 <= x1, y0 <= y1.
struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  friend constexpr bool operator==(Rect, Rect) = default;
  [[nodiscard]] constexpr std::int64_t cells() const noexcept {
    return std::int64_t{x1 - x0 + 1} * (y1 - y0 + 1);
  }
};

/// The class of wall cells and of ground.
inline constexpr char kWallClass = '@';
inline constexpr char kGroundClass = '.';

/// One change to a grid through the edit API (Grid::apply). A cell has two layers, its class
/// and its terrain cost (a multiplier >= 1 of the steps entering it); each kind sets them so
/// for every cell of `area`:
///
/// | kind        | class afterwards                  | terrain cost afterwards          |
/// |-------------|-----------------------------------|----------------------------------|
/// | `wall`      | `@`                               | 1                                |
/// | `free`      | `.` (whatever it was: `S`, `T` too) | 1                              |
/// | `set_class` | `cls` (`G` reads `.`, `O` `@`)    | kept; 1 when `cls` is a wall     |
/// | `terrain`   | kept                              | `cost`; walls keep 1             |
///
/// So `wall` and `free` leave exactly the cell a freshly loaded map has for `@` and `.`: a
/// wall never hides a cost, and freeing it gives plain ground (re-apply a class or terrain
/// edit to give it back its old cost). `set_class` re-types a cell and keeps its cost (swamp
/// on mud stays mud-slow). A grid edited only through this API therefore equals, cell for cell
/// (operator==, checksum), a grid built fresh with the same classes and costs, and every cache
/// (unit views, clearance fields, finders' preprocessed data, flow fields after update())
/// answers as on that fresh grid.
struct Edit {
  enum class Kind : std::uint8_t { wall, free, set_class, terrain };
  Kind kind = Kind::wall;
  Rect area;
  char cls = kGroundClass;  ///< set_class: the class character ('@' or 'O' makes walls)
  float cost = 1.0f;        ///< terrain: the cost multiplier, >= 1 and finite
};

/// The rectangle and revisions of one change (the grid's change log).
struct Change {
  std::uint64_t before = 0;  ///< the grid's revision before it
  std::uint64_t after = 0;   ///< and after
  Rect area;
};

class Grid;
namespace detail {
struct UnitCache;
/// Holds a grid's cache of unit views. Copies start empty (the views belong to one grid) and
/// it never takes part in comparing grids.
class UnitCacheSlot {
 public:
  UnitCacheSlot();
  ~UnitCacheSlot();
  UnitCacheSlot(const UnitCacheSlot&);
  UnitCacheSlot& operator=(const UnitCacheSlot&);
  UnitCacheSlot(UnitCacheSlot&&) noexcept;
  UnitCacheSlot& operator=(UnitCacheSlot&&) noexcept;
  friend bool operator==(const UnitCacheSlot&, const UnitCacheSlot&) noexcept { return true; }
  [[nodiscard]] UnitCache& get() const noexcept { return *cache_; }

 private:
  std::unique_ptr<UnitCache> cache_;
};
/// The last changes of a grid, oldest first (at most kChangeLogSize). Never compared.
struct ChangeLog {
  std::vector<Change> entries;
  friend bool operator==(const ChangeLog&, const ChangeLog&) noexcept { return true; }
};
}  // namespace detail

struct Unit;

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
  /// The passability switch of the default unit (what loaders, agents' temporary obstacles
  /// and with_clearance use): blocked makes the cell a wall (class '@'); unblocked makes a
  /// blocked cell (a wall, or a class the default unit forbids: 'T', 'W') ground '.', and
  /// leaves a cell that is already passable as it is ('S' stays 'S'). Unlike the edit API it
  /// keeps the cell's terrain cost, so a cell blocked for a while gets its cost back when
  /// freed; use apply(Edit) for the "fresh cell" rules of Edit. [Throws std::out_of_range
  /// outside the grid.]
  void set_blocked(int x, int y, bool blocked);
  void set_blocked(Cell c, bool blocked) { set_blocked(c.x, c.y, blocked); }

  /// The cell's class: '@' for walls, '.' for ground, or its terrain class character.
  [[nodiscard]] char cell_class(int x, int y) const noexcept {
    return classes_.empty() ? (passable_id(id(x, y)) ? kGroundClass : kWallClass)
                            : static_cast<char>(classes_[id(x, y)]);
  }
  [[nodiscard]] char class_id(NodeId n) const noexcept {
    return classes_.empty() ? (passable_id(n) ? kGroundClass : kWallClass)
                            : static_cast<char>(classes_[n]);
  }
  /// Gives a cell a class (canonical_class applies: 'G' is ground, 'O' a wall), exactly as
  /// apply() with an Edit of kind set_class on that one cell: the terrain cost stays, except
  /// that a wall gets cost 1. Its wall bit follows the default unit: set for '@', 'T' and 'W'.
  /// [Throws std::invalid_argument for a character that is not a class (valid_class),
  /// std::out_of_range outside the grid.]
  void set_class(int x, int y, char cls);
  /// Whether some cell has a class other than ground and wall.
  [[nodiscard]] bool has_classes() const noexcept { return !classes_.empty(); }

  /// The edit API: applies `e` to every cell of its area (what each kind does to a cell's class
  /// and terrain cost: Edit), repairs the cached unit views and clearance fields, and, when
  /// some cell changed, takes a new revision and records the area (changes_since). An edit
  /// that changes nothing keeps the revision. Returns a message and changes nothing when the
  /// area leaves the grid or the class or cost is invalid. Never throws but std::bad_alloc.
  /// Not while another thread reads the grid (a query, a batch, a flow field build): edits
  /// and reads must not overlap; finders and fields built before it repair themselves on
  /// their next query or update().
  std::optional<std::string> apply(const Edit& e);
  /// The message apply() would give, or nothing when `e` is valid here.
  [[nodiscard]] std::optional<std::string> check(const Edit& e) const;
  /// The areas changed since the grid had revision `rev`, oldest first, into `out`. False when
  /// the log no longer reaches back to it (or it was never this grid's): rebuild instead.
  bool changes_since(std::uint64_t rev, std::vector<Rect>& out) const;
  /// The change log, oldest first (the last kChangeLogSize changes).
  [[nodiscard]] std::span<const Change> changes() const noexcept { return log_.entries; }
  static constexpr std::size_t kChangeLogSize = 256;

  /// The grid as `unit` sees it (unit.hpp): this grid itself for the default unit (and any unit
  /// that sees it alike), otherwise a cached view with the unit's own wall bits (walls,
  /// forbidden classes, cells closer than its radius to those) and step costs (class cost x
  /// terrain), built on first use, shared by threads, repaired by every edit. Thread-safe;
  /// the pointer stays valid after the grid changes (it then holds the old cells: ask again).
  /// [Throws std::invalid_argument for an invalid unit (grid::validate), std::bad_alloc.]
  [[nodiscard]] std::shared_ptr<const Grid> view(const Unit& unit) const;
  /// Whether view(unit) is this grid itself (no view is built).
  [[nodiscard]] bool sees_alike(const Unit& unit) const noexcept;

  /// Terrain cost multiplier of a cell, >= 1 (1 unless set).
  [[nodiscard]] float terrain(int x, int y) const noexcept {
    return terrain_.empty() ? 1.0f : terrain_[id(x, y)];
  }
  /// Sets one cell's terrain cost, whatever its class (on a wall the cost is kept unused until
  /// set_blocked frees the cell; the edit API's terrain kind leaves walls at 1 instead).
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
  /// A copy: view(unit) serves a radius without one.
  [[nodiscard]] Grid with_clearance(double radius) const;

  /// FNV-1a over size, walls, terrain and classes; identifies a map for caches.
  [[nodiscard]] std::uint64_t checksum() const noexcept;

  /// Same size, walls, terrain costs and classes (however they are stored).
  friend bool operator==(const Grid& a, const Grid& b) noexcept;

 private:
  int width_ = 0;
  int height_ = 0;
  std::int32_t stride_ = 2;
  std::vector<std::uint64_t> walls_;   // padded layout, bit set = blocked
  std::vector<float> terrain_;         // padded layout; empty when every cost is 1
  std::vector<std::uint8_t> classes_;  // padded layout; empty when every cell is ground or wall
  Revision revision_;
  detail::ChangeLog log_;
  detail::UnitCacheSlot cache_;

  friend struct detail::UnitCache;
  friend double clearance(const Grid& g, const Unit& unit, Cell c);
  void set_class_bits(NodeId n, char cls);
  void record(Rect area, std::uint64_t before);
};

}  // namespace pathlab::grid
