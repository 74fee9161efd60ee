// jps+: Jump Point Search over precomputed jump distances (Rabin & Silva 2015, "JPS+: An
// Extreme A* Speed Optimization for Static Uniform Cost Grids"; Harabor & Grastien 2014), with
// intermediate jump points pruned: a diagonal jump hops from one diagonal jump point to the
// next by the table and generates the straight jump points found there as successors of its
// origin, never the diagonal cells themselves. The goal is found by "target jump points": a
// straight jump whose range covers the goal reaches it; a diagonal jump that crosses the
// goal's row or column inside its range turns there toward the goal. Same rules and costs as
// jps (jps.hpp); also the table's construction, sharing and file format (prepare.hpp).
#include <pathlab/search/prepare.hpp>

#include <chrono>
#include <cstdio>
#include <future>
#include <istream>
#include <ostream>
#include <system_error>
#include <type_traits>  // remove_pointer_t

#include "anyangle_exact.hpp"
#include "jps.hpp"
#include "subgoal_ch.hpp"
#include "subgoal_graph.hpp"

namespace pathlab::search::detail {

/// Marks a wall in the table: the N entry of a wall cell (padding included), so a file shows
/// walls apart from free cells (queries read the grid's bits). A free cell's value is never
/// below -kMaxTableSide.
inline constexpr std::int16_t kTableWall = -32768;

namespace {

enum Dir : int { N, E, S, W, NE, SE, SW, NW };

/// Straight direction index of a unit step.
inline int horizontal_dir(int dx) noexcept {
  return dx > 0 ? E : W;
}
inline int vertical_dir(int dy) noexcept {
  return dy > 0 ? S : N;
}
inline int diagonal_dir(int dx, int dy) noexcept {
  return dy < 0 ? (dx > 0 ? NE : NW) : (dx > 0 ? SE : SW);
}

/// Next value along a diagonal: from the neighbour's value v, when the neighbour is free and
/// is (jp = true) or is not a jump point itself.
inline std::int16_t extend(bool free, bool jp, std::int16_t v) noexcept {
  if (!free) return 0;
  if (jp) return 1;
  return static_cast<std::int16_t>(v > 0 ? v + 1 : v - 1);
}
/// The same along a straight line, where no jump point ahead is 0 whatever the wall's
/// distance: a wall placed or removed then changes no entry before the previous jump point
/// (queries that meet the goal's row or column scan the walls instead).
inline std::int16_t extend_straight(bool jp, std::int16_t v) noexcept {
  if (jp) return 1;
  return static_cast<std::int16_t>(v > 0 ? v + 1 : 0);
}

/// Fetches cell n's record (its 8 entries, 16 bytes) into the cache ahead of its read: a step
/// along a column or a diagonal is a row away, where the hardware's prefetch does not follow.
/// In integers: n may lie past the table (or below it, wrapped around), where a prefetch reads
/// nothing and does no harm.
inline void ask_record(const std::int16_t* table, NodeId n) noexcept {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(table) +
                                                   std::uintptr_t{n} * 8 * sizeof(std::int16_t)));
}

class TableJumper {
 public:
  TableJumper(const Grid& g, const JumpTable& t, NodeId goal)
      : g_(g), dist_(t.dist.data()), goal_(goal) {
    for (int d = 0; d < 8; ++d) off_[d] = grid::kDx[d] + grid::kDy[d] * g.stride();
    const Cell gc = g.cell(goal);
    gx_ = gc.x;
    gy_ = gc.y;
  }

  /// Fetches cell n's record ahead of its read: n is likely the next cell expanded, or the
  /// next cells of a diagonal.
  void ahead(NodeId n) const noexcept { ask_record(dist_, n); }

  template <class Emit>
  void expand(NodeId n, int x, int y, int dx, int dy, Emit& emit) const {
    const std::int16_t* d = dist_ + std::size_t{n} * 8;
    if (dx == 0 && dy == 0) {
      for (int k = 0; k < 4; ++k) straight(n, x, y, k, d[k], 0, emit);
      for (int k = 4; k < 8; ++k) diagonal(n, x, y, grid::kDx[k], grid::kDy[k], emit);
    } else if (dy == 0) {
      straight(n, x, y, horizontal_dir(dx), d[horizontal_dir(dx)], 0, emit);
      for (const int side : {-1, 1}) {
        const NodeId beside = n + side * off_[S];
        if (free(beside) && !free(beside - dx)) {
          straight(n, x, y, vertical_dir(side), d[vertical_dir(side)], 0, emit);
          diagonal(n, x, y, dx, side, emit);
        }
      }
    } else if (dx == 0) {
      straight(n, x, y, vertical_dir(dy), d[vertical_dir(dy)], 0, emit);
      for (const int side : {-1, 1}) {
        const NodeId beside = n + side;
        if (free(beside) && !free(beside - dy * off_[S])) {
          straight(n, x, y, horizontal_dir(side), d[horizontal_dir(side)], 0, emit);
          diagonal(n, x, y, side, dy, emit);
        }
      }
    } else {
      straight(n, x, y, horizontal_dir(dx), d[horizontal_dir(dx)], 0, emit);
      straight(n, x, y, vertical_dir(dy), d[vertical_dir(dy)], 0, emit);
      diagonal(n, x, y, dx, dy, emit);
    }
  }

 private:
  /// The grid's wall bits (a 512x512 map's fit in L1/L2), not the table's wall marks: those
  /// are a cache line per cell, and the cells beside n are rows away (2x slower on mazes).
  [[nodiscard]] bool free(NodeId n) const noexcept { return g_.passable_id(n); }

  /// Straight jump from n (at x, y) in straight direction `dir` with table value v, after k
  /// diagonal steps from the successors' origin (n is then a diagonal cell).
  template <class Emit>
  void straight(NodeId n, int x, int y, int dir, std::int16_t v, int k, Emit& emit) const {
    const int dx = grid::kDx[dir], dy = grid::kDy[dir];
    const int to_goal = dx != 0 ? (y == gy_ ? (gx_ - x) * dx : 0) : (x == gx_ ? (gy_ - y) * dy : 0);
    if (to_goal > 0 && (v > 0 ? to_goal <= v : clear(n, dir, to_goal))) {
      emit(goal_, gx_, gy_, k, to_goal);
    } else if (v > 0) {
      emit(n + v * off_[dir], x + v * dx, y + v * dy, k, v);
    }
  }

  /// Whether the `steps` cells after n in straight direction dir are all free: the goal's
  /// row or column met where the table says no jump point lies ahead. Horizontal runs read
  /// 63 cells of the row's wall bits at a time; vertical ones step.
  [[nodiscard]] bool clear(NodeId n, int dir, int steps) const noexcept {
    if (dir == E || dir == W) {
      const std::uint64_t* w = g_.wall_words().data();
      for (std::uint32_t left = static_cast<std::uint32_t>(steps); left > 0;) {
        const std::uint32_t take = std::min<std::uint32_t>(left, 63);
        const std::uint64_t mask = (std::uint64_t{1} << take) - 1;
        // Cells n+1..n+take (east) or n-take..n-1 (west), in the window's low bits.
        const std::uint32_t from = dir == E ? n + 1 : n - take;
        if ((window_from(w, from) & mask) != 0) return false;
        n = dir == E ? n + take : n - take;
        left -= take;
      }
      return true;
    }
    for (int i = 1; i <= steps; ++i) {
      if (!free(n + static_cast<NodeId>(i * off_[dir]))) return false;
    }
    return true;
  }

  template <class Emit>
  void diagonal(NodeId n, int x, int y, int dx, int dy, Emit& emit) const {
    const int dir = diagonal_dir(dx, dy);
    const int hd = horizontal_dir(dx), vd = vertical_dir(dy);
    // The step at which the diagonal crosses the goal's row or column, if the goal lies in
    // this quadrant (0 = never: from the origin itself the straight jumps see the goal).
    const int gdx = (gx_ - x) * dx, gdy = (gy_ - y) * dy;
    const int cross = gdx >= 0 && gdy >= 0 ? std::min(gdx, gdy) : 0;
    int k = 0;
    for (;;) {
      // Most hops are short (one or two cells: 40 % of the reads on the switch scenario's
      // half-morphed 1024x1024 map), each to a record a row away: asked for ahead.
      ahead(n + off_[dir]);
      ahead(n + 2 * off_[dir]);
      const std::int16_t v = dist_[std::size_t{n} * 8 + dir];
      const int reach = v > 0 ? v : -v;
      if (cross > k && cross <= k + reach) {
        const int c = cross - k;
        const NodeId cn = n + c * off_[dir];
        const int cx = x + c * dx, cy = y + c * dy;
        if (cn == goal_) {
          emit(goal_, gx_, gy_, cross, 0);
        } else {
          const int sd = gdx > gdy ? hd : vd;
          straight(cn, cx, cy, sd, dist_[std::size_t{cn} * 8 + sd], cross, emit);
        }
      }
      if (v <= 0) return;
      n += v * off_[dir];
      x += v * dx;
      y += v * dy;
      k += v;
      const std::int16_t* d = dist_ + std::size_t{n} * 8;
      if (d[hd] > 0) emit(n + d[hd] * off_[hd], x + d[hd] * dx, y, k, d[hd]);
      if (d[vd] > 0) emit(n + d[vd] * off_[vd], x, y + d[vd] * dy, k, d[vd]);
    }
  }

  const Grid& g_;
  const std::int16_t* dist_;
  std::int32_t off_[8];
  NodeId goal_;
  int gx_ = 0, gy_ = 0;
};

}  // namespace

namespace {

/// The rules of the table, one entry at a time: what build_jump_table sweeps and
/// repair_jump_table recomputes. Every entry is a function of its cell's neighbourhood and of
/// one entry of the next cell along its direction (its chain). Cells are padded ids: the
/// padding reads as walls, so no step needs a bounds check.
struct TableRules {
  TableRules(const Grid& grid, std::int16_t* table) : g(grid), dist(table), stride(g.stride()) {
    for (int d = 0; d < 8; ++d) off[d] = grid::kDx[d] + grid::kDy[d] * stride;
  }
  const Grid& g;
  std::int16_t* dist;
  std::int32_t stride;
  std::int32_t off[8];  // the padded id step of each direction
  [[nodiscard]] bool free(NodeId n) const noexcept { return g.passable_id(n); }
  std::int16_t& at(NodeId n, int d) const noexcept {
    return dist[std::size_t{n} * 8 + static_cast<std::size_t>(d)];
  }
  // Forced neighbour of a cell entered moving in a straight direction: a side cell free and
  // the cell behind it a wall (ALGORITHMS.md).
  [[nodiscard]] bool forced_h(NodeId n, int dx) const noexcept {
    const NodeId b = n - static_cast<NodeId>(dx);
    return (free(n - stride) && !free(b - stride)) || (free(n + stride) && !free(b + stride));
  }
  [[nodiscard]] bool forced_v(NodeId n, int dy) const noexcept {
    const NodeId b = n - static_cast<NodeId>(dy * stride);
    return (free(n - 1) && !free(b - 1)) || (free(n + 1) && !free(b + 1));
  }
  /// The entry of free cell n in direction d, from the next cell's entry.
  [[nodiscard]] std::int16_t value(NodeId n, int d) const noexcept {
    const NodeId next = n + static_cast<NodeId>(off[d]);
    const int dx = grid::kDx[d], dy = grid::kDy[d];
    if (d < 4) {
      // Padding cells are walls: their entries are never read as a chain value.
      if (!free(next)) return 0;
      return extend_straight(dy == 0 ? forced_h(next, dx) : forced_v(next, dy), at(next, d));
    }
    // Diagonals: a step is legal when both orthogonal cells and the target are free; the
    // target is a diagonal jump point when a straight jump along either component finds one.
    if (!(free(n + static_cast<NodeId>(dx)) && free(n + static_cast<NodeId>(dy * stride)) &&
          free(next))) {
      return 0;
    }
    return extend(true, at(next, horizontal_dir(dx)) > 0 || at(next, vertical_dir(dy)) > 0,
                  at(next, d));
  }
  /// Sets every entry of a wall cell: the mark in N, 0 elsewhere.
  void wall(NodeId n) const noexcept {
    for (int d = 0; d < 8; ++d) at(n, d) = d == N ? kTableWall : 0;
  }
};

}  // namespace

namespace {

/// A table's fill or repair of at least this many cells runs on two cores where the process
/// has them (starting the thread costs tens of microseconds; a repair of this size, about 1 ms).
constexpr std::int64_t kApartCells = 8192;

/// Every entry of the table of g, into `dist` (padded_size() * 8 entries, any contents). First
/// each row's walls and its E and W entries (their chains run along the row; the rows' two
/// halves side by side); then top down the N, NE and NW entries of each row (theirs run through
/// the row above, done), while bottom up, beside it, the S, SE and SW ones (through the row
/// below). `apart`: on two cores.
void fill_jump_table(const Grid& g, std::int16_t* dist, bool apart) {
  const TableRules r{g, dist};
  const int w = g.width(), h = g.height();
  // The padding rows above and below the map: walls.
  for (NodeId n = 0; n < g.id(-1, 0); ++n) r.wall(n);
  for (NodeId n = g.id(-1, h); n < g.padded_size(); ++n) r.wall(n);
  auto rows = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      r.wall(g.id(-1, y));
      r.wall(g.id(w, y));
      const NodeId row = g.id(0, y);
      for (int x = 0; x < w; ++x) {
        const NodeId n = row + static_cast<NodeId>(x);
        if (!r.free(n)) r.wall(n);
      }
      for (int x = w - 1; x >= 0; --x) {
        const NodeId n = row + static_cast<NodeId>(x);
        if (r.free(n)) r.at(n, E) = r.value(n, E);
      }
      for (int x = 0; x < w; ++x) {
        const NodeId n = row + static_cast<NodeId>(x);
        if (r.free(n)) r.at(n, W) = r.value(n, W);
      }
    }
  };
  side_by_side(
      apart, [&] { rows(0, h / 2); }, [&] { rows(h / 2, h); });
  // Every row from `first`, `step` rows at a time, filling the entries of directions d (given
  // as constants, so that their rules inline): each reads the row before it, done already.
  auto pass = [&](int first, int step, auto... d) {
    for (int y = first; y >= 0 && y < h; y += step) {
      const NodeId row = g.id(0, y);
      for (int x = 0; x < w; ++x) {
        const NodeId n = row + static_cast<NodeId>(x);
        if (!r.free(n)) continue;
        ((r.at(n, d) = r.value(n, d)), ...);
      }
    }
  };
  side_by_side(
      apart,
      [&] {
        pass(0, 1, std::integral_constant<int, N>{}, std::integral_constant<int, NE>{},
             std::integral_constant<int, NW>{});
      },
      [&] {
        pass(h - 1, -1, std::integral_constant<int, S>{}, std::integral_constant<int, SE>{},
             std::integral_constant<int, SW>{});
      });
}

/// Whether a fill or repair of this many cells runs on two cores.
bool apart_for(std::int64_t cells) {
  return cells >= kApartCells && spare_core() && threads_available();
}

}  // namespace

std::shared_ptr<const JumpTable> build_jump_table(const Grid& g) {
  const auto t0 = std::chrono::steady_clock::now();
  auto t = std::make_shared<JumpTable>();
  t->width = g.width();
  t->height = g.height();
  t->map_checksum = g.checksum();
  t->dist.resize(g.padded_size() * 8);
  fill_jump_table(g, t->dist.data(), apart_for(std::int64_t{g.width()} * g.height()));
  t->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

void repair_jump_table(const Grid& g, JumpTable& t, std::span<const grid::Rect> areas,
                       std::vector<std::uint64_t>& scratch) {
  const TableRules r{g, t.dist.data()};
  const int w = g.width(), h = g.height();
  t.map_checksum = 0;  // not recomputed per edit: save_prepared asks the grid
  // Areas covering a quarter of the map: a fresh fill is cheaper than the walks (the dynamic
  // track's first patch, a whole 1024x1024 map: ~15 ms against 55 ms).
  std::int64_t area_cells = 0;
  for (const grid::Rect& a : areas) {
    area_cells += std::int64_t{a.x1 - a.x0 + 1} * (a.y1 - a.y0 + 1);
  }
  const bool apart = apart_for(area_cells);
  if (area_cells * 4 >= std::int64_t{w} * h) {
    fill_jump_table(g, t.dist.data(), apart);
    return;
  }
  // An entry reads its cell and the cells one step away (the next cell, and for a straight
  // entry the cells beside it and beside the next cell, where a forced neighbour shows), and
  // the next cell's entry along its chain. So the entries whose own inputs changed lie within
  // 1 cell of an area; from each, a chain is recomputed against its direction until an entry
  // comes out as it was: everything before it then is too.
  // Straight entries first (diagonal ones read them), collecting the cells whose straight
  // entries changed sign: the diagonal chains through those cells are recomputed too.
  // A chain's walk reads and writes the entries of its own direction only, and reads the
  // straight ones of others: so the horizontal walks run beside the vertical ones, and then
  // the NE and SE walks beside the SW and NW ones (on two cores when the areas are large).
  // The straight entries that flipped, padded id << 2 | direction: E and N ones, W and S ones.
  std::vector<std::uint64_t>& flipped_en = scratch;
  flipped_en.clear();
  std::vector<std::uint64_t> flipped_ws;
  auto walk = [&](NodeId n, int d, NodeId until, std::vector<std::uint64_t>* flipped) {
    // From n against direction d, recomputing; past `until` (on that line, inside the map,
    // as n is) stop at the first unchanged entry, or at a wall (the padding is walls, and
    // every wall's entries are marked: the map's before, the areas' just below).
    const NodeId back = static_cast<NodeId>(-r.off[d]);
    bool past = false;
    for (;; n += back) {
      ask_record(r.dist, n + 4 * back);
      if (n == until) past = true;
      if (!r.free(n)) {
        if (past) return;
        continue;
      }
      const std::int16_t v = r.value(n, d), was = r.at(n, d);
      if (v == was) {
        if (past) return;
        continue;
      }
      r.at(n, d) = v;
      // A diagonal entry reads a straight one only as "a jump point lies that way" (> 0): a
      // distance that changed but kept its sign changes no diagonal entry.
      if (flipped != nullptr && (v > 0) != (was > 0)) {
        flipped->push_back(std::uint64_t{n} << 2 | static_cast<unsigned>(d));
      }
    }
  };
  auto grown = [&](const grid::Rect& a) {
    return grid::Rect{std::max(0, a.x0 - 1), std::max(0, a.y0 - 1), std::min(w - 1, a.x1 + 1),
                      std::min(h - 1, a.y1 + 1)};
  };
  for (const grid::Rect& a0 : areas) {
    const grid::Rect a = grown(a0);
    for (int y = a.y0; y <= a.y1; ++y) {
      for (int x = a.x0; x <= a.x1; ++x) {
        if (!r.free(g.id(x, y))) r.wall(g.id(x, y));
      }
    }
  }
  // A row's walk and a column's on each side (E with N, W with S: the column walks, a row
  // apart each step, cost more than the row walks).
  auto straight = [&](int along_row, int along_column, std::vector<std::uint64_t>* flipped) {
    for (const grid::Rect& a0 : areas) {
      const grid::Rect a = grown(a0);
      const bool east = along_row == E, north = along_column == N;
      for (int y = a.y0; y <= a.y1; ++y) {
        walk(g.id(east ? a.x1 : a.x0, y), along_row, g.id(east ? a.x0 : a.x1, y), flipped);
      }
      for (int x = a.x0; x <= a.x1; ++x) {
        // N entries read the row above: walked top down.
        walk(g.id(x, north ? a.y0 : a.y1), along_column, g.id(x, north ? a.y1 : a.y0), flipped);
      }
    }
  };
  side_by_side(
      apart, [&] { straight(E, N, &flipped_en); }, [&] { straight(W, S, &flipped_ws); });
  // Diagonals, direction by direction: each chain through an area is recomputed from its most
  // downstream cell there; then, in any order, the chains through a cell whose straight entry
  // flipped, from the cell one step before along the diagonals that read it (an entry listed
  // twice, flipped in two walks, costs one more entry computed: a walk stops at the first entry
  // that comes out as it is; sorting them to drop the repeats took longer, 26.6 against 22.6 us
  // a patch on dao_arena2).
  auto diagonal = [&](int d) {
    const int dx = grid::kDx[d], dy = grid::kDy[d];
    for (const grid::Rect& a0 : areas) {
      const grid::Rect a = grown(a0);
      auto inside = [&](int x, int y) { return x >= a.x0 && x <= a.x1 && y >= a.y0 && y <= a.y1; };
      for (int y = a.y0; y <= a.y1; ++y) {
        for (int x = a.x0; x <= a.x1; ++x) {
          if (inside(x + dx, y + dy)) continue;
          // Walk back through the area, then on while entries change.
          const int k = std::min(dx > 0 ? x - a.x0 : a.x1 - x, dy > 0 ? y - a.y0 : a.y1 - y);
          walk(g.id(x, y), d, g.id(x - k * dx, y - k * dy), nullptr);
        }
      }
    }
    const int hd = horizontal_dir(dx), vd = vertical_dir(dy);
    for (const auto* flipped : {&flipped_en, &flipped_ws}) {
      for (const std::uint64_t c : *flipped) {
        const int sd = static_cast<int>(c & 3);
        if (sd != hd && sd != vd) continue;
        const NodeId p = static_cast<NodeId>(c >> 2) - static_cast<NodeId>(r.off[d]);
        if (r.free(p)) walk(p, d, p, nullptr);
      }
    }
  };
  side_by_side(
      apart,
      [&] {
        diagonal(NE);
        diagonal(SE);
      },
      [&] {
        diagonal(SW);
        diagonal(NW);
      });
}

template <class L>
Status run_jps_table(const Grid& grid, const Options& o, const JumpTable& table, NodeId s, NodeId t,
                     Pathfinder::Workspace& ws, Result& out, L& listener,
                     const Landmarks::Goal* marks) {
  return run_jumper(grid, o, TableJumper(grid, table, t), s, t, ws, out, listener, marks);
}

template Status run_jps_table(const Grid&, const Options&, const JumpTable&, NodeId, NodeId,
                              Pathfinder::Workspace&, Result&, NullListener&,
                              const Landmarks::Goal*);
template Status run_jps_table(const Grid&, const Options&, const JumpTable&, NodeId, NodeId,
                              Pathfinder::Workspace&, Result&, DynamicListener&,
                              const Landmarks::Goal*);

}  // namespace pathlab::search::detail

// --- prepare.hpp -------------------------------------------------------------------------------

namespace pathlab::search {

namespace {

constexpr char kMagic[8] = {'P', 'L', 'P', 'R', 'E', 'P', '\r', '\n'};

/// FNV-1a over 64-bit words (8 bytes at a time: a 12 MiB table checks in a few ms).
std::uint64_t fnv1a_words(const void* data, std::size_t bytes) noexcept {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t v;
    std::memcpy(&v, p + i, 8);
    h = (h ^ v) * 1099511628211ull;
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t algorithm;
  std::uint32_t width;
  std::uint32_t height;
  std::uint64_t map_checksum;
  std::uint64_t payload_bytes;
  std::uint64_t payload_checksum;
};
static_assert(sizeof(Header) == 48);

}  // namespace

struct PreparedAccess {
  /// The grid the finder searches (its unit's view); the finder's own grid if that fails.
  static const grid::Grid& grid(const Pathfinder& f) noexcept {
    const grid::Grid* g = f.searched_grid();
    return g != nullptr ? *g : *f.grid_;
  }
  static detail::JpsCache* cache(const Pathfinder& f) noexcept {
    return f.ws_->jps && f.ws_->jps->up_to_date(grid(f)) ? f.ws_->jps.get() : nullptr;
  }
  static detail::JpsCache& fresh_cache(Pathfinder& f) { return detail::jps_cache(*f.ws_, grid(f)); }
  static Pathfinder::Workspace& ws(Pathfinder& f) noexcept { return *f.ws_; }
  /// The finder's cache of a subgoal method (SubgoalCache or HierarchyCache), made if need be.
  template <class Cache>
  static Cache& own(Pathfinder& f) {
    return detail::own_cache<Cache>(*f.ws_);
  }
  /// That cache when its graph is up to date for the finder's grid, else nullptr.
  template <class Cache>
  static const Cache* graph(const Pathfinder& f) noexcept {
    const Cache* c = detail::cache_of<Cache>(*f.ws_);
    return c != nullptr && c->graph && c->graph->matches(grid(f)) ? c : nullptr;
  }
  /// Whether the finder's algorithm, options and grid use a subgoal graph (either method).
  static bool uses_graph(const Pathfinder& f) noexcept {
    return subgoal_method(f.options_.algorithm) &&
           detail::SubgoalGraph::applies(grid(f), f.options_.moves);
  }
  /// Whether the finder answers with anyangle-labels here (a plain square map).
  static bool uses_labels(const Pathfinder& f) noexcept {
    return f.options_.algorithm == Algorithm::anyangle_labels &&
           detail::fallback_on(grid(f), f.options_).fallback == Fallback::none;
  }
  static const std::shared_ptr<const detail::AnyAngleLabels>* labels(const Pathfinder& f) noexcept {
    return detail::ready_labels(*f.ws_, grid(f), f.options_.moves.diagonal);
  }
  static bool subgoal_method(Algorithm a) noexcept {
    return a == Algorithm::subgoal || a == Algorithm::subgoal_ch;
  }
  /// Calls f with a null pointer of the cache type of subgoal method a.
  template <class F>
  static decltype(auto) by_cache(Algorithm a, F&& f) {
    if (a == Algorithm::subgoal_ch) return f(static_cast<detail::HierarchyCache*>(nullptr));
    return f(static_cast<detail::SubgoalCache*>(nullptr));
  }
  /// Whether the finder's algorithm, options and grid use the jump table.
  static bool uses_table(const Pathfinder& f) noexcept {
    return f.options_.algorithm == Algorithm::jps_plus &&
           detail::jps_applies(grid(f), f.options_.moves) && detail::table_applies(grid(f));
  }
};

bool uses_preparation(Algorithm a) noexcept {
  return a == Algorithm::jps_plus || PreparedAccess::subgoal_method(a) ||
         a == Algorithm::anyangle_labels;
}

PrepareInfo prepared_info(const Pathfinder& f) noexcept {
  PrepareInfo info;
  if (f.options().algorithm == Algorithm::anyangle_labels) {
    const auto* l = PreparedAccess::labels(f);
    if (!PreparedAccess::uses_labels(f) || l == nullptr) return info;
    info.ready = true;
    info.loaded = (*l)->loaded;
    info.seconds = (*l)->build_seconds;
    info.bytes = (*l)->bytes();
    return info;
  }
  if (PreparedAccess::subgoal_method(f.options().algorithm)) {
    return PreparedAccess::by_cache(f.options().algorithm, [&](auto* tag) {
      using Cache = std::remove_pointer_t<decltype(tag)>;
      const Cache* c = PreparedAccess::graph<Cache>(f);
      if (!PreparedAccess::uses_graph(f) || c == nullptr) return info;
      info.ready = true;
      info.loaded = c->loaded;
      info.seconds = c->graph->build_seconds;
      info.bytes = c->graph->memory_bytes();
      return info;
    });
  }
  const detail::JpsCache* c = PreparedAccess::cache(f);
  if (!PreparedAccess::uses_table(f) || c == nullptr || !c->table) return info;
  info.ready = true;
  info.loaded = c->table->loaded;
  info.seconds = c->table->seconds + c->marks.seconds;
  info.bytes = c->table->bytes() + c->comps.bytes() + c->marks.bytes();
  return info;
}

PrepareInfo prepare(Pathfinder& f) noexcept {
  if (f.options().algorithm == Algorithm::anyangle_labels) {
    if (!PreparedAccess::uses_labels(f)) return {};
    try {
      if (detail::labels_now(PreparedAccess::ws(f), PreparedAccess::grid(f),
                             f.options().moves.diagonal) == nullptr) {
        return {};  // over budget: anyangle-exact answers (fallback_for says so)
      }
    } catch (const std::exception&) {
      return {};
    }
    return prepared_info(f);
  }
  if (PreparedAccess::uses_graph(f)) {
    try {
      // The first graph is built now; after map edits it is repaired here, or, after a large
      // edit (or once repairs have grown it too far), rebuilt on another thread, ready staying
      // false until it is in. Queries meanwhile answer with jps+ (jps on large maps): its
      // table is then brought up to date here too, as jps+'s own prepare() would.
      const bool answers = PreparedAccess::by_cache(f.options().algorithm, [&](auto* tag) {
        using Cache = std::remove_pointer_t<decltype(tag)>;
        return detail::graph_cache_now<Cache>(PreparedAccess::ws(f), PreparedAccess::grid(f)) !=
               nullptr;
      });
      const grid::Grid& g = PreparedAccess::grid(f);
      // While a rebuild runs, the graph still answers, but may grow unfit before the build is
      // in. Where they cost at most half the graph's build (den520d: 35-48 against 140-220
      // ms), the stand-in's landmarks start on another core now (dearer ones would hold the
      // rebuild up: brc202d's cost as much as its graph, maze512-1-0's 1.5 times); once in, and
      // once repairs have grown the graph far enough to want the rebuild, they are taken and kept
      // up to date here (before that, their upkeep would cost edits for a stand-in seldom asked).
      bool wants = false;
      double ahead_s = -1;  // < 0: no rebuild running
      PreparedAccess::by_cache(f.options().algorithm, [&](auto* tag) {
        using Cache = std::remove_pointer_t<decltype(tag)>;
        const Cache& c = PreparedAccess::own<Cache>(f);
        if (c.pending.valid() && c.graph) {
          wants = c.graph->wants_rebuild();
          ahead_s = c.graph->build_seconds / 2;
        }
        return 0;
      });
      Pathfinder::Workspace& ws = PreparedAccess::ws(f);
      if (answers && ahead_s >= 0) {
        if (wants && ws.jps && (ws.jps->marks_pending.valid() || !ws.jps->marks.empty())) {
          (void)detail::stand_in_cache(ws, g, f.options());
        } else {
          detail::start_stand_in_marks(ws, g, f.options(), ahead_s);
        }
      } else if (!answers && detail::rebuild_stand_in(g) == Algorithm::jps_plus) {
        detail::JpsCache& c = detail::stand_in_cache(PreparedAccess::ws(f), g, f.options());
        detail::ensure_table(c, g);
        if (detail::stand_in_marks(g) && f.options().effective_heuristic() == Heuristic::octile) {
          detail::ensure_landmarks(c, g, f.options().moves);
        }
      }
    } catch (const std::exception&) {
      return {};
    }
    return prepared_info(f);
  }
  if (!PreparedAccess::uses_table(f)) return {};
  try {
    detail::JpsCache& c = PreparedAccess::fresh_cache(f);
    detail::ensure_table(c, PreparedAccess::grid(f));
    // (The landmarks only for the octile heuristic, as a query takes them.)
    if (f.options().effective_heuristic() == Heuristic::octile) {
      detail::ensure_landmarks(c, PreparedAccess::grid(f), f.options().moves);
    }
  } catch (const std::bad_alloc&) {
    return {};
  }
  return prepared_info(f);
}

bool share_prepared(const Pathfinder& from, Pathfinder& to) noexcept {
  if (from.options().algorithm == Algorithm::anyangle_labels) {
    const auto* l = PreparedAccess::labels(from);
    if (l == nullptr || !PreparedAccess::uses_labels(to) ||
        to.options().moves.diagonal != from.options().moves.diagonal) {
      return false;
    }
    try {
      if (!(PreparedAccess::grid(from) == PreparedAccess::grid(to))) return false;
      detail::adopt_labels(PreparedAccess::ws(to), PreparedAccess::grid(to), *l);
    } catch (const std::bad_alloc&) {
      return false;
    }
    return true;
  }
  if (PreparedAccess::subgoal_method(from.options().algorithm)) {
    if (to.options().algorithm != from.options().algorithm) return false;
    return PreparedAccess::by_cache(from.options().algorithm, [&](auto* tag) {
      using Cache = std::remove_pointer_t<decltype(tag)>;
      const Cache* src = PreparedAccess::graph<Cache>(from);
      if (src == nullptr || !PreparedAccess::uses_graph(to) ||
          !src->graph->matches(PreparedAccess::grid(to))) {
        return false;
      }
      try {
        Cache& dst = PreparedAccess::own<Cache>(to);
        dst.graph = src->graph;
        dst.revision = PreparedAccess::grid(to).revision();  // (matches() checked the walls)
        dst.loaded = src->loaded;
      } catch (const std::bad_alloc&) {
        return false;
      }
      return true;
    });
  }
  const detail::JpsCache* src = PreparedAccess::cache(from);
  if (src == nullptr || !src->table || !PreparedAccess::uses_table(to)) return false;
  try {
    if (!(PreparedAccess::grid(from) == PreparedAccess::grid(to))) return false;
    detail::JpsCache& dst = PreparedAccess::fresh_cache(to);
    dst.table = src->table;
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

bool save_prepared(Pathfinder& f, std::ostream& out) {
  if (!prepare(f).ready) return false;
  if (f.options().algorithm == Algorithm::anyangle_labels) {
    return (*PreparedAccess::labels(f))->save(out, PreparedAccess::grid(f));
  }
  if (PreparedAccess::subgoal_method(f.options().algorithm)) {
    return PreparedAccess::by_cache(f.options().algorithm, [&](auto* tag) {
      using Cache = std::remove_pointer_t<decltype(tag)>;
      return PreparedAccess::graph<Cache>(f)->graph->save(out, PreparedAccess::grid(f));
    });
  }
  const detail::JumpTable& t = *PreparedAccess::cache(f)->table;
  const grid::Grid& g = PreparedAccess::grid(f);
  // Only the map's cells: the padding is rebuilt on load.
  std::vector<std::int16_t> payload;
  payload.reserve(static_cast<std::size_t>(g.cells()) * 8);
  for (int y = 0; y < g.height(); ++y) {
    const std::int16_t* row = t.dist.data() + std::size_t{g.id(0, y)} * 8;
    payload.insert(payload.end(), row, row + std::size_t(g.width()) * 8);
  }
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kPreparedFormatVersion;
  h.algorithm = static_cast<std::uint32_t>(f.options().algorithm);
  h.width = static_cast<std::uint32_t>(g.width());
  h.height = static_cast<std::uint32_t>(g.height());
  h.map_checksum = g.checksum();  // the table is up to date for g (repairs do not recompute it)
  h.payload_bytes = payload.size() * sizeof(std::int16_t);
  h.payload_checksum = fnv1a_words(payload.data(), h.payload_bytes);
  out.write(reinterpret_cast<const char*>(&h), sizeof h);
  out.write(reinterpret_cast<const char*>(payload.data()),
            static_cast<std::streamsize>(h.payload_bytes));
  return static_cast<bool>(out);
}

bool load_prepared(Pathfinder& f, std::istream& in) {
  if (f.options().algorithm == Algorithm::anyangle_labels) {
    if (!PreparedAccess::uses_labels(f)) return false;
    try {
      const grid::Grid& g = PreparedAccess::grid(f);
      detail::ExactCache& c =
          detail::exact_cache(PreparedAccess::ws(f), g, f.options().moves.diagonal);
      std::optional<detail::AnyAngleLabels> l = detail::AnyAngleLabels::load(in, g, c);
      if (!l) return false;
      detail::adopt_labels(PreparedAccess::ws(f), g,
                           std::make_shared<const detail::AnyAngleLabels>(std::move(*l)));
    } catch (const std::bad_alloc&) {
      return false;
    }
    return true;
  }
  if (PreparedAccess::uses_graph(f)) {
    return PreparedAccess::by_cache(f.options().algorithm, [&](auto* tag) {
      using Cache = std::remove_pointer_t<decltype(tag)>;
      using Graph = typename Cache::graph_type;
      try {
        std::optional<Graph> g = Graph::load(in, PreparedAccess::grid(f));
        if (!g) return false;
        Cache& c = PreparedAccess::own<Cache>(f);
        c.graph = std::make_shared<Graph>(std::move(*g));  // (not const: it may be repaired)
        c.revision = PreparedAccess::grid(f).revision();   // (load checked the map's checksum)
        c.loaded = true;
      } catch (const std::bad_alloc&) {
        return false;
      }
      return true;
    });
  }
  if (!PreparedAccess::uses_table(f)) return false;
  const auto t0 = std::chrono::steady_clock::now();
  const grid::Grid& g = PreparedAccess::grid(f);
  Header h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return false;
  const std::uint64_t cells = static_cast<std::uint64_t>(g.cells());
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kPreparedFormatVersion ||
      h.algorithm != static_cast<std::uint32_t>(f.options().algorithm) ||
      h.width != static_cast<std::uint32_t>(g.width()) ||
      h.height != static_cast<std::uint32_t>(g.height()) ||
      h.payload_bytes != cells * 8 * sizeof(std::int16_t) || h.map_checksum != g.checksum()) {
    return false;
  }
  try {
    std::vector<std::int16_t> payload(cells * 8);
    if (!in.read(reinterpret_cast<char*>(payload.data()),
                 static_cast<std::streamsize>(h.payload_bytes)) ||
        fnv1a_words(payload.data(), h.payload_bytes) != h.payload_checksum) {
      return false;
    }
    auto t = std::make_shared<detail::JumpTable>();
    t->width = g.width();
    t->height = g.height();
    t->map_checksum = h.map_checksum;
    t->dist.assign(g.padded_size() * 8, 0);
    for (int y = -1; y <= g.height(); ++y) {
      for (int x = -1; x <= g.width(); ++x) {
        if (!g.passable_id(g.id(x, y))) {
          t->dist[std::size_t{g.id(x, y)} * 8] = detail::kTableWall;
        }
      }
    }
    for (int y = 0; y < g.height(); ++y) {
      std::memcpy(t->dist.data() + std::size_t{g.id(0, y)} * 8,
                  payload.data() + static_cast<std::size_t>(y) * std::size_t(g.width()) * 8,
                  std::size_t(g.width()) * 8 * sizeof(std::int16_t));
    }
    // The checksum catches a damaged file, not a forged one (a fuzzer writes the right sum in
    // seconds), and a wrong jump distance would send the search outside the map. A table costs
    // less to build than to read (≤ 25 ms on the Moving AI maps), so the file is checked
    // against a fresh one and used only when they agree.
    if (detail::build_jump_table(g)->dist != t->dist) return false;
    t->loaded = true;
    t->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The file holds the table; the components and landmarks beside it are built now, as
    // prepare() would.
    detail::JpsCache& c = PreparedAccess::fresh_cache(f);
    c.table = std::move(t);
    detail::ensure_table(c, g);
    detail::ensure_landmarks(c, g, f.options().moves);
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

std::string prepared_file_name(const grid::Grid& g, Algorithm a, grid::DiagonalRule rule) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(g.checksum()));
  const std::uint32_t version =
      a == Algorithm::subgoal           ? detail::SubgoalGraph::kFormatVersion
      : a == Algorithm::subgoal_ch      ? detail::SubgoalHierarchy::kFormatVersion
      : a == Algorithm::anyangle_labels ? detail::AnyAngleLabels::kFormatVersion
                                        : kPreparedFormatVersion;
  // Only anyangle-labels prepare under another rule than no-corner-cut; their files say which.
  const std::string rule_part =
      a == Algorithm::anyangle_labels && rule != grid::DiagonalRule::no_corner_cut
          ? std::string(grid::to_string(rule)) + "-"
          : std::string();
  return std::string(to_string(a)) + "-" + rule_part + hex + "-v" + std::to_string(version) +
         ".prep";
}

}  // namespace pathlab::search
