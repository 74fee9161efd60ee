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
  /// A fresh revision: the next number of the counter.
  Revision() noexcept : value_(next()) {}
  /// Keeps the number of the copied revision: the copy stands for the same cells.
  Revision(const Revision&) noexcept = default;
  /// Takes the number of the copied revision: the copy stands for the same cells.
  Revision& operator=(const Revision&) noexcept = default;
  /// Takes over the number of `o`, which gets a fresh one and stays fully usable.
  Revision(Revision&& o) noexcept : value_(o.value_) { o.value_ = next(); }
  /// Takes over the number of `o`, which gets a fresh one and stays fully usable (assigning a
  /// revision to itself keeps its number).
  Revision& operator=(Revision&& o) noexcept {
    value_ = o.value_;
    if (&o != this) o.value_ = next();
    return *this;
  }
  ~Revision() = default;
  /// Takes a new number from the counter: what the grid does whenever its cells change.
  void renew() noexcept { value_ = next(); }
  /// The number: unique within the process per state of cells, counted from 1 (never 0).
  [[nodiscard]] std::uint64_t value() const noexcept { return value_; }
  /// Always true: revisions never make two grids compare unequal.
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
  int x0 = 0,  ///< left column, included
      y0 = 0,  ///< top row, included
      x1 = 0,  ///< right column, included (>= x0)
      y1 = 0;  ///< bottom row, included (>= y0)
  /// Same four corners.
  friend constexpr bool operator==(Rect, Rect) = default;
  /// The number of cells it covers, (x1 - x0 + 1) * (y1 - y0 + 1); meaningless when the
  /// corners are out of order.
  [[nodiscard]] constexpr std::int64_t cells() const noexcept {
    return std::int64_t{x1 - x0 + 1} * (y1 - y0 + 1);
  }
};

/// The class character of wall cells: '@'.
inline constexpr char kWallClass = '@';
/// The class character of ground, the default class of a passable cell: '.'.
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
  /// What the edit does to each cell of `area` (the table above).
  enum class Kind : std::uint8_t {
    wall,       ///< makes the cell a wall '@' with terrain cost 1
    free,       ///< makes the cell ground '.' with terrain cost 1, whatever its class was
    set_class,  ///< gives the cell class `cls`, keeping its terrain cost (1 when it becomes a wall)
    terrain     ///< sets the cell's terrain cost to `cost`, keeping its class (walls keep 1)
  };
  Kind kind = Kind::wall;   ///< what the edit does; wall by default
  Rect area;                ///< the cells it changes, corners included; must lie in the grid
  char cls = kGroundClass;  ///< set_class: the class character ('@' or 'O' makes walls)
  float cost = 1.0f;        ///< terrain: the cost multiplier, >= 1 and finite
};

/// The rectangle and revisions of one change (the grid's change log).
struct Change {
  std::uint64_t before = 0;  ///< the grid's revision before it
  std::uint64_t after = 0;   ///< and after
  Rect area;                 ///< the cells it may have changed: an edit's area, or a setter's cell
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

/// A map of width x height cells (see the top of this file): wall bits, terrain classes and
/// terrain costs, plus its change log and cached unit views. A value type: a copy has the same
/// cells and revision and compares equal, but starts with no views; a moved-from grid may only
/// be assigned to or destroyed. Reads may run on many threads at once, never during an edit.
class Grid {
 public:
  /// Limit checked by parsers before allocating (2^28 cells).
  static constexpr std::int64_t max_cells = std::int64_t{1} << 28;

  Grid() : Grid(0, 0) {}
  /// An all-free grid. [Limit: 0 <= width, height and width*height <= max_cells; throws
  /// std::length_error otherwise].
  Grid(int width, int height);

  /// Columns, >= 0 (0 for the default grid).
  [[nodiscard]] int width() const noexcept { return width_; }
  /// Rows, >= 0 (0 for the default grid).
  [[nodiscard]] int height() const noexcept { return height_; }
  /// The number of cells, width * height (the padding not counted).
  [[nodiscard]] std::int64_t cells() const noexcept { return std::int64_t{width_} * height_; }
  /// Whether (x, y) is a cell of the map: 0 <= x < width and 0 <= y < height.
  [[nodiscard]] bool in_bounds(int x, int y) const noexcept {
    return x >= 0 && y >= 0 && x < width_ && y < height_;
  }
  /// Whether c is a cell of the map: 0 <= c.x < width and 0 <= c.y < height.
  [[nodiscard]] bool in_bounds(Cell c) const noexcept { return in_bounds(c.x, c.y); }

  /// False for walls and for anything outside the map.
  [[nodiscard]] bool passable(int x, int y) const noexcept {
    return in_bounds(x, y) && passable_id(id(x, y));
  }
  /// False for walls and for anything outside the map (passable(c.x, c.y)).
  [[nodiscard]] bool passable(Cell c) const noexcept { return passable(c.x, c.y); }
  /// The passability switch of the default unit (what loaders, agents' temporary obstacles
  /// and with_clearance use): blocked makes the cell a wall (class '@'); unblocked makes a
  /// blocked cell (a wall, or a class the default unit forbids: 'T', 'W') ground '.', and
  /// leaves a cell that is already passable as it is ('S' stays 'S'). Unlike the edit API it
  /// keeps the cell's terrain cost, so a cell blocked for a while gets its cost back when
  /// freed; use apply(Edit) for the "fresh cell" rules of Edit. [Throws std::out_of_range
  /// outside the grid.]
  void set_blocked(int x, int y, bool blocked);
  /// set_blocked(c.x, c.y, blocked). [Throws std::out_of_range outside the grid.]
  void set_blocked(Cell c, bool blocked) { set_blocked(c.x, c.y, blocked); }

  /// The cell's class: '@' for walls, '.' for ground, or its terrain class character.
  [[nodiscard]] char cell_class(int x, int y) const noexcept {
    return classes_.empty() ? (passable_id(id(x, y)) ? kGroundClass : kWallClass)
                            : static_cast<char>(classes_[id(x, y)]);
  }
  /// cell_class by padded node id. Unchecked: n must be a padded id (padding reads '@').
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
  /// Changes the log keeps at least: it holds up to twice as many, then drops the oldest
  /// kChangeLogSize at once.
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
  /// Whether the grid stores terrain costs: false means every cost is 1; true once some cell
  /// was given another cost (and still true when the costs are set back to 1).
  [[nodiscard]] bool has_terrain() const noexcept { return !terrain_.empty(); }
  /// The cells blocked for the default unit: walls and the classes it forbids ('T', 'W').
  /// Counts every cell: O(width * height).
  [[nodiscard]] std::int64_t wall_count() const noexcept;

  // --- padded node ids: the fast path used by searches -------------------------------------
  /// Node ids per padded row, width + 2: the id step from a cell to the one below it.
  [[nodiscard]] std::int32_t stride() const noexcept { return stride_; }
  /// The number of padded node ids, stride * (height + 2): every id is below it.
  [[nodiscard]] std::size_t padded_size() const noexcept {
    return static_cast<std::size_t>(stride_) * static_cast<std::size_t>(height_ + 2);
  }
  /// The padded node id of (x, y), (y+1)*stride + (x+1). Unchecked: x from -1 to width and y
  /// from -1 to height (the padding included) give valid ids.
  [[nodiscard]] NodeId id(int x, int y) const noexcept {
    return static_cast<NodeId>((y + 1) * stride_ + (x + 1));
  }
  /// The padded node id of c, id(c.x, c.y); unchecked.
  [[nodiscard]] NodeId id(Cell c) const noexcept { return id(c.x, c.y); }
  /// The cell of padded node id n (the inverse of id()); a padding id gives x or y of -1,
  /// width or height.
  [[nodiscard]] Cell cell(NodeId n) const noexcept {
    return {static_cast<std::int32_t>(n % static_cast<NodeId>(stride_)) - 1,
            static_cast<std::int32_t>(n / static_cast<NodeId>(stride_)) - 1};
  }
  /// Unchecked: n must be a padded id (padding cells read as walls).
  [[nodiscard]] bool passable_id(NodeId n) const noexcept {
    return ((walls_[n >> 6] >> (n & 63)) & 1u) == 0;
  }
  /// terrain() by padded node id, >= 1 (1 on the padding). Unchecked: n must be a padded id.
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
