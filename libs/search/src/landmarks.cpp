// jps+'s differential heuristic, kept exact under map edits (landmarks.hpp).
#include "landmarks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathlab::search::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// A distance is lowered only by more than this share of it: sums of the same moves in
/// another order differ in their last bits, and such "improvements" would spread through the
/// whole map in a repair.
constexpr double kSlack = 1e-11;

}  // namespace

inline bool Landmarks::lower(double to, double d) noexcept {
  if (to * (1 + kSlack) < d) return true;
  if (to < d) refused_ = std::max(refused_, d - to);  // kept: the margin covers it
  return false;
}

void Landmarks::set_margin() noexcept {
  // An entry is the length of a path of at most L = longest_ / (least cost) steps, each sum
  // rounded by at most half an ulp, and at each step at most refused_ above the best (a
  // lowering lower() turned down): within L * (longest_ * 2^-52 + refused_) of the distance;
  // a difference of two, twice that.
  const double steps = longest_ / std::min(straight_, diagonal_) + 1;
  margin_ = 2.0 * steps * (longest_ * std::ldexp(1.0, -52) + refused_);
}

void Landmarks::clear() noexcept {
  k_ = 0;
  dead_ = 0;
  d_ = {};
  open_ = {};
  kept_ = {};
  marks_.clear();
  open_cells_ = stale_ = 0;
  longest_ = refused_ = margin_ = 0;
  q_.clear();
}

template <class At>
bool Landmarks::settle(At&& at, std::int32_t stride, std::int64_t& work, std::int64_t budget) {
  // N, E, S, W, then NE, SE, SW, NW; a diagonal needs the two straight cells beside it in G'.
  const std::int32_t step[8] = {-stride,    1,          stride,     -1,
                                1 - stride, 1 + stride, stride - 1, -stride - 1};
  while (!q_.empty()) {
    const HeapEntry e = q_.pop();
    const grid::NodeId u = e.id;
    const double du = at(u);
    if (priority_key(du) != e.key) continue;  // lowered again since: a later entry holds it
    if (++work > budget) return false;
    bool side[4];
    for (int j = 0; j < 4; ++j) {
      const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
      side[j] = open(v);
      if (!side[j]) continue;
      double& dv = at(v);
      if (lower(du + straight_, dv)) {
        dv = du + straight_;
        longest_ = std::max(longest_, dv);
        q_.push({priority_key(dv), v});
      }
    }
    for (int j = 4; j < 8; ++j) {
      if (!side[j - 4] || !side[(j - 3) & 3]) continue;
      const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
      if (!open(v)) continue;
      double& dv = at(v);
      if (lower(du + diagonal_, dv)) {
        dv = du + diagonal_;
        longest_ = std::max(longest_, dv);
        q_.push({priority_key(dv), v});
      }
    }
  }
  return true;
}

void Landmarks::sweep(std::vector<double>& d, grid::NodeId src, std::int32_t stride,
                      Buckets& scratch) {
  // Dial's buckets (Dial 1969) of width w, the least move cost: a cell in bucket b (d in
  // [b w, (b + 1) w)) lowers its neighbours into bucket b + 1 or later, so none of bucket b
  // lowers another of it, and each comes out with its distance final, in any order. A move
  // costs at most c = max(straight, diagonal), so a lowering lands fewer than c / w + 2
  // buckets on: that many (rounded up to a power of two; four for octile costs) are kept in a
  // ring. A bucket is computed from the sum as rounded; one that would not be past the current
  // bucket (a rounding of the last bit) goes to the next.
  const double w = std::min(straight_, diagonal_), inv = 1 / w;
  const std::int32_t step[8] = {-stride,    1,          stride,     -1,
                                1 - stride, 1 + stride, stride - 1, -stride - 1};
  const std::size_t slots =
      std::bit_ceil(static_cast<std::size_t>(std::max(straight_, diagonal_) * inv) + 2);
  const std::uint64_t mask = slots - 1;
  std::vector<std::vector<grid::NodeId>>& ring = scratch.ring;
  ring.resize(slots);
  for (auto& b : ring) b.clear();
  std::vector<std::uint64_t>& done = scratch.done;
  done.assign(d.size() / 64 + 1, 0);
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
      const double du = d[u];
      auto relax = [&](grid::NodeId v, double to) {
        double& dv = d[v];
        if (!lower(to, dv)) return;
        dv = to;
        const std::uint64_t at = std::max(static_cast<std::uint64_t>(to * inv), b + 1);
        ring[at & mask].push_back(v);
        ++pending;
      };
      bool side[4];
      for (int j = 0; j < 4; ++j) {
        const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
        side[j] = open(v);
        if (side[j]) relax(v, du + straight_);
      }
      for (int j = 4; j < 8; ++j) {
        if (!side[j - 4] || !side[(j - 3) & 3]) continue;
        const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(u) + step[j]);
        if (open(v)) relax(v, du + diagonal_);
      }
    }
    pending -= here.size();
    here.clear();
  }
  for (const double v : d) {
    if (v != kInf) longest_ = std::max(longest_, v);
  }
}

void Landmarks::build(const grid::Grid& g, const Components& comps, double straight,
                      double diagonal) {
  clear();
  const std::size_t n = g.padded_size();
  const int k = static_cast<int>(std::min<std::size_t>(kMax, kMaxBytes / (n * sizeof(double))));
  if (k < kMin) return;
  // The largest component: its cells by label count.
  std::vector<std::uint32_t> size(n + 1, 0);
  std::uint32_t best = 0;
  grid::NodeId seed = 0;
  for (grid::NodeId c = 0; c < n; ++c) {
    const std::uint32_t l = comps.of(c);
    if (l == 0) continue;
    if (++size[l] > best) {
      best = size[l];
      seed = c;
    }
  }
  if (best == 0) return;
  size = {};
  straight_ = straight;
  diagonal_ = diagonal;
  open_.assign(n / 64 + 1, 0);
  kept_.assign(n / 64 + 1, 0);
  for (grid::NodeId c = 0; c < n; ++c) {
    if (g.passable_id(c)) {
      open_[c >> 6] |= std::uint64_t{1} << (c & 63);
      ++open_cells_;
    }
  }
  // Column 0 first holds the distances from the seed, whose farthest cell is the first
  // landmark; then each column i those from landmark i, and `nearest` the distance to the
  // closest landmark so far, whose largest value picks the next one.
  k_ = k;
  d_.assign(n * static_cast<std::size_t>(k), kInf);
  std::vector<double> nearest(n, kInf);
  // Each search runs in a plain array (neighbours a row apart, not a row of tables apart:
  // twice as fast). Four such arrays are copied into their columns together: a pass over the
  // tables a landmark read and wrote k times their size in cache lines (on Aurora the copies
  // took as long as the searches).
  constexpr int kBatch = 4;
  std::vector<double> cols[kBatch];
  for (auto& c : cols) c.resize(n);
  int held = 0, first = 0;  // columns first .. first + held - 1 wait in cols
  auto flush = [&] {
    const auto kk = static_cast<std::size_t>(k);
    for (std::size_t c = 0; c < n; ++c) {
      double* row = &d_[c * kk + static_cast<std::size_t>(first)];
      for (int j = 0; j < held; ++j) row[j] = cols[j][c];
    }
    first += held;
    held = 0;
  };
  Buckets buckets;
  // The distances from src, into the next free array (held counts it once kept).
  auto from = [&](grid::NodeId src) -> const std::vector<double>& {
    std::vector<double>& one = cols[held];
    std::fill(one.begin(), one.end(), kInf);
    sweep(one, src, g.stride(), buckets);
    return one;
  };
  auto farthest = [&](auto&& dist) {
    grid::NodeId at = seed;
    double far = -1;
    for (grid::NodeId c = 0; c < n; ++c) {
      const double v = dist(c);
      if (v != kInf && v > far) {
        far = v;
        at = c;
      }
    }
    return at;
  };
  const std::vector<double>& around = from(seed);
  grid::NodeId next = farthest([&](grid::NodeId c) { return around[c]; });
  for (int i = 0; i < k; ++i) {
    marks_.push_back(next);
    const std::vector<double>& one = from(next);
    ++held;
    for (grid::NodeId c = 0; c < n; ++c) nearest[c] = std::min(nearest[c], one[c]);
    if (held == kBatch || i + 1 == k) flush();
    if (i + 1 < k) next = farthest([&](grid::NodeId c) { return nearest[c]; });
  }
  set_margin();
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
    if ((dead_ >> i) & 1) continue;
    const auto col = static_cast<std::size_t>(i);
    std::int64_t work = 0;
    q_.clear();
    for (const grid::NodeId c : opened_) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const auto v = static_cast<grid::NodeId>(static_cast<std::int64_t>(c) + dy * stride + dx);
          const double dv = d_[v * k + col];
          if (open(v) && dv != kInf) q_.push({priority_key(dv), v});
        }
      }
    }
    if (!settle([&](grid::NodeId c) -> double& { return d_[c * k + col]; }, stride, work, budget)) {
      // Half lowered, the column is no bound: zeros are (|0 - 0| adds nothing to h).
      for (std::size_t c = 0; c < d_.size() / k; ++c) d_[c * k + col] = 0;
      dead_ |= 1u << i;
      if (alive() == 0) {
        clear();
        return false;
      }
    }
  }
  set_margin();
  return true;
}

void Landmarks::toward(grid::NodeId t, Goal& goal) const noexcept {
  goal.table = nullptr;
  goal.k = 0;
  if (k_ == 0 || !open(t)) return;
  for (int i = 0; i < k_; ++i) {
    goal.at_goal[i] = distance(i, t);
    if (goal.at_goal[i] == kInf) return;
  }
  goal.table = d_.data();
  goal.k = k_;
  goal.margin = margin_;
}

}  // namespace pathlab::search::detail
