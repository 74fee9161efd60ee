// D* Lite: see the header for the definitions. The search runs backward from the goal, so the
// neighbours that for_each_neighbour yields for a vertex u are its predecessors (the moves are
// symmetric in legality) and c(s,u), the cost of s -> u, is paid on u: base cost x terrain(u).
#include <pathlab/agents/dstar_lite.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/topology.hpp>

namespace pathlab::agents {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr grid::NodeId kNone = std::numeric_limits<grid::NodeId>::max();

/// Octile distance (Manhattan without diagonals) scaled by the cost model: the values of
/// search::heuristic_distance(default_heuristic(m)), inlined because every key needs one.
double octile(const grid::Moves& m, int dx, int dy) noexcept {
  dx = std::abs(dx);
  dy = std::abs(dy);
  const double s = m.straight_cost();
  if (!m.eight_connected()) return s * (dx + dy);
  return s * (std::max(dx, dy) - std::min(dx, dy)) + m.diagonal_cost() * std::min(dx, dy);
}

}  // namespace

DStarLite::DStarLite(const grid::Grid& grid, grid::Moves moves)
    : grid_(grid), moves_(moves), hex_(grid::is_hex(grid.layout())), general_(!grid.plain()) {}

double DStarLite::base(int dir) const noexcept {
  return hex_ || dir < 4 ? moves_.straight_cost() : moves_.diagonal_cost();
}

double DStarLite::distance(Cell a, Cell b) const noexcept {
  if (hex_) return moves_.straight_cost() * grid::hex::distance(grid_.layout(), a, b);
  return octile(moves_, a.x - b.x, a.y - b.y);
}

template <grid::DiagonalRule R, class F>
void DStarLite::each_move(grid::NodeId n, F&& f) const {
  if (!general_) {
    grid::for_each_neighbour<R>(grid_, n, f);
    return;
  }
  // Hex moves and edge walls; no links (reset() refuses maps with links).
  grid::for_each_move<R>(grid_, n, grid::StepBase{},
                         [&](grid::NodeId m, int dir, double) { f(m, dir); });
}

double DStarLite::h(grid::NodeId n) const noexcept {
  if (hex_) return distance(grid_.cell(n), start_);
  const auto stride = static_cast<grid::NodeId>(grid_.stride());
  return octile(moves_, static_cast<int>(n % stride) - sx_, static_cast<int>(n / stride) - sy_);
}

DStarLite::Key DStarLite::key(grid::NodeId n) const noexcept {
  const double m = std::min(g_[n], rhs_[n]);
  return {m + h(n) + km_, m};
}

// k_m keeps the keys already queued (computed with the heuristic from s_last) lower bounds of
// the keys computed from the new start, since h(s_start,s) >= h(s_last,s) - h(s_last,s_start).
// It is brought up to date lazily, before the first key computed from a new start: when a map
// change updates vertices and when replan() starts. Moving several cells between changes thus
// adds one h(s_last, s_start), as in the paper, not the length of the walk.
void DStarLite::sync_start() noexcept {
  if (s_last_ == start_) return;
  km_ += distance(s_last_, start_);
  s_last_ = start_;
}

Status DStarLite::reset(Cell start, Cell goal, std::uint64_t max_expansions) {
  ready_ = false;
  if (!grid_.passable(start) || !grid_.passable(goal) || !grid_.links().empty()) {
    status_ = Status::invalid_input;
    return status_;
  }
  start_ = s_last_ = start;
  goal_ = goal;
  start_id_ = grid_.id(start);
  goal_id_ = grid_.id(goal);
  sx_ = start.x + 1;  // padded coordinates, as h() reads them off node ids
  sy_ = start.y + 1;
  km_ = 0;
  const std::size_t n = grid_.padded_size();
  g_.assign(n, kInf);
  rhs_.assign(n, kInf);
  pos_.assign(n, npos);
  heap_.clear();
  rhs_[goal_id_] = 0;
  update_vertex(goal_id_);
  ready_ = true;
  return replan(max_expansions);
}

bool DStarLite::move_to(Cell start) {
  if (!grid_.in_bounds(start)) return false;
  start_ = start;
  start_id_ = grid_.id(start);
  sx_ = start.x + 1;
  sy_ = start.y + 1;
  return true;
}

bool DStarLite::set_blocked(Cell c, bool blocked) {
  if (!grid_.in_bounds(c)) return false;
  if (grid_.passable(c) != blocked) return true;  // no change
  grid_.set_blocked(c, blocked);
  if (ready_) {
    sync_start();
    grid::dispatch_rule(moves_.diagonal,
                        [&](auto r) { update_around<decltype(r)::value>(grid_.id(c)); });
  }
  return true;
}

bool DStarLite::set_terrain(Cell c, float cost) {
  if (!grid_.in_bounds(c)) return false;
  if (grid_.terrain(c.x, c.y) == cost) return true;
  grid_.set_terrain(c.x, c.y, cost);
  if (ready_) {
    sync_start();
    grid::dispatch_rule(moves_.diagonal,
                        [&](auto r) { update_around<decltype(r)::value>(grid_.id(c)); });
  }
  return true;
}

// Every move whose legality or cost depends on cell n starts at n or at one of its eight
// neighbours: moves into or out of n, and (corner rules) the diagonals between two orthogonal
// neighbours of n. So recomputing rhs of these nine vertices from their current successors is
// exact, whatever changed. A newly blocked n has no moves left: it takes g = rhs = inf at once
// (nothing else reads g(n) any more) instead of going through the queue as underconsistent.
// The goal keeps rhs = 0 even as a wall; with no moves it is simply unreachable.
template <grid::DiagonalRule R>
void DStarLite::update_around(grid::NodeId n) {
  const auto s = static_cast<grid::NodeId>(grid_.stride());
  const grid::NodeId around[9] = {n,         n - s,     n + s,     n - 1,    n + 1,
                                  n - s - 1, n - s + 1, n + s - 1, n + s + 1};
  for (const grid::NodeId v : around) {
    if (v == goal_id_) continue;
    if (!grid_.passable_id(v)) {
      if (v != n) continue;  // an unchanged wall (or the padding): g = rhs = inf already
      g_[v] = rhs_[v] = kInf;
      if (pos_[v] != npos) heap_remove(v);
      continue;
    }
    rhs_[v] = compute_rhs<R>(v);
    update_vertex(v);
  }
}

template <grid::DiagonalRule R>
double DStarLite::compute_rhs(grid::NodeId n) const noexcept {
  if (n == goal_id_) return 0;
  if (!grid_.passable_id(n)) return kInf;
  double best = kInf;
  each_move<R>(n, [&](grid::NodeId m, int dir) {
    best = std::min(best, base(dir) * grid_.terrain_id(m) + g_[m]);
  });
  return best;
}

void DStarLite::update_vertex(grid::NodeId n) {
  ++work_.updates;
  if (g_[n] != rhs_[n]) {
    if (pos_[n] != npos) {
      heap_update(n, key(n));
    } else {
      heap_push(n, key(n));
    }
  } else if (pos_[n] != npos) {
    heap_remove(n);
  }
}

Status DStarLite::replan(std::uint64_t max_expansions) {
  if (!ready_) {
    status_ = Status::invalid_input;
    return status_;
  }
  sync_start();
  if (!grid_.passable_id(start_id_) || !grid_.passable_id(goal_id_)) {
    // Nothing can be reached; searching would only push g = inf through the whole component.
    // The queue keeps its inconsistent vertices for when the cell is freed.
    status_ = Status::no_path;
  } else {
    status_ = grid::dispatch_rule(moves_.diagonal, [&](auto r) {
      return compute_shortest_path<decltype(r)::value>(max_expansions);
    });
  }
  last_stats_ = work_;
  total_.expanded += work_.expanded;
  total_.updates += work_.updates;
  work_ = {};
  return status_;
}

template <grid::DiagonalRule R>
Status DStarLite::compute_shortest_path(std::uint64_t max_expansions) {
  const double cs = moves_.straight_cost(), cd = moves_.diagonal_cost();
  std::uint64_t expanded = 0;
  // An empty queue means every vertex is consistent, start included ([inf,inf] never < key).
  while (!heap_.empty()) {
    const Key top = heap_[0].key;
    if (!(top < key(start_id_)) && g_[start_id_] == rhs_[start_id_]) break;
    const grid::NodeId u = heap_[0].node;
    const Key knew = key(u);
    if (top < knew) {  // outdated (queued before k_m grew): reinsert with the current key
      heap_update(u, knew);
      continue;
    }
    if (expanded == max_expansions) {
      work_.expanded += expanded;
      return Status::node_limit;
    }
    ++expanded;
    // u is passable: walls are never queued (update_around takes them out), except a blocked
    // goal, and replan() does not search then.
    const double t = grid_.terrain_id(u);
    if (g_[u] > rhs_[u]) {  // overconsistent: settle g, lower the predecessors' rhs
      const double gu = g_[u] = rhs_[u];
      heap_remove(u);
      each_move<R>(u, [&](grid::NodeId s, int dir) {
        if (s == goal_id_) return;
        const double v = (hex_ || dir < 4 ? cs : cd) * t + gu;
        if (v < rhs_[s]) {  // rhs unchanged means s is unchanged: no update needed
          rhs_[s] = v;
          update_vertex(s);
        }
      });
    } else {  // underconsistent: g = inf, and every predecessor that used u recomputes rhs
      const double gold = g_[u];
      g_[u] = kInf;
      // rhs(u) does not read g(u) (no self-moves), so it stays right; u may requeue as
      // overconsistent.
      update_vertex(u);
      each_move<R>(u, [&](grid::NodeId s, int dir) {
        if (s == goal_id_) return;
        const double v = (hex_ || dir < 4 ? cs : cd) * t + gold;
        // The paper tests rhs(s) == c(s,u) + g_old. rhs(s) <= that always holds, and a small
        // relative slack keeps the test true if the compiler rounds the two computations of
        // the sum differently (e.g. one contracted to a fused multiply-add); a false positive
        // only costs an exact recomputation.
        if (rhs_[s] >= v - 1e-12 * v) {
          rhs_[s] = compute_rhs<R>(s);
          update_vertex(s);
        }
      });
    }
  }
  work_.expanded += expanded;
  return g_[start_id_] < kInf ? Status::found : Status::no_path;
}

template <grid::DiagonalRule R>
grid::NodeId DStarLite::descend(grid::NodeId n) const noexcept {
  double best = kInf;
  grid::NodeId arg = kNone;
  each_move<R>(n, [&](grid::NodeId m, int dir) {
    const double v = base(dir) * grid_.terrain_id(m) + g_[m];
    if (v < best) {
      best = v;
      arg = m;
    }
  });
  return arg;
}

std::vector<Cell> DStarLite::path() const {
  std::vector<Cell> out;
  if (!ready_ || status_ != Status::found || !grid_.passable_id(start_id_) ||
      !(g_[start_id_] < kInf)) {
    return out;
  }
  grid::dispatch_rule(moves_.diagonal, [&](auto r) {
    grid::NodeId cur = start_id_;
    out.push_back(start_);
    // g strictly decreases along a correct descent; the cap only guards against a map changed
    // without replan().
    const std::size_t cap = grid_.padded_size();
    while (cur != goal_id_) {
      cur = descend<decltype(r)::value>(cur);
      if (cur == kNone || out.size() > cap) {
        out.clear();
        return;
      }
      out.push_back(grid_.cell(cur));
    }
  });
  return out;
}

std::optional<Cell> DStarLite::next() const {
  if (!ready_ || status_ != Status::found || !grid_.passable_id(start_id_) ||
      !(g_[start_id_] < kInf)) {
    return std::nullopt;
  }
  if (start_id_ == goal_id_) return start_;
  const grid::NodeId n = grid::dispatch_rule(
      moves_.diagonal, [&](auto r) { return descend<decltype(r)::value>(start_id_); });
  if (n == kNone) return std::nullopt;
  return grid_.cell(n);
}

double DStarLite::cost() const noexcept {
  if (!ready_ || status_ != Status::found) return kInf;
  return g_[start_id_];
}

// --- indexed binary heap ----------------------------------------------------------------------

void DStarLite::heap_push(grid::NodeId n, Key k) {
  pos_[n] = static_cast<std::uint32_t>(heap_.size());
  heap_.push_back({k, n});
  sift_up(pos_[n]);
}

void DStarLite::heap_update(grid::NodeId n, Key k) noexcept {
  const std::uint32_t i = pos_[n];
  const Key old = heap_[i].key;
  heap_[i].key = k;
  if (k < old) {
    sift_up(i);
  } else {
    sift_down(i);
  }
}

void DStarLite::heap_remove(grid::NodeId n) noexcept {
  const std::uint32_t i = pos_[n];
  pos_[n] = npos;
  const auto last = static_cast<std::uint32_t>(heap_.size() - 1);
  if (i != last) {  // the last entry fills the hole and moves whichever way its key says
    const Key removed = heap_[i].key;
    heap_[i] = heap_[last];
    pos_[heap_[i].node] = i;
    heap_.pop_back();
    if (heap_[i].key < removed) {
      sift_up(i);
    } else {
      sift_down(i);
    }
  } else {
    heap_.pop_back();
  }
}

void DStarLite::sift_up(std::uint32_t i) noexcept {
  const Entry e = heap_[i];
  while (i > 0) {
    const std::uint32_t parent = (i - 1) / 2;
    if (!(e.key < heap_[parent].key)) break;
    heap_[i] = heap_[parent];
    pos_[heap_[i].node] = i;
    i = parent;
  }
  heap_[i] = e;
  pos_[e.node] = i;
}

void DStarLite::sift_down(std::uint32_t i) noexcept {
  const Entry e = heap_[i];
  const auto size = static_cast<std::uint32_t>(heap_.size());
  while (true) {
    std::uint32_t child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heap_[child + 1].key < heap_[child].key) ++child;
    if (!(heap_[child].key < e.key)) break;
    heap_[i] = heap_[child];
    pos_[heap_[i].node] = i;
    i = child;
  }
  heap_[i] = e;
  pos_[e.node] = i;
}

}  // namespace pathlab::agents
