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
#include <string_view>
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

/// How cells are shaped and joined (shared docs/ALGORITHMS.md, "Hex grids"). Cells keep their
/// map coordinates (x column, y row) in every layout; a hex layout says which rows or columns
/// are shifted by half a hex.
enum class Layout : std::uint8_t {
  square,         ///< square cells, 4 or 8 neighbours by the diagonal rule (the default)
  pointy_odd_r,   ///< pointy-top hexes, odd rows shifted right by half a hex
  pointy_even_r,  ///< pointy-top hexes, even rows shifted right
  flat_odd_q,     ///< flat-top hexes, odd columns shifted down by half a hex
  flat_even_q     ///< flat-top hexes, even columns shifted down
};
/// Whether the layout is one of the four hex layouts.
[[nodiscard]] constexpr bool is_hex(Layout l) noexcept {
  return l != Layout::square;
}
/// "square", "pointy-odd-r", "pointy-even-r", "flat-odd-q" or "flat-even-q" ("?" outside the
/// enum).
[[nodiscard]] std::string_view to_string(Layout l) noexcept;
/// The layout spelt as to_string() spells it; nullopt for any other text.
[[nodiscard]] std::optional<Layout> parse_layout(std::string_view s) noexcept;

/// A side of a square cell, for walls on cell edges (shared docs/ALGORITHMS.md, "Walls on cell
/// edges").
enum class Side : std::uint8_t { north, east, south, west };
/// "n", "e", "s" or "w".
[[nodiscard]] std::string_view to_string(Side s) noexcept;
/// An edge of a cell as text names it: on square maps (hex false) "n", "e", "s", "w" or
/// "north", "east", "south", "west", as the Side's value 0..3; on hex maps "0" .. "5", the
/// direction. nullopt for anything else.
[[nodiscard]] std::optional<int> parse_edge_side(std::string_view s, bool hex) noexcept;

/// A link between two cells of a map (shared docs/ALGORITHMS.md, "Layered maps"): stairs, a
/// ladder, a portal, a one-way drop. Its cost is the whole cost of taking it (no terrain
/// multiplier); a unit may take it only when it can stand on both ends. Cells are the grid's
/// own (on a layered map: Grid::at(layer, x, y)).
struct Link {
  Cell from;            ///< where it starts
  Cell to;              ///< where it leads
  float cost = 1.0f;    ///< what taking it costs: finite and > 0
  bool oneway = false;  ///< only from -> to; otherwise both ways at the same cost
  /// Same ends, cost and direction.
  friend bool operator==(const Link&, const Link&) = default;
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
    terrain,    ///< sets the cell's terrain cost to `cost`, keeping its class (walls keep 1)
    /// Not a cell change: puts up a wall on side `side` of every cell of `area` (shared
    /// docs/ALGORITHMS.md, "Walls on cell edges"), or on hex layouts on the edge toward its
    /// neighbour in direction `hex_side`; classes and costs stay. An edge wall blocks its edge
    /// both ways, whichever of its two cells names it.
    edge_wall,
    edge_open  ///< takes down the wall on that side of every cell of `area`
  };
  Kind kind = Kind::wall;   ///< what the edit does; wall by default
  Rect area;                ///< the cells it changes, corners included; must lie in the grid
  char cls = kGroundClass;  ///< set_class: the class character ('@' or 'O' makes walls)
  float cost = 1.0f;        ///< terrain: the cost multiplier, >= 1 and finite
  Side side = Side::north;  ///< edge_wall, edge_open: which side of each cell of `area`
  /// edge_wall, edge_open on hex layouts: the edge toward the neighbour in direction 0..5
  /// (the codes of shared docs/ALGORITHMS.md, "Hex grids"); kNoHexSide on square layouts.
  std::uint8_t hex_side = kNoHexSide;
  /// hex_side of an edit that names a square side.
  static constexpr std::uint8_t kNoHexSide = 255;
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
  /// Pastes a block of walls and ground (a prefab stamped into a level; a patch of the
  /// competition's dynamic track) with its top-left cell at `at`: cell (x, y) of the block
  /// becomes a wall where walls[y * width + x] != 0 and ground elsewhere, each exactly as a
  /// `wall` or `free` Edit leaves it (terrain cost 1). The whole block is one change: one
  /// revision, one rectangle in the change log (the bounding box of the cells that differ),
  /// one repair of the cached views, however many runs of walls it holds (and no change when
  /// no cell differs). Returns a message and changes
  /// nothing when the block is empty, leaves the grid (or crosses the rows between a layered
  /// map's floors) or walls.size() != width * height. Never throws but std::bad_alloc; the
  /// same threading rule as apply().
  std::optional<std::string> paste(Cell at, int width, int height,
                                   std::span<const std::uint8_t> walls);
  /// The areas changed since the grid had revision `rev`, oldest first, into `out`. False when
  /// the log no longer reaches back to it (or it was never this grid's): rebuild instead.
  bool changes_since(std::uint64_t rev, std::vector<Rect>& out) const;
  /// The change log, oldest first (the last kChangeLogSize changes).
  [[nodiscard]] std::span<const Change> changes() const noexcept { return log_.entries; }
  /// Changes the log keeps at least: it holds up to twice as many (32 bytes each), then drops
  /// the oldest kChangeLogSize at once. Enough for a subgoal method's rebuild, finished on
  /// another thread while the map changes before every query, to be repaired up to date.
  static constexpr std::size_t kChangeLogSize = 4096;

  /// The grid as `unit` sees it (unit.hpp): this grid itself for the default unit (and any unit
  /// that sees it alike), otherwise a cached view with the unit's own wall bits (walls,
  /// forbidden classes, cells closer than its radius to those) and step costs (class cost x
  /// terrain), built on first use, shared by threads, repaired by every edit. Thread-safe;
  /// the pointer stays valid after the grid changes (it then holds the old cells: ask again).
  /// [Throws std::invalid_argument for an invalid unit (grid::validate), std::bad_alloc.]
  [[nodiscard]] std::shared_ptr<const Grid> view(const Unit& unit) const;
  /// Whether view(unit) is this grid itself (no view is built).
  [[nodiscard]] bool sees_alike(const Unit& unit) const noexcept;

  // --- map kinds: hex layouts, walls on cell edges, layers and links -----------------------
  /// How cells join: Layout::square unless set.
  [[nodiscard]] Layout layout() const noexcept { return layout_; }
  /// Reads the same cells in another layout (a new revision; every cache repairs itself).
  /// [Throws std::invalid_argument when edge walls stand and the change is between square and
  /// hex: a square cell's sides are not a hex's.]
  void set_layout(Layout l);

  /// Whether a wall stands on side `s` of cell (x, y) (the edge it shares with its 4-neighbour
  /// on that side; on the map's border, an edge to the outside, which blocks nothing more).
  /// False outside the map's padding, and on hex layouts (see hex_edge_wall).
  [[nodiscard]] bool edge_wall(int x, int y, Side s) const noexcept;
  /// Puts up (or takes down) the wall on side `s` of cell (x, y), as apply() with an edge Edit
  /// on that one cell. [Throws std::out_of_range outside the grid (or on a row between layers),
  /// std::invalid_argument on a hex layout.]
  void set_edge_wall(int x, int y, Side s, bool blocked);
  /// Hex layouts: whether a wall stands on the edge between cell (x, y) and its neighbour in
  /// direction d (0..5). False on square layouts, outside the map and for other d.
  [[nodiscard]] bool hex_edge_wall(int x, int y, int d) const noexcept;
  /// Hex layouts: puts up (or takes down) the wall between cell (x, y) and its neighbour in
  /// direction d, as apply() with an edge Edit on that one cell. [Throws std::out_of_range
  /// outside the grid, std::invalid_argument on a square layout or for d outside 0..5.]
  void set_hex_edge_wall(int x, int y, int d, bool blocked);
  /// Whether some edge wall stands (taking the last one down gives the plain fast path back).
  [[nodiscard]] bool has_edge_walls() const noexcept { return edge_count_ > 0; }
  /// The number of edge walls standing (each edge counted once).
  [[nodiscard]] std::int64_t edge_wall_count() const noexcept { return edge_count_; }
  /// Edge bits by padded node id: the wall between n and n + 1 (its east side). Unchecked;
  /// false when the grid stores no edge walls.
  [[nodiscard]] bool wall_east_id(NodeId n) const noexcept {
    return !edge_e_.empty() && ((edge_e_[n >> 6] >> (n & 63)) & 1u) != 0;
  }
  /// The wall between n and n + stride (its south side). Unchecked; false without edge walls.
  [[nodiscard]] bool wall_south_id(NodeId n) const noexcept {
    return !edge_s_.empty() && ((edge_s_[n >> 6] >> (n & 63)) & 1u) != 0;
  }
  /// Hex layouts: the wall between n and its neighbour m in direction d (the node
  /// grid::for_each_hex_cell gives). Directions 0, 4 and 5 are stored at n, the opposite ones
  /// (3, 1, 2) at m. Unchecked; false without edge walls.
  [[nodiscard]] bool wall_hex_id(NodeId n, NodeId m, int d) const noexcept {
    if (edge_e_.empty()) return false;
    const std::vector<std::uint64_t>& v = (d == 0 || d == 3)   ? edge_e_
                                          : (d == 2 || d == 5) ? edge_s_
                                                               : edge_x_;
    const NodeId o = d == 0 || d == 4 || d == 5 ? n : m;
    return !v.empty() && ((v[o >> 6] >> (o & 63)) & 1u) != 0;
  }

  /// An empty layered map: `layers` floors of width x height cells each, all free, stacked
  /// in one grid (see layer_pitch): floor l's cell (x, y) is the grid's cell at(l, x, y). One
  /// layer gives Grid(width, height). [Throws std::length_error past max_cells or for fewer
  /// than one layer.]
  static Grid layered(int width, int height, int layers);
  /// Floors, >= 1.
  [[nodiscard]] int layers() const noexcept { return layers_; }
  /// Rows of each floor: height() for a single layer.
  [[nodiscard]] int layer_height() const noexcept { return layer_height_; }
  /// Rows from one floor's first row to the next one's: layer_height() plus one or two rows
  /// of wall between floors (two when needed to keep rows' parity, which hex rows depend on),
  /// so that no move but a link joins two floors. height() = (layers - 1) * pitch + the last
  /// floor's rows.
  [[nodiscard]] int layer_pitch() const noexcept { return layer_pitch_; }
  /// The grid cell of cell (x, y) of floor `layer`: (x, layer * layer_pitch() + y). Unchecked.
  [[nodiscard]] Cell at(int layer, int x, int y) const noexcept {
    return {x, layer * layer_pitch_ + y};
  }
  /// The floor of grid row y: y / layer_pitch().
  [[nodiscard]] int layer_of(int y) const noexcept { return layers_ == 1 ? 0 : y / layer_pitch_; }
  /// The row within its floor of grid row y.
  [[nodiscard]] int local_y(int y) const noexcept { return layers_ == 1 ? y : y % layer_pitch_; }
  /// Whether grid row y is one of the wall rows between two floors (never a map cell).
  [[nodiscard]] bool between_layers(int y) const noexcept {
    return layers_ > 1 && y >= 0 && y < height_ && local_y(y) >= layer_height_;
  }
  /// Whether (x, y) is a cell of some floor: in bounds and not between layers.
  [[nodiscard]] bool map_cell(int x, int y) const noexcept {
    return in_bounds(x, y) && !between_layers(y);
  }

  /// The links, in the order they were added.
  [[nodiscard]] std::span<const Link> links() const noexcept { return links_; }
  /// Adds a link (a new revision; caches repair themselves). Returns a message, and changes
  /// nothing, when an end is not a cell of some floor (map_cell) or the cost is not finite
  /// and > 0. Ends may be walls: the link is then unusable until they are freed.
  std::optional<std::string> add_link(const Link& l);
  /// Removes every link from `from` to `to` (either way for two-way links); returns how many.
  std::size_t remove_links(Cell from, Cell to);
  /// Removes every link.
  void clear_links();
  /// Whether node n starts a link (its outgoing arcs: out_links). Unchecked padded id.
  [[nodiscard]] bool link_out_id(NodeId n) const noexcept {
    return !link_out_mark_.empty() && ((link_out_mark_[n >> 6] >> (n & 63)) & 1u) != 0;
  }
  /// Whether node n ends a link (its incoming arcs: in_links). Unchecked padded id.
  [[nodiscard]] bool link_in_id(NodeId n) const noexcept {
    return !link_in_mark_.empty() && ((link_in_mark_[n >> 6] >> (n & 63)) & 1u) != 0;
  }
  /// One direction of a link, by padded ids: two-way links give two arcs.
  struct Arc {
    NodeId from;  ///< where the move starts
    NodeId to;    ///< where it ends
    float cost;   ///< the link's cost
  };
  /// The arcs leaving node n (sorted by `from`).
  [[nodiscard]] std::span<const Arc> out_links(NodeId n) const noexcept;
  /// The arcs entering node n (sorted by `to`).
  [[nodiscard]] std::span<const Arc> in_links(NodeId n) const noexcept;
  /// Every arc, sorted by `from`.
  [[nodiscard]] std::span<const Arc> arcs() const noexcept { return arcs_out_; }

  /// Whether this is a plain square single-floor grid with no edge walls and no links: the
  /// fast path of every algorithm (JPS, JPS+, subgoal graphs need it).
  [[nodiscard]] bool plain() const noexcept {
    return layout_ == Layout::square && edge_count_ == 0 && links_.empty() && layers_ == 1;
  }

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
  /// wall_count() > 0, stopping at the first such cell (a map with walls most often has one
  /// in its first rows; a search asks before each landmark build).
  [[nodiscard]] bool has_walls() const noexcept;

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
  Layout layout_ = Layout::square;
  int layers_ = 1;
  int layer_height_ = 0;
  int layer_pitch_ = 1;
  // Edge walls by padded id, square: the wall between n and n + 1 (edge_e_), n and n + stride
  // (edge_s_); hex: between n and its neighbour in direction 0 (edge_e_), 5 (edge_s_), 4.
  std::vector<std::uint64_t> edge_e_;
  std::vector<std::uint64_t> edge_s_;
  std::vector<std::uint64_t> edge_x_;  // hex layouts only: the wall toward direction 4
  std::int64_t edge_count_ = 0;        // set bits of edge_e_, edge_s_ and edge_x_
  std::vector<Link> links_;
  std::vector<Arc> arcs_out_;                 // sorted by from
  std::vector<Arc> arcs_in_;                  // sorted by to
  std::vector<std::uint64_t> link_out_mark_;  // padded bits: starts an arc
  std::vector<std::uint64_t> link_in_mark_;   // padded bits: ends an arc
  detail::ChangeLog log_;
  detail::UnitCacheSlot cache_;

  friend struct detail::UnitCache;
  friend double clearance(const Grid& g, const Unit& unit, Cell c);
  void set_class_bits(NodeId n, char cls);
  void record(Rect area, std::uint64_t before);
  void index_links();
  /// Sets bit n of edge vector v (0: edge_e_, 1: edge_s_, 2: edge_x_), keeping edge_count_.
  void set_edge_bit(NodeId n, int v, bool blocked);
  void copy_shape(const Grid& from);
};

/// A wall on a cell edge, named from one of its two cells.
struct EdgeWallAt {
  Cell cell;  ///< the cell that names it (the grid's own rows on layered maps)
  /// Square maps: the Side (0..3: n, e, s, w); hex maps: the direction 0..5 of the edge.
  int side = 0;
};
/// Every wall on a cell edge once, in row-major order of the naming cell. Square maps name an
/// inner edge by the east or south side of a cell, an edge to the outside of a floor by the
/// north side of its first row or the west side of its first column; hex maps by direction 0,
/// 4 or 5, or 1, 2, 3 toward no cell of the map. (The writers of maps and JSON and the renders
/// read them from here.)
[[nodiscard]] std::vector<EdgeWallAt> edge_walls(const Grid& g);

}  // namespace pathlab::grid
