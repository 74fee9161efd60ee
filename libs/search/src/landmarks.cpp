// jps+'s differential heuristic, kept exact under map edits (landmarks.hpp).
#include "landmarks.hpp"
#include "two_cores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace pathlab::search::detail {

namespace {

/// A build of at least this many cells runs its searches and copies two at a time, on two
/// cores where the process has them.
constexpr std::size_t kApartCells = std::size_t{1} << 18;

/// Relaxes u's moves: N, E, S, W at `straight`, then NE, SE, SW, NW at `diagonal`, a diagonal
/// only with the two straight cells beside it open (G', ALGORITHMS.md "Moves").
template <class Open, class Relax>
inline void for_moves(grid::NodeId u, std::int32_t stride, Landmarks::Dist straight,
                      Landmarks::Dist diagonal, Landmarks::Dist du, Open&& open, Relax&& relax) {
  const std::int32_t step[8] = {-stride,    1,          stride,     -1,
                                1 - stride, 1 + stride, stride - 1, -stride - 1};
  bool side[4];
  for (int j = 0; j < 4; ++j) {
    const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
    side[j] = open(v);
    if (side[j]) relax(v, du + straight);
  }
  for (int j = 4; j < 8; ++j) {
    if (!side[j - 4] || !side[(j - 3) & 3]) continue;
    const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
    if (open(v)) relax(v, du + diagonal);
  }
}

}  // namespace

void Landmarks::clear() noexcept {
  k_ = 0;
  d_.clear();
  open_ = {};
  kept_ = {};
  marks_.clear();
  open_cells_ = stale_ = 0;
  q_.clear();
}

template <class At>
bool Landmarks::settle(At&& at, std::int32_t stride, std::int64_t& work, std::int64_t budget) {
  while (!q_.empty()) {
    const HeapEntry e = q_.pop();
    const grid::NodeId u = e.id;
    const Dist du = at(u);
    if (static_cast<std::uint64_t>(du) != e.key) continue;  // lowered since: a later entry
    if (++work > budget) return false;
    auto relax = [&](grid::NodeId v, Dist to) {
      Dist& dv = at(v);
      if (to >= dv) return;
      dv = to;
      q_.push({static_cast<std::uint64_t>(to), v});
    };
    for_moves(
        u, stride, cs_, cd_, du, [&](grid::NodeId v) { return open(v); }, relax);
  }
  return true;
}

void Landmarks::sweep(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
                      std::int32_t stride, Scratch& scratch) const {
  if (cs_ < cd_ && cd_ < 2 * cs_) {
    canonical(d, cell, n, src, stride, scratch);
  } else {
    buckets(d, cell, n, src, stride, scratch);
  }
}

void Landmarks::canonical(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
                          std::int32_t stride, Scratch& scratch) const {
  // The canonical ordering of JPS without corner cutting: a path from the source runs its
  // diagonal moves before its straight ones, and turns only where a straight move passes a
  // wall: moving E into y from x with x's N neighbour a wall and y's free, it may turn N (and
  // NE) at y. Every cell has a shortest path of that shape (the costs are such that a straight
  // move is cheaper than a diagonal and two dearer). So: the source scans its 8 directions, a
  // diagonal scan scanning both straight directions from each of its cells; a straight scan
  // queues the turns it meets; the turns come out least distance first and scan on. A scan
  // stops at a wall, or at a cell that already holds a shorter distance: past it, every cell
  // it would reach has a shorter way through that cell, so none of its distances (nor of the
  // turns it would meet) is a shortest. An equal distance stops it only where a scan in the
  // same direction already passed at that distance (`seen`, a bit per direction: the two go on
  // alike from there); else the other way may not go on in this direction, and without the
  // bits the ties of a sparse map multiply (3% random walls: 250 million cells scanned for a
  // map of 19,000). The order of the turns does not make the result (every shortest path is
  // scanned in the end), only the work (the least first rescans least).
  scratch.seen.assign(n, 0);
  std::uint8_t* seen = scratch.seen.data();
  Dist* g = d;
  // Whether a scan in direction `bit` reaching y at v goes on (and y then holds it).
  auto reach = [&](grid::NodeId y, Dist v, std::uint8_t bit) {
    if (v < g[y]) {
      g[y] = v;
      seen[y] = bit;
      return true;
    }
    if (v > g[y] || (seen[y] & bit) != 0) return false;
    seen[y] |= bit;
    return true;
  };
  const std::int32_t step[4] = {-stride, 1, stride, -1};
  const Dist cs = cs_, cd = cd_;
  int shift = 0;  // turns in buckets a straight move wide (about)
  while ((Dist{2} << shift) <= cs) ++shift;
  auto& turns = scratch.turns;
  std::size_t pending = 0;
  auto straight = [&](grid::NodeId x, Dist v, int dir) {
    const std::int32_t dd = step[dir];
    const int left = (dir + 3) & 3, right = (dir + 1) & 3;
    const std::int32_t dl = step[left], dr = step[right];
    const auto bit = static_cast<std::uint8_t>(1u << dir);
    for (;;) {
      const auto y = static_cast<grid::NodeId>(static_cast<std::int64_t>(x) + dd);
      if (cell[y] == 0) return;
      v += cs;
      if (!reach(y, v, bit)) return;
      const bool turn_left = cell[x + dl] == 0 && cell[y + dl] != 0;
      const bool turn_right = cell[x + dr] == 0 && cell[y + dr] != 0;
      if (turn_left || turn_right) {
        const auto b = static_cast<std::size_t>(v >> shift);
        if (b >= turns.size()) turns.resize(b + 1);
        if (turn_left)
          turns[b].push_back(
              {v, y, static_cast<std::uint8_t>(dir), static_cast<std::uint8_t>(left)});
        if (turn_right)
          turns[b].push_back(
              {v, y, static_cast<std::uint8_t>(dir), static_cast<std::uint8_t>(right)});
        pending += static_cast<std::size_t>(turn_left) + static_cast<std::size_t>(turn_right);
      }
      x = y;
    }
  };
  auto diagonal = [&](grid::NodeId x, Dist v, int a, int b) {
    const std::int32_t da = step[a], db = step[b];
    // Bits 4-7: NE, SE, SW, NW, each named by the first of its two straight directions.
    const auto bit = static_cast<std::uint8_t>(1u << (4 + (b == ((a + 1) & 3) ? a : b)));
    for (;;) {
      if (cell[x + da] == 0 || cell[x + db] == 0) return;
      const auto y = static_cast<grid::NodeId>(static_cast<std::int64_t>(x) + da + db);
      if (cell[y] == 0) return;
      v += cd;
      if (!reach(y, v, bit)) return;
      straight(y, v, a);
      straight(y, v, b);
      x = y;
    }
  };
  for (auto& t : turns) t.clear();
  g[src] = 0;
  seen[src] = 0xFF;
  for (int j = 0; j < 4; ++j) straight(src, 0, j);
  for (int j = 0; j < 4; ++j) diagonal(src, 0, j, (j + 1) & 3);
  for (std::size_t b = 0; pending > 0; ++b) {
    // By index: a turn's scans add to this bucket and grow the list of buckets.
    for (std::size_t i = 0; i < turns[b].size(); ++i) {
      const Scratch::Turn t = turns[b][i];
      --pending;
      if (t.d > g[t.at]) continue;  // a shorter way came through since
      straight(t.at, t.d, t.to);
      diagonal(t.at, t.d, t.from, t.to);
    }
    turns[b].clear();
  }
}

void Landmarks::buckets(Dist* d, const std::uint8_t* cell, std::size_t n, grid::NodeId src,
                        std::int32_t stride, Scratch& scratch) const {
  // Dial's buckets (Dial 1969) of width w, the least move cost: a cell in bucket b (d in
  // [b w, (b + 1) w)) lowers its neighbours into bucket b + 1 or later, so none of bucket b
  // lowers another of it, and each comes out with its distance final, in any order. A move
  // costs at most c = max(straight, diagonal), so a lowering lands fewer than c / w + 2
  // buckets on: that many (rounded up to a power of two) are kept in a ring.
  const Dist w = std::min(cs_, cd_);
  const auto slots = std::bit_ceil(static_cast<std::size_t>(std::max(cs_, cd_) / w) + 2);
  const std::uint64_t mask = slots - 1;
  auto& ring = scratch.ring;
  ring.resize(slots);
  for (auto& b : ring) b.clear();
  auto& done = scratch.done;
  done.assign(n / 64 + 1, 0);
  d[src] = 0;
  ring[0].push_back(src);
  std::size_t pending = 1;
  for (std::uint64_t b = 0; pending > 0; ++b) {
    std::vector<grid::NodeId>& here = ring[b & mask];
    // A cell lowered more than once is in more than one bucket (or twice in one): it comes
    // out first at its least distance, and is skipped after.
    for (std::size_t i = 0; i < here.size(); ++i) {
      const grid::NodeId u = here[i];
      std::uint64_t& word = done[u >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (u & 63);
      if ((word & bit) != 0) continue;
      word |= bit;
      const Dist du = d[u];
      auto relax = [&](grid::NodeId v, Dist to) {
        if (to >= d[v]) return;
        d[v] = to;
        ring[static_cast<std::uint64_t>(to / w) & mask].push_back(v);
        ++pending;
      };
      for_moves(
          u, stride, cs_, cd_, du, [&](grid::NodeId v) { return cell[v] != 0; }, relax);
    }
    pending -= here.size();
    here.clear();
  }
}

void Landmarks::build(const grid::Grid& g, const Components& comps, double straight,
                      double diagonal, int want) {
  clear();
  const std::size_t n = g.padded_size();
  if (capacity(g) < kMin) return;
  const int k = std::clamp(want, 1, capacity(g));
  // The units: P a power of two that makes the least move about 1024 units, halved until a
  // path through every cell of the padded map stays below kFar (a distance then never
  // overflows, nor does a difference of two, in a repair as G' grows too).
  const double lo = std::min(straight, diagonal), hi = std::max(straight, diagonal);
  if (!(lo > 0) || !std::isfinite(hi)) return;
  double p = std::ldexp(1.0, static_cast<int>(std::floor(std::log2(1024.0 / lo))));
  while (static_cast<double>(n + 1) * std::floor(hi * p) >= static_cast<double>(kFar)) p /= 2;
  const double cs = std::floor(straight * p), cd = std::floor(diagonal * p);
  if (std::min(cs, cd) < 16) return;  // so coarse that the bound would be weak
  // G''s cells (a bit and a byte each), and the largest component.
  open_.assign(n / 64 + 1, 0);
  kept_.assign(n / 64 + 1, 0);
  const std::vector<std::uint64_t>& walls = g.wall_words();
  for (std::size_t w = 0; w < open_.size() && w < walls.size(); ++w) open_[w] = ~walls[w];
  if (n % 64 != 0) open_[n / 64] &= (std::uint64_t{1} << (n % 64)) - 1;
  for (std::size_t w = n / 64 + (n % 64 != 0 ? 1 : 0); w < open_.size(); ++w) open_[w] = 0;
  if (!builder_.p) builder_.p = std::make_unique<Builder>();
  Builder& b = *builder_.p;
  std::vector<std::uint8_t>& cell = b.cell;
  cell.resize(n);
  for (std::size_t w = 0; w < n / 64; ++w) {
    const std::uint64_t bits = open_[w];
    std::uint8_t* to = &cell[w * 64];
    for (int j = 0; j < 64; ++j) to[j] = static_cast<std::uint8_t>((bits >> j) & 1);
  }
  for (std::size_t c = n / 64 * 64; c < n; ++c) {
    cell[c] = static_cast<std::uint8_t>((open_[c >> 6] >> (c & 63)) & 1);
  }
  for (const std::uint64_t w : open_) open_cells_ += std::popcount(w);
  // The largest component, by its share of a lattice of cells (every eighth row and column;
  // every cell where that holds few): the landmarks' candidates are its cells there. A pass
  // over every cell's label took as long as a search.
  std::vector<grid::NodeId> cand;
  std::uint32_t largest = 0;
  for (int step : {8, 1}) {
    cand.clear();
    for (int y = 0; y < g.height(); y += step) {
      for (int x = 0; x < g.width(); x += step) {
        if (comps.of(g.id(x, y)) != 0) cand.push_back(g.id(x, y));
      }
    }
    if (cand.size() >= 64 || step == 1) break;
  }
  {
    std::vector<std::uint32_t> labels(cand.size());
    for (std::size_t j = 0; j < cand.size(); ++j) labels[j] = comps.of(cand[j]);
    std::sort(labels.begin(), labels.end());
    std::size_t most = 0;
    for (std::size_t j = 0, run = 0; j < labels.size(); ++j) {
      run = j > 0 && labels[j] == labels[j - 1] ? run + 1 : 1;
      if (run > most) {
        most = run;
        largest = labels[j];
      }
    }
  }
  std::erase_if(cand, [&](grid::NodeId c) { return comps.of(c) != largest; });
  if (cand.empty()) {
    clear();
    return;
  }
  straight_ = straight;
  diagonal_ = diagonal;
  cs_ = static_cast<Dist>(cs);
  cd_ = static_cast<Dist>(cd);
  unit_ = 1 / p;
  k_ = k;
  room_ = capacity(g);
  const auto kk = static_cast<std::size_t>(k);
  // Landmarks far apart, two at a time so that their searches run side by side: the first is
  // the component's first candidate (its top row, on the rim: its bound did better than that of
  // the cell farthest from it, 0.82-0.84 against 0.92-1.02 s on the dynamic track's switch of
  // maps, though its search took twice as long on Aurora), the second the candidate farthest
  // from it in octile distance; then each pair's first is the candidate farthest from those
  // chosen (the least of their distances, largest: farthest first), and its second the one
  // farthest from them and from the first (its octile distance standing in for the first's,
  // not searched yet). The farthest candidate lies within a few cells of the farthest cell,
  // for a pass over 1/64 of the map.
  std::vector<Dist> nearest(cand.size(), kFar);  // kFar: no landmark yet
  auto octile = [&](grid::NodeId a, grid::NodeId b) {
    const Cell ca = g.cell(a), cb = g.cell(b);
    const auto dx = static_cast<Dist>(std::abs(ca.x - cb.x)),
               dy = static_cast<Dist>(std::abs(ca.y - cb.y));
    return std::min(dx, dy) * cd_ + (std::max(dx, dy) - std::min(dx, dy)) * cs_;
  };
  // The candidate farthest by the least of `nearest` and (a landmark given) the octile
  // distance from it.
  auto farthest = [&](grid::NodeId from, bool by_octile) {
    std::size_t at = 0;
    Dist far = -1;
    for (std::size_t j = 0; j < cand.size(); ++j) {
      Dist v = nearest[j];
      if (by_octile) v = std::min(v, octile(from, cand[j]));
      if (v != kFar && v > far) {
        far = v;
        at = j;
      }
    }
    return cand[at];
  };
  const grid::NodeId first = cand.front();
  constexpr std::size_t kHeld = 4;  // search arrays, copied into their columns together
  b.cols.resize(n * kHeld);
  d_.resize(n * kk);
  const bool apart = n >= kApartCells && spare_core() && threads_available();
  auto column = [&](std::size_t i) { return b.cols.data() + (i % kHeld) * n; };
  auto search = [&](std::size_t i) {
    Dist* one = column(i);
    std::fill(one, one + n, kFar);
    sweep(one, cell.data(), n, marks_[i], g.stride(), b.scratch[i % 2]);
  };
  // Columns from .. to - 1, waiting in the arrays, into the row-major tables: two halves side
  // by side.
  auto flush = [&](std::size_t from, std::size_t to) {
    auto copy = [&](std::size_t lo, std::size_t hi) {
      for (std::size_t c = lo; c < hi; ++c) {
        Dist* row = &d_[c * kk];
        for (std::size_t j = from; j < to; ++j) row[j] = column(j)[c];
      }
    };
    side_by_side(
        apart, [&] { copy(0, n / 2); }, [&] { copy(n / 2, n); });
  };
  for (std::size_t i = 0; i < kk; i += 2) {
    const grid::NodeId a = i == 0 ? first : farthest(0, false);
    marks_.push_back(a);
    if (i + 1 == kk) {
      search(i);
    } else {
      marks_.push_back(farthest(a, true));
      side_by_side(
          apart, [&] { search(i); }, [&] { search(i + 1); });
    }
    const std::size_t done = std::min(i + 2, kk);
    if (done == kk) {
      flush(done - ((done - 1) % kHeld + 1), done);
      break;
    }
    for (std::size_t j = 0; j < cand.size(); ++j) {
      const std::size_t c = cand[j];
      nearest[j] = std::min({nearest[j], column(i)[c], column(i + 1)[c]});
    }
    if (done % kHeld == 0) flush(done - kHeld, done);
  }
}

std::size_t Landmarks::bytes() const noexcept {
  std::size_t b = d_.capacity() * sizeof(Dist) + (open_.capacity() + kept_.capacity()) * 8 +
                  marks_.capacity() * sizeof(grid::NodeId);
  if (builder_.p) {
    const Builder& k = *builder_.p;
    b += k.cols.capacity() * sizeof(Dist) + k.cell.capacity();
    for (const Scratch& s : k.scratch) b += s.seen.capacity();
  }
  return b;
}

bool Landmarks::repair(const grid::Grid& g, std::span<const grid::Rect> areas,
                       std::int64_t budget) {
  if (k_ == 0) return true;
  const std::int32_t stride = g.stride();
  opened_.clear();
  for (const grid::Rect& a : areas) {
    for (int y = a.y0; y <= a.y1; ++y) {
      for (int x = a.x0; x <= a.x1; ++x) {
        const grid::NodeId c = g.id(x, y);
        const std::uint64_t bit = std::uint64_t{1} << (c & 63);
        const bool free = g.passable_id(c);
        if (free && !open(c)) {
          open_[c >> 6] |= bit;
          ++open_cells_;
          opened_.push_back(c);
        }
        const bool kept = !free && open(c);
        if (kept != (((kept_[c >> 6] & bit) != 0))) {
          kept_[c >> 6] ^= bit;
          stale_ += kept ? 1 : -1;
        }
      }
    }
  }
  if (opened_.empty()) return true;
  // An opened cell adds its own moves and the diagonals beside it (a diagonal needs both
  // straight cells): every new move joins two cells of the 3x3 block around it. Those cells
  // of G' start the repair at their distances as they are, and settle() relaxes their moves,
  // the new ones among them, lowering what they shorten outward (opening only lowers).
  const auto k = static_cast<std::size_t>(k_);
  for (int i = 0; i < k_; ++i) {
    const auto col = static_cast<std::size_t>(i);
    std::int64_t work = 0;
    q_.clear();
    for (const grid::NodeId c : opened_) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(c) + dy * stride + dx);
          const Dist dv = d_[v * k + col];
          if (open(v) && dv != kFar) q_.push({static_cast<std::uint64_t>(dv), v});
        }
      }
    }
    if (!settle([&](grid::NodeId c) -> Dist& { return d_[c * k + col]; }, stride, work, budget)) {
      // Half lowered, the column is no bound; and the others would go the same way, at a
      // rebuild's price before the rebuild.
      clear();
      return false;
    }
  }
  return true;
}

void Landmarks::toward(grid::NodeId t, Goal& goal) const noexcept {
  goal.table = nullptr;
  goal.k = 0;
  if (k_ == 0 || !open(t)) return;
  // A landmark that does not reach t (in another piece of G': the components' labels of a map
  // that has lost cells to walls may join pieces no longer connected) reaches no cell that
  // reaches t either: |kFar - kFar| adds nothing there. Only when none reaches t is there no
  // bound.
  bool reached = false;
  for (int i = 0; i < k_; ++i) {
    goal.at_goal[i] = distance(i, t);
    reached = reached || goal.at_goal[i] != kFar;
  }
  if (!reached) return;
  goal.table = d_.data();
  goal.k = k_;
  goal.unit = unit_;
}

}  // namespace pathlab::search::detail
