// jps: Jump Point Search (Harabor & Grastien 2011) for 8-neighbour grids without corner
// cutting, with the improvements of Harabor & Grastien 2014 ("Improving Jump Point Search"):
// block-based jumping — a straight jump reads 63 cells per 64-bit word of the row and of the
// rows beside it and finds the next wall or forced neighbour with one bit scan; vertical jumps
// do the same on a transposed copy of the walls — and pruning of intermediate jump points (see
// jps.hpp). Unit-terrain maps only: on maps with terrain costs, or under another diagonal
// rule, jps answers with A* and says so in Result::note (never a wrong cost).
#include "jps.hpp"
#include "subgoal_graph.hpp"

#include <array>
#include <chrono>
#include <limits>
#include <new>
#include <type_traits>

namespace pathlab::search::detail {

namespace {

/// The most landmarks built after an edit gave the last ones up (see jps_cache).
constexpr int kAfterEdit = 4;

}  // namespace

void destroy(JpsCache* p) noexcept {
  delete p;
}

std::size_t bytes_of(const JpsCache& c) noexcept {
  return sizeof(JpsCache) + capacity_bytes(c.cols) + c.comps.bytes() + c.marks.bytes();
}

JpsCache& jps_cache(Pathfinder::Workspace& ws, const Grid& g) {
  if (!ws.jps) ws.jps.reset(new JpsCache);
  JpsCache& c = *ws.jps;
  if (c.up_to_date(g)) return c;
  // The map was edited since: repair what the edits reach (shared_ptr: a table other finders
  // share is copied first, theirs stays as it was), or rebuild when the grid's change log no
  // longer reaches back.
  if (!g.changes_since(c.revision, c.changes)) {
    c.reset(g);
    return c;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (c.table) {
    std::shared_ptr<JumpTable> t = c.table.use_count() == 1
                                       ? std::const_pointer_cast<JumpTable>(c.table)
                                       : std::make_shared<JumpTable>(*c.table);
    repair_jump_table(g, *t, c.changes, c.repaired);
    t->loaded = false;
    c.table = std::move(t);
  }
  c.comps.repair(g, c.changes);  // (nothing when never labelled)
  // Landmarks whose repair settles more than a sixteenth of a build's cells for one of them
  // are given up; then, or with the bound stale, they are built again or put off (jps.hpp).
  const bool counted = c.marks_counted();  // their savings since their build are known
  c.marks_edited = !c.marks.empty();
  // A repair of changes over as many cells as one that failed before is not tried: it would
  // most likely fail too, at the cost of a few landmarks' builds (the patches of a map being
  // replaced by another).
  std::int64_t area = 0;
  for (const grid::Rect& a : c.changes) {
    area += std::int64_t{a.x1 - a.x0 + 1} * (a.y1 - a.y0 + 1);
  }
  if (!c.marks.empty() &&
      (area >= c.marks_failed_area || !c.marks.repair(g, c.changes, c.marks.cells() / 32 + 64) ||
       c.marks.stale())) {
    if (area < c.marks_failed_area && !c.marks.stale()) c.marks_failed_area = area;
    c.marks.clear();
    c.marks_changing = true;
    // Built again at once where they saved half their build or more (lately: half the weight
    // on the last period, so that one short period between edits does not decide; half,
    // since the savings measured are noisy and the next ones may be larger), or where that is not
    // known yet (no edit came between their build and this one); else put off. At most
    // kAfterEdit of them: a map that changes this fast repays few (more save less each: on the
    // dynamic track's switch of maps, with 1, 2, 3, 4, 6 and 8 landmarks built after each
    // batch of patches, the track's total was 1.20, 0.99, 0.87, 0.83, 0.97 and 0.97 s). They
    // grow again while the map holds still (landmarks_due).
    if (counted && c.marks_price_us > 0) {
      c.marks_paid = (c.marks_paid + c.marks_used_us / c.marks_price_us) / 2;
    }
    if (!counted || c.marks_paid >= 0.5) {
      c.marks_want = std::min(kAfterEdit, Landmarks::capacity(g));
      c.marks_backoff = 1;
      c.marks_deferred = false;
    } else {
      // Landmarks that saved queries less time than they took to build did not pay:
      // the next build waits twice as long (a map changing too fast for them stops paying
      // for builds); ones that did reset the wait.
      c.marks_backoff = c.marks_used_us < c.marks_price_us ? c.marks_backoff * 2 : 1;
      c.marks_deferred = true;
    }
    c.marks_debt_us = 0;
  }
  if (!c.cols.empty()) {
    const std::size_t stride = static_cast<std::size_t>(g.height()) + 2;
    for (const grid::Rect& a : c.changes) {
      for (int x = a.x0; x <= a.x1; ++x) {
        for (int y = a.y0; y <= a.y1; ++y) {
          const std::size_t b = (static_cast<std::size_t>(x) + 1) * stride + (y + 1);
          const std::uint64_t bit = std::uint64_t{1} << (b & 63);
          if (g.passable_id(g.id(x, y))) {
            c.cols[b >> 6] &= ~bit;
          } else {
            c.cols[b >> 6] |= bit;
          }
        }
      }
    }
  }
  c.revision = g.revision();
  c.repair_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  ws.prep_us += c.repair_us;
  return c;
}

void ensure_table(JpsCache& c, const Grid& g) {
  if (!c.table) c.table = build_jump_table(g);
  if (c.comps.empty()) c.comps.build(g);
}

namespace {

/// One landmark's build: the last build's time over its count, or before any an estimate of
/// 6 ns a cell of the padded map (measured, pinned: 2.8 on Aurora, 2.9 on the dynamic
/// track's 1024x1024 maps, 4.2 on dao_arena2; the more the landmarks, the less each).
double landmark_price_us(const JpsCache& c, const Grid& g) noexcept {
  if (c.marks_each_us > 0) return c.marks_each_us;
  return 6e-3 * static_cast<double>(g.padded_size());
}

/// How many landmarks the next build takes: twice as many as there are (growing), as many as
/// were asked (after an edit, or the first), or, put off, as many as the savings owed would
/// have paid for twice over.
int landmarks_wanted(const JpsCache& c, const Grid& g) noexcept {
  const int cap = Landmarks::capacity(g);
  if (!c.marks.empty()) return std::min(cap, 2 * c.marks.count());
  if (!c.marks_deferred) return std::min(cap, c.marks_want);
  if (c.marks_changing) return std::min(cap, kAfterEdit);
  const double each = landmark_price_us(c, g) * c.marks_backoff;
  return std::clamp(static_cast<int>(std::min(c.marks_debt_us / (2 * each), 1e9)), 1, cap);
}

}  // namespace

bool landmarks_due(const JpsCache& c, const Grid& g, const grid::Moves& m) noexcept {
  if (!Landmarks::applies(g)) return false;
  if (c.marks.fits(m.straight_cost(), m.diagonal_cost())) {
    // Growing: fewer than the map holds, and they saved four times their build since (twice
    // the next build's: a batch of queries between patches seldom grows them in its midst).
    return c.marks.count() < Landmarks::capacity(g) && c.marks_price_us > 0 &&
           c.marks_used_us >= 4 * c.marks_price_us;
  }
  if (!c.marks_deferred) return true;
  return c.marks_debt_us >= 2 * landmark_price_us(c, g) * c.marks_backoff;
}

void ensure_landmarks(JpsCache& c, const Grid& g, const grid::Moves& m) {
  if (!landmarks_due(c, g, m)) return;
  if (!g.has_walls()) {
    c.marks_deferred = true;
    c.marks_debt_us = 0;
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (c.comps.empty()) c.comps.build(g);
  const int want = landmarks_wanted(c, g);
  try {
    c.marks.build(g, c.comps, m.straight_cost(), m.diagonal_cost(), want);
  } catch (const std::bad_alloc&) {
    // No room for the tables (a WebAssembly heap, say): jps+ goes on without them, for good.
    c.marks.clear();
    c.marks_deferred = true;
    c.marks_backoff = std::numeric_limits<double>::infinity();
    return;
  }
  c.marks.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.marks_in(false);
}

void ensure_columns(JpsCache& c, const Grid& g) {
  if (!c.cols.empty()) return;
  const std::size_t stride = static_cast<std::size_t>(g.height()) + 2;
  const std::size_t n = stride * (static_cast<std::size_t>(g.width()) + 2);
  c.cols.assign((n + 63) / 64 + 1, ~std::uint64_t{0});
  for (int x = 0; x < g.width(); ++x) {
    for (int y = 0; y < g.height(); ++y) {
      if (g.passable_id(g.id(x, y))) {
        const std::size_t b = (static_cast<std::size_t>(x) + 1) * stride + (y + 1);
        c.cols[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
      }
    }
  }
}

bool jps_applies(const Grid& g, const grid::Moves& m) noexcept {
  return !g.has_terrain() && m.diagonal == DiagonalRule::no_corner_cut;
}

bool table_applies(const Grid& g) noexcept {
  return g.width() <= kMaxTableSide && g.height() <= kMaxTableSide;
}

namespace {

/// Writes the max(|dx|, |dy|) cells after a on the octile path a -> b: its diagonal steps then
/// its straight ones (diagonal_first), or the other way round; the last is b.
void write_link(Cell a, Cell b, bool diagonal_first, Cell* out) noexcept {
  const int sx = sgn(b.x - a.x), sy = sgn(b.y - a.y);
  const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
  const int diagonals = std::min(ax, ay), straights = std::max(ax, ay) - diagonals;
  const int dx = ax > ay ? sx : 0, dy = ax > ay ? 0 : sy;
  for (int phase = 0; phase < 2; ++phase) {
    if ((phase == 0) == diagonal_first) {
      for (int i = 0; i < diagonals; ++i) *out++ = a = {a.x + sx, a.y + sy};
    } else {
      for (int i = 0; i < straights; ++i) *out++ = a = {a.x + dx, a.y + dy};
    }
  }
}

[[nodiscard]] std::size_t link_cells(Cell a, Cell b) noexcept {
  return static_cast<std::size_t>(std::max(std::abs(b.x - a.x), std::abs(b.y - a.y)));
}

}  // namespace

void append_jump_path(const Grid& g, const Side& side, NodeId s, NodeId t, std::vector<Cell>& out) {
  // Two walks up the parents: the first counts the cells, the second writes each link's
  // cells into its place, from the goal back, in a path sized once (no push_back, no
  // reversal).
  std::size_t cells = 1;
  for (NodeId c = t; c != s; c = side.nodes[c].parent) {
    cells += link_cells(g.cell(side.nodes[c].parent), g.cell(c));
  }
  const std::size_t first = out.size();
  out.resize(first + cells);
  Cell* end = out.data() + first + cells;  // one past the cells still to write
  for (NodeId c = t; c != s; c = side.nodes[c].parent) {
    const Cell a = g.cell(side.nodes[c].parent), b = g.cell(c);
    end -= link_cells(a, b);
    write_link(a, b, true, end);
  }
  out[first] = g.cell(s);
}

bool append_direct_path(const Grid& g, NodeId s, NodeId t, std::vector<Cell>& out) {
  const Cell a = g.cell(s), b = g.cell(t);
  const int sx = sgn(b.x - a.x), sy = sgn(b.y - a.y);
  const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
  const int diagonals = std::min(ax, ay), straights = std::max(ax, ay) - diagonals;
  const std::int64_t stride = g.stride();
  const std::int64_t dstep = sx + sy * stride, sstep = ax > ay ? sx : sy * stride;
  // Padded ids: the padding reads as walls, so no step leaves the map.
  auto free = [&](std::int64_t n) { return g.passable_id(static_cast<NodeId>(n)); };
  auto diagonals_free = [&](std::int64_t n) {
    for (int i = 0; i < diagonals; ++i, n += dstep) {
      if (!free(n + sx) || !free(n + sy * stride) || !free(n + dstep)) return false;
    }
    return true;
  };
  auto straights_free = [&](std::int64_t n) {
    for (int i = 0; i < straights; ++i) {
      n += sstep;
      if (!free(n)) return false;
    }
    return true;
  };
  const std::int64_t corner_d = s + diagonals * dstep, corner_s = s + straights * sstep;
  const bool diagonal_first = diagonals_free(s) && straights_free(corner_d);
  if (!diagonal_first && !(straights_free(s) && diagonals_free(corner_s))) return false;
  const std::size_t first = out.size();
  out.resize(first + 1 + link_cells(a, b));
  out[first] = a;
  write_link(a, b, diagonal_first, out.data() + first + 1);
  return true;
}

namespace {

/// Online jumping over the grid's wall words (rows) and the transposed copy (columns).
class OnlineJumper {
 public:
  OnlineJumper(const Grid& g, const JpsCache& c, NodeId goal)
      : g_(g),
        rows_(g.wall_words().data()),
        cols_(c.cols.data()),
        rs_(static_cast<std::uint32_t>(g.stride())),
        cs_(static_cast<std::uint32_t>(g.height() + 2)),
        goal_(goal) {
    const Cell gc = g.cell(goal);
    gx_ = gc.x;
    gy_ = gc.y;
    goal_col_ = col_id(gx_, gy_);
  }

  template <class Emit>
  void expand(NodeId n, int x, int y, int dx, int dy, Emit& emit) const {
    if (dx == 0 && dy == 0) {  // the start: every direction
      horizontal(n, x, y, 1, 0, emit);
      horizontal(n, x, y, -1, 0, emit);
      vertical(n, x, y, 1, 0, emit);
      vertical(n, x, y, -1, 0, emit);
      for (int d = 4; d < 8; ++d) diagonal(n, x, y, grid::kDx[d], grid::kDy[d], emit);
    } else if (dy == 0) {
      horizontal(n, x, y, dx, 0, emit);
      for (const int side : {-1, 1}) {  // forced: the side is free, the cell behind it a wall
        const NodeId beside = n + side * static_cast<std::int32_t>(rs_);
        if (g_.passable_id(beside) && !g_.passable_id(beside - dx)) {
          vertical(n, x, y, side, 0, emit);
          diagonal(n, x, y, dx, side, emit);
        }
      }
    } else if (dx == 0) {
      vertical(n, x, y, dy, 0, emit);
      for (const int side : {-1, 1}) {
        const NodeId beside = n + side;
        if (g_.passable_id(beside) &&
            !g_.passable_id(beside - dy * static_cast<std::int32_t>(rs_))) {
          horizontal(n, x, y, side, 0, emit);
          diagonal(n, x, y, side, dy, emit);
        }
      }
    } else {
      horizontal(n, x, y, dx, 0, emit);
      vertical(n, x, y, dy, 0, emit);
      diagonal(n, x, y, dx, dy, emit);
    }
  }

 private:
  [[nodiscard]] NodeId col_id(int x, int y) const noexcept {
    return static_cast<NodeId>((x + 1) * cs_ + static_cast<std::uint32_t>(y + 1));
  }

  /// Straight jump along a padded line of bits (a row of the grid, or a column of the
  /// transposed copy) from p in direction d: the steps to the jump point, or to the goal when
  /// it lies on this line first; 0 when the line ends in a wall first.
  static int jump_line(const std::uint64_t* w, std::uint32_t stride, NodeId p, int d,
                       bool goal_on_line, NodeId goal) noexcept {
    bool dead;
    if (d > 0) {
      const NodeId stop = scan_forward(w, p, stride, dead);
      if (goal_on_line && goal > p && goal <= stop) return static_cast<int>(goal - p);
      return dead ? 0 : static_cast<int>(stop - p);
    }
    const NodeId stop = scan_backward(w, p, stride, dead);
    if (goal_on_line && goal < p && goal >= stop) return static_cast<int>(p - goal);
    return dead ? 0 : static_cast<int>(p - stop);
  }
  /// Along the row of n (row y) in direction dx.
  [[nodiscard]] int jump_row(NodeId n, int y, int dx) const noexcept {
    return jump_line(rows_, rs_, n, dx, y == gy_, goal_);
  }
  /// Along the column (transposed id c, column x) in direction dy.
  [[nodiscard]] int jump_col(NodeId c, int x, int dy) const noexcept {
    return jump_line(cols_, cs_, c, dy, x == gx_, goal_col_);
  }

  template <class Emit>
  void horizontal(NodeId n, int x, int y, int dx, int k, Emit& emit) const {
    const int m = jump_row(n, y, dx);
    if (m > 0) emit(n + m * dx, x + m * dx, y, k, m);
  }
  template <class Emit>
  void vertical(NodeId n, int x, int y, int dy, int k, Emit& emit) const {
    const int m = jump_col(col_id(x, y), x, dy);
    if (m > 0) emit(n + m * dy * static_cast<std::int32_t>(rs_), x, y + m * dy, k, m);
  }

  /// Diagonal jump from the origin, to its end: every straight jump point found on the way is
  /// a successor of the origin (intermediate jump points pruned).
  template <class Emit>
  void diagonal(NodeId n, int x, int y, int dx, int dy, Emit& emit) const {
    const std::int32_t vy = dy * static_cast<std::int32_t>(rs_);
    const std::int32_t cstep = dy + dx * static_cast<std::int32_t>(cs_);
    NodeId c = col_id(x, y);
    for (int k = 1;; ++k) {
      if (!g_.passable_id(n + dx) || !g_.passable_id(n + vy) || !g_.passable_id(n + dx + vy)) {
        return;
      }
      n += dx + vy;
      c += cstep;
      x += dx;
      y += dy;
      if (n == goal_) {
        emit(n, x, y, k, 0);
        return;
      }
      const int mh = jump_row(n, y, dx);
      if (mh > 0) emit(n + mh * dx, x + mh * dx, y, k, mh);
      const int mv = jump_col(c, x, dy);
      if (mv > 0) emit(n + mv * vy, x, y + mv * dy, k, mv);
    }
  }

  const Grid& g_;
  const std::uint64_t* rows_;
  const std::uint64_t* cols_;
  std::uint32_t rs_, cs_;
  NodeId goal_, goal_col_ = 0;
  int gx_ = 0, gy_ = 0;
};

}  // namespace

template <class L>
Status run_jps(const Grid& grid, const Options& o, NodeId s, NodeId t, Pathfinder::Workspace& ws,
               Result& out, L& listener) {
  if (!jps_applies(grid, o.moves)) {
    set_fallback(out, fallback_on(grid, o));
    return run_astar_instead(grid, o, s, t, ws, out, listener);
  }
  JpsCache& cache = jps_cache(ws, grid);
  if (o.algorithm == Algorithm::jps_plus && table_applies(grid)) {
    const bool marks =
        o.effective_heuristic() == Heuristic::octile && (!ws.standing_in || stand_in_marks(grid));
    if (!cache.table || cache.comps.empty() ||
        (marks && !ws.resume && landmarks_due(cache, grid, o.moves))) {
      const auto t0 = std::chrono::steady_clock::now();
      ensure_table(cache, grid);
      if (marks && !ws.resume) ensure_landmarks(cache, grid, o.moves);
      ws.prep_us +=
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
    // A goal in another component: no path, without a search (a sliced search was checked
    // when it began).
    if (!ws.resume && cache.comps.of(s) != cache.comps.of(t)) return Status::no_path;
    // A sliced search keeps the heuristic it began with (prepare() between slices may build
    // the landmarks; an edit starts the search again).
    Landmarks::Goal goal;
    if (marks && (!ws.resume || cache.sliced_with_marks)) cache.marks.toward(t, goal);
    // What the landmarks save is counted: while they are put off, toward their next build;
    // in use, toward their price (see jps_cache): a share of a query's time, measured by
    // controls. One counted query in 64 also runs without them first, and the two times give
    // the share that one saved (26% on the dynamic track's dao_arena2, 60% on its switch of
    // maps); their mean, or before any 60% (measured on the shared maps: 63% on den520d to 87%
    // on maze512-1-0), is what a query with them saved, or one without them would have.
    // (Savings are counted only once the map was edited since their build, or while they may
    // grow: two clock reads are 5% of a query on a small map.)
    const bool counted = goal.table != nullptr && cache.marks_counted();
    if (!ws.resume) cache.sliced_with_marks = goal.table != nullptr;
    const bool owing = marks && cache.marks_deferred, timed = owing || counted;
    using Clock = std::chrono::steady_clock;
    auto since = [](Clock::time_point t) {
      return std::chrono::duration<double, std::micro>(Clock::now() - t).count();
    };
    // A control runs its two searches in turn one way, then the other (the second finds the
    // caches warm: one order alone skews the share). The answer is the one with landmarks;
    // the other's goes to scratch.
    double plain_us = -1;
    bool control = false, plain_first = false;
    auto plain = [&] {
      Result other;  // (only a control's: one counted query in 64)
      const auto t1 = Clock::now();
      if (run_jps_table(grid, o, *cache.table, s, t, ws, other, listener, nullptr) ==
          Status::found) {
        plain_us = since(t1);
      }
    };
    if constexpr (std::is_same_v<L, NullListener>) {
      control = counted && !ws.resume && ++cache.marks_queries % 64 == 0;
      plain_first = control && (cache.marks_queries / 64) % 2 == 0;
      if (plain_first) plain();
    }
    const auto t0 = timed ? Clock::now() : Clock::time_point{};
    const Status status = run_jps_table(grid, o, *cache.table, s, t, ws, out, listener,
                                        goal.table != nullptr ? &goal : nullptr);
    const double with_us = timed ? since(t0) : 0;
    if (control && !plain_first && status == Status::found) plain();
    if (timed) {
      const double us = with_us;
      if (plain_us > 0 && status == Status::found) {
        // One control is noisy (a query's two runs differ by a few percent, and a short one
        // by more): each moves the mean an eighth of the way, from 60% at first.
        const double share = std::clamp(1 - us / plain_us, 0.0, 0.95);
        const double before = cache.marks_saving < 0 ? 0.6 : cache.marks_saving;
        cache.marks_saving = before + (share - before) / 8;
      }
      const double saving = cache.marks_saving < 0 ? 0.6 : std::max(0.0, cache.marks_saving);
      if (goal.table != nullptr) {
        cache.marks_used_us += us * saving / (1 - saving);
      } else if (owing) {
        cache.marks_debt_us += us * saving;
      }
    }
    // No path, where a wall added since the labelling may have cut a component in two: label
    // afresh (a flood fill, a few ms on a 1024x1024 map), so that the next goal there is
    // answered at once.
    if (status == Status::no_path && cache.comps.may_be_split()) cache.comps.build(grid);
    return status;
  }
  if (o.algorithm == Algorithm::jps_plus) set_fallback(out, fallback_on(grid, o));
  ensure_columns(cache, grid);
  return run_jumper(grid, o, OnlineJumper(grid, cache, t), s, t, ws, out, listener);
}

template Status run_jps(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                        Result&, NullListener&);
template Status run_jps(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                        Result&, DynamicListener&);

}  // namespace pathlab::search::detail

namespace pathlab::search {

std::string_view to_string(Fallback f) noexcept {
  switch (f) {
    case Fallback::none:
      return "none";
    case Fallback::terrain_costs:
      return "terrain-costs";
    case Fallback::diagonal_rule:
      return "diagonal-rule";
    case Fallback::cost_model:
      return "cost-model";
    case Fallback::map_too_large:
      return "map-too-large";
    case Fallback::rebuilding:
      return "rebuilding";
    case Fallback::map_kind:
      return "map-kind";
  }
  return "none";
}

FallbackInfo fallback_for(const grid::Grid& base, const Options& o) noexcept {
  try {
    Pathfinder f(base, o);
    const grid::Grid* g = f.searched_grid();
    if (g != nullptr) return detail::fallback_on(*g, o);
  } catch (const std::bad_alloc&) {
  }
  return {o.algorithm, Fallback::none, {}};
}

std::string_view fallback_note(const grid::Grid& base, const Options& o) noexcept {
  return fallback_for(base, o).note;
}

std::string_view detail::note_for(const grid::Grid& g, const Options& o) noexcept {
  return fallback_on(g, o).note;
}

namespace {

/// The note of each algorithm that falls back, per reason (Fallback's order).
struct Notes {
  Algorithm algorithm;
  std::array<const char*, 7> text;
};
#define PATHLAB_KIND_NOTE(name, what)                                              \
  name ": " what                                                                   \
       " needs a plain square map (no hex layout, walls on cell edges, floors or " \
       "links); answered with A*"
constexpr Notes kNotes[] = {
    {Algorithm::jps,
     {"",
      "jps: steps have terrain or class costs here and jump point search assumes unit costs; "
      "answered with A*",
      "jps: jump point search is defined for --diagonal no-corner-cut; answered with A*", "", "",
      "", PATHLAB_KIND_NOTE("jps", "jump point search")}},
    {Algorithm::jps_plus,
     {"",
      "jps+: steps have terrain or class costs here and jump point search assumes unit costs; "
      "answered with A*",
      "jps+: jump point search is defined for --diagonal no-corner-cut; answered with A*", "",
      "jps+: the map is wider or taller than 32000 cells, too large for the jump table; "
      "answered with jps",
      "", PATHLAB_KIND_NOTE("jps+", "jump point search")}},
    {Algorithm::subgoal,
     {"", "subgoal: steps have terrain or class costs here; answered with A*",
      "subgoal: subgoal graphs are built for --diagonal no-corner-cut; answered with A*",
      "subgoal: subgoal graphs need the octile cost model (1 and sqrt 2); answered with A*",
      "subgoal: the map has too many cells for a subgoal graph; answered with A*",
      "subgoal: the map changed; answered with jps+ (jps on maps over 2M cells) while the "
      "subgoal graph is rebuilt on another thread",
      PATHLAB_KIND_NOTE("subgoal", "a subgoal graph")}},
    {Algorithm::subgoal_ch,
     {"", "subgoal-ch: steps have terrain or class costs here; answered with A*",
      "subgoal-ch: subgoal graphs are built for --diagonal no-corner-cut; answered with A*",
      "subgoal-ch: subgoal graphs need the octile cost model (1 and sqrt 2); answered with A*",
      "subgoal-ch: the map has too many cells for a subgoal graph; answered with A*",
      "subgoal-ch: the map changed; answered with jps+ (jps on maps over 2M cells) while the "
      "hierarchy is rebuilt on another thread",
      PATHLAB_KIND_NOTE("subgoal-ch", "a subgoal graph")}},
    {Algorithm::theta,
     {"", "", "", "", "", "",
      "theta: any-angle paths are drawn on square cells of one floor without links; answered "
      "with A*"}},
    {Algorithm::lazytheta,
     {"", "", "", "", "", "",
      "lazytheta: any-angle paths are drawn on square cells of one floor without links; answered "
      "with A*"}},
    {Algorithm::anyangle_exact,
     {"", "", "", "", "", "",
      "anyangle-exact: the exact any-angle search knows wall squares only, not walls on cell "
      "edges, hex layouts, floors or links; answered with Theta* on edge walls (any-angle, not "
      "always the shortest), with A* otherwise"}},
    {Algorithm::anyangle_labels,
     {"", "", "", "",
      "anyangle-labels: the map's visibility graph or its hub labels would exceed their budget "
      "(4M edges, 16M label entries: about 512 MB); answered with anyangle-exact, the same "
      "optimum without preparation",
      "",
      "anyangle-labels: the exact any-angle search knows wall squares only, not walls on cell "
      "edges, hex layouts, floors or links; answered with Theta* on edge walls (any-angle, not "
      "always the shortest), with A* otherwise"}},
};
#undef PATHLAB_KIND_NOTE

}  // namespace

FallbackInfo detail::fallback_info(Algorithm asked, Fallback why) noexcept {
  if (why == Fallback::none) return {asked, why, {}};
  // (Fallback::rebuilding names its stand-in: the three-argument form, with rebuild_stand_in.)
  const Algorithm by = why == Fallback::map_too_large && asked == Algorithm::jps_plus
                           ? Algorithm::jps
                           : Algorithm::astar;
  return fallback_info(asked, why, by);
}

FallbackInfo detail::fallback_info(Algorithm asked, Fallback why, Algorithm by) noexcept {
  if (why == Fallback::none) return {asked, why, {}};
  for (const Notes& n : kNotes) {
    if (n.algorithm == asked) return {by, why, n.text[static_cast<std::size_t>(why)]};
  }
  return {by, why, {}};
}

FallbackInfo detail::fallback_on(const grid::Grid& g, const Options& o) noexcept {
  const Algorithm a = o.algorithm;
  const bool subgoal = a == Algorithm::subgoal || a == Algorithm::subgoal_ch;
  if (!g.plain()) {
    // Only edge walls: Theta* and Lazy Theta* honour them (their sight lines do), and stand in
    // for the exact any-angle search.
    const bool edge_walls_only =
        g.layout() == grid::Layout::square && g.arcs().empty() && g.layers() == 1;
    switch (a) {
      case Algorithm::theta:
      case Algorithm::lazytheta:
        if (edge_walls_only) return {a, Fallback::none, {}};
        return fallback_info(a, Fallback::map_kind, Algorithm::astar);
      case Algorithm::anyangle_exact:
      case Algorithm::anyangle_labels:
        return fallback_info(a, Fallback::map_kind,
                             edge_walls_only ? Algorithm::theta : Algorithm::astar);
      case Algorithm::jps:
      case Algorithm::jps_plus:
      case Algorithm::subgoal:
      case Algorithm::subgoal_ch:
        return fallback_info(a, Fallback::map_kind, Algorithm::astar);
      default:
        return {a, Fallback::none, {}};
    }
  }
  if (!subgoal && a != Algorithm::jps && a != Algorithm::jps_plus) return {a, Fallback::none, {}};
  Fallback why = Fallback::none;
  if (g.has_terrain()) {
    why = Fallback::terrain_costs;
  } else if (o.moves.diagonal != grid::DiagonalRule::no_corner_cut) {
    why = Fallback::diagonal_rule;
  } else if (subgoal && o.moves.cost_model != grid::CostModel::octile) {
    why = Fallback::cost_model;
  } else if (subgoal ? !detail::SubgoalGraph::applies(g, o.moves)
                     : a == Algorithm::jps_plus && !detail::table_applies(g)) {
    why = Fallback::map_too_large;
  }
  return fallback_info(a, why);
}

void detail::set_fallback(Result& out, const FallbackInfo& f) noexcept {
  out.answered_by = f.answered_by;
  out.fallback = f.fallback;
  out.note = f.note;
}

}  // namespace pathlab::search
