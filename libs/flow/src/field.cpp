// Whole-map flow fields (field.hpp). The integration field is one Dijkstra from the goals over
// reversed moves: the move n -> c costs its base cost times the terrain of c (the cell entered),
// so a cell popped with D(c) offers its neighbours D(c) + base x terrain(c).
//
// The queue is a bucket queue of width w = the straight cost (the least step, terrain >= 1): a
// relaxation from bucket k lands in bucket k + 1 or later, so no cell can lower another of its
// own bucket and the buckets may be emptied in any order: the distances are exact, without a
// heap. Directions are chosen when a cell is popped: every neighbour that can win (D(n) <= D(c)
// - w) is final by then, and the others cannot come within the tie tolerance.
//
// Repairs (update) mark the edited area (grown by the unit's radius and one cell for the corner
// rule) and every cell whose direction chain runs into it, recompute those from their unmarked
// neighbours, and let any shorter way through the edit spread outward (a label-correcting pass
// with a tolerance, so that rounding alone never spreads).
#include <pathlab/flow/field.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <queue>

#include <pathlab/grid/los.hpp>
#include <pathlab/grid/topology.hpp>

#include "detail.hpp"

namespace pathlab::flow {
using grid::NodeId;
using namespace detail;

std::int8_t Field::best_direction(const grid::Grid& view, NodeId n) const {
  if (!view.passable_id(n) || !std::isfinite(dist_[n])) return kNoDirection;
  if (dist_[n] == 0) return kGoalByte;
  const auto off = offsets(view.stride());
  const double straight = options_.moves.straight_cost(), diagonal = options_.moves.diagonal_cost();
  const unsigned legal = legal_moves(view, options_.moves.diagonal, n);
  std::array<double, 8> value;
  double best = kUnreachable;
  for (int d = 0; d < 8; ++d) {
    value[static_cast<std::size_t>(d)] = kUnreachable;
    if (!(legal >> d & 1u)) continue;
    const NodeId m = n + static_cast<NodeId>(off[static_cast<std::size_t>(d)]);
    const double v = dist_[m] + ((d & 1) ? diagonal : straight) * view.terrain_id(m);
    value[static_cast<std::size_t>(d)] = v;
    best = std::min(best, v);
  }
  if (!std::isfinite(best)) return kNoDirection;
  int pick = -1;
  for (int d = 0; d < 8; ++d) {
    if (value[static_cast<std::size_t>(d)] > best + tolerance(best)) continue;
    if (pick < 0 || direction_rank(d) < direction_rank(pick)) pick = d;
  }
  return static_cast<std::int8_t>(pick);
}

void Field::settle_all(const grid::Grid& view, std::span<const NodeId> seeds) {
  plain_ = view.plain();
  if (!plain_) {
    settle_general(view, seeds);
    return;
  }
  next_.clear();
  grid::dispatch_rule(options_.moves.diagonal, [&](auto rule) {
    if (view.has_terrain()) {
      settle<decltype(rule)::value, true>(view, seeds);
    } else {
      sweep<decltype(rule)::value>(view, seeds);
    }
  });
}

// The uniform-cost sweep (no terrain): the same Dijkstra as settle<R, false>, written for the
// hot loop. Each pop relaxes its eight neighbours without a data-dependent branch: the distance
// is stored back whether it improved or not, and the neighbour's id is written into its bucket
// and the bucket's end advanced by the comparison. The four straight offers share one bucket,
// the four diagonal ones another. The direction is the first code, straight ones before
// diagonal ones, within the tolerance of the least value: two bit scans.
template <grid::DiagonalRule R>
void Field::sweep(const grid::Grid& view, std::span<const NodeId> seeds) {
  const auto off = offsets(view.stride());
  const double straight = options_.moves.straight_cost(), diagonal = options_.moves.diagonal_cost();
  FlatBuckets q(straight, static_cast<std::size_t>(std::ceil(diagonal / straight)) + 2);
  for (const NodeId s : seeds) q.push(0, s);
  double* dist = dist_.data();
  std::int8_t* dir = dir_.data();
  std::int64_t settled = 0;
  while (!q.empty()) {
    for (const NodeId c : q.next()) {
      if (dir[c] != kNoDirection) continue;  // settled by an earlier entry
      ++settled;
      const unsigned legal = legal_moves_t<R>(view, c);
      const double here = dist[c];
      std::array<double, 8> value;
      auto slot = [&](std::size_t d) { return dist + (c + static_cast<NodeId>(off[d])); };
      auto key = [&](std::size_t d) { return c + static_cast<NodeId>(off[d]); };
      relax_four(q, {0, 2, 4, 6}, here, straight, legal, slot, key, value);
      if constexpr (R != grid::DiagonalRule::never) {
        relax_four(q, {1, 3, 5, 7}, here, diagonal, legal, slot, key, value);
      } else {
        for (const std::size_t du : {1u, 3u, 5u, 7u}) value[du] = kUnreachable;
      }
      if (here == 0) {
        dir[c] = kGoalByte;
        continue;
      }
      dir[c] = pick_direction(value);
    }
    q.release();
  }
  stats_.settled += settled;
}

template <grid::DiagonalRule R, bool Terrain>
void Field::settle(const grid::Grid& view, std::span<const NodeId> seeds) {
  const auto off = offsets(view.stride());
  const double straight = options_.moves.straight_cost(), diagonal = options_.moves.diagonal_cost();
  float max_terrain = 1;
  if constexpr (Terrain) {
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) max_terrain = std::max(max_terrain, view.terrain(x, y));
    }
  }
  auto terrain = [&view](NodeId n) -> double {
    if constexpr (Terrain) {
      return view.terrain_id(n);
    } else {
      (void)n;
      return 1.0;
    }
  };
  std::int64_t settled = 0;
  // Pops c: its direction from its final neighbours, then offers D(c) + step(n -> c) to them.
  auto pop = [&](NodeId c, auto&& push) {
    // Settled cells hold their direction byte (every settled cell gets one: a code, or
    // kGoalByte on a goal); kNoDirection means not yet.
    if (dir_[c] != kNoDirection) return;
    ++settled;
    const unsigned legal = legal_moves_t<R>(view, c);
    const double here = dist_[c];
    const double t = terrain(c);
    const double into_straight = straight * t, into_diagonal = diagonal * t;
    std::array<double, 8> value;
    double best = kUnreachable;
    for (int d = 0; d < 8; ++d) {
      const auto du = static_cast<std::size_t>(d);
      value[du] = kUnreachable;
      if (!(legal >> d & 1u)) continue;
      const NodeId m = c + static_cast<NodeId>(off[du]);
      const double dm = dist_[m];
      const bool diag = (d & 1) != 0;
      const double v = dm + (diag ? diagonal : straight) * terrain(m);
      value[du] = v;
      best = std::min(best, v);
      const double offer = here + (diag ? into_diagonal : into_straight);
      if (offer < dm) {
        dist_[m] = offer;
        push(offer, m);
      }
    }
    if (here == 0) dir_[c] = kGoalByte;
    if (here > 0 && best < kUnreachable) {
      // The first code in tie order (E, S, W, N, then SE, SW, NW, NE) within the tolerance.
      const double limit = best + tolerance(best);
      for (const int d : {0, 2, 4, 6, 1, 3, 5, 7}) {
        if (value[static_cast<std::size_t>(d)] <= limit) {
          dir_[c] = static_cast<std::int8_t>(d);
          break;
        }
      }
    }
  };
  const double widest = diagonal * static_cast<double>(max_terrain);
  const double span = std::ceil(widest / straight) + 2;
  if (span <= 4096) {
    BucketQueue q(straight, static_cast<std::size_t>(span));
    for (const NodeId s : seeds) q.push(0, s);
    auto push = [&q](double k, NodeId n) { q.push(k, n); };
    while (!q.empty()) {
      for (const NodeId c : q.next()) pop(c, push);
    }
  } else {  // terrain costs too far apart for buckets: a binary heap
    using Entry = std::pair<double, NodeId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> q;
    for (const NodeId s : seeds) q.emplace(0, s);
    auto push = [&q](double k, NodeId n) { q.emplace(k, n); };
    while (!q.empty()) {
      const NodeId c = q.top().second;
      q.pop();
      pop(c, push);
    }
  }
  stats_.settled += settled;
}

// Every other map kind (hex layouts, edge walls, links): one Dijkstra with a binary heap over
// reversed moves (for_each_move_in gives each predecessor m of c with the cost of m -> c), then
// each cell's direction from its forward moves (for_each_move): the least step + D(n) within the
// tolerance, ties to the lowest code (hex) or the square tie order, a link after every grid
// direction (and the first link in out_links order among links). next_ keeps where it leads.
void Field::settle_general(const grid::Grid& view, std::span<const NodeId> seeds) {
  const grid::StepBase base{options_.moves.straight_cost(), options_.moves.diagonal_cost()};
  const bool hex = grid::is_hex(view.layout());
  const int link = grid::link_direction(view.layout());
  next_.assign(dist_.size(), kNoNode);
  grid::dispatch_rule(options_.moves.diagonal, [&](auto rule) {
    constexpr grid::DiagonalRule R = decltype(rule)::value;
    using Entry = std::pair<double, NodeId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> q;
    std::vector<std::uint8_t> done(dist_.size(), 0);
    for (const NodeId s : seeds) q.emplace(0, s);
    std::int64_t settled = 0;
    while (!q.empty()) {
      // Plain variables: clang 14 cannot capture structured bindings in the lambda below.
      const double key = q.top().first;
      const NodeId c = q.top().second;
      q.pop();
      if (done[c] || key > dist_[c]) continue;
      done[c] = 1;
      ++settled;
      grid::for_each_move_in<R>(view, c, base, [&](NodeId m, int, double cost) {
        const double offer = key + cost;
        if (offer < dist_[m]) {
          dist_[m] = offer;
          q.emplace(offer, m);
        }
      });
    }
    stats_.settled += settled;
    // The square tie order of a move by its cell offset: codes 0..7 (E, SE, S, SW, W, NW, N, NE).
    auto square_code = [](int dx, int dy) {
      for (int d = 0; d < 8; ++d) {
        if (kDirDx[static_cast<std::size_t>(d)] == dx &&
            kDirDy[static_cast<std::size_t>(d)] == dy) {
          return d;
        }
      }
      return -1;
    };
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const NodeId c = id({x, y});
        if (!view.passable_id(c) || !std::isfinite(dist_[c])) continue;
        if (dist_[c] == 0) {
          dir_[c] = kGoalByte;
          continue;
        }
        struct Move {
          NodeId to;
          int code;
          double value;
        };
        std::array<Move, 16> moves;
        std::size_t k = 0;
        std::vector<Move> extra;  // links beyond the first few
        double best = kUnreachable;
        grid::for_each_move<R>(view, c, base, [&](NodeId m, int d, double cost) {
          int code = link;
          if (d != link || hex) code = d;
          if (!hex && d != link) {
            const Cell mc = view.cell(m);
            code = square_code(mc.x - x, mc.y - y);
          }
          const Move mv{m, code, dist_[m] + cost};
          best = std::min(best, mv.value);
          if (k < moves.size()) {
            moves[k++] = mv;
          } else {
            extra.push_back(mv);
          }
        });
        if (!std::isfinite(best)) continue;
        const double limit = best + tolerance(best);
        auto rank = [&](int code) { return code == link ? 99 : hex ? code : direction_rank(code); };
        const Move* pick = nullptr;
        auto consider = [&](const Move& mv) {
          if (mv.value > limit) return;
          if (pick == nullptr || rank(mv.code) < rank(pick->code)) pick = &mv;
        };
        for (std::size_t i = 0; i < k; ++i) consider(moves[i]);
        for (const Move& mv : extra) consider(mv);
        dir_[c] = static_cast<std::int8_t>(pick->code);
        next_[c] = pick->to;
      }
    }
  });
}

void Field::sight_pass(const grid::Grid& view) {
  const double r = options_.sight_range;
  // Clear the squares the last pass could have marked (only they can hold marks).
  const int reach = static_cast<int>(std::ceil(r));
  for (const Cell g : goals_) {
    for (int y = std::max(0, g.y - reach); y <= std::min(height_ - 1, g.y + reach); ++y) {
      for (int x = std::max(0, g.x - reach); x <= std::min(width_ - 1, g.x + reach); ++x) {
        const NodeId n = id({x, y});
        sees_[n] = 0;
        if (dir_[n] >= 0) dir_[n] = static_cast<std::int8_t>(dir_[n] & kCodeMask);
      }
    }
  }
  if (!(r > 0)) return;
  std::vector<double> seen_at;  // straight distance to the goal a cell sees, for the nearest
  for (std::size_t k = 0; k < goals_.size(); ++k) {
    const Cell g = goals_[k];
    if (!std::isfinite(dist_[id(g)])) continue;
    for (int y = std::max(0, g.y - reach); y <= std::min(height_ - 1, g.y + reach); ++y) {
      for (int x = std::max(0, g.x - reach); x <= std::min(width_ - 1, g.x + reach); ++x) {
        const NodeId n = id({x, y});
        const double e = std::hypot(x - g.x, y - g.y);
        if (e > r || !std::isfinite(dist_[n])) continue;
        if (sees_[n] != 0) {
          const Cell other = goals_[sees_[n] - 1u];
          if (std::hypot(x - other.x, y - other.y) <= e) continue;
        }
        if (grid::line_of_sight(view, options_.moves.diagonal, g, Cell{x, y})) {
          sees_[n] = static_cast<std::uint16_t>(k + 1);
        }
      }
    }
  }
  for (const Cell g : goals_) {
    for (int y = std::max(0, g.y - reach); y <= std::min(height_ - 1, g.y + reach); ++y) {
      for (int x = std::max(0, g.x - reach); x <= std::min(width_ - 1, g.x + reach); ++x) {
        const NodeId n = id({x, y});
        if (sees_[n] != 0 && dir_[n] >= 0) dir_[n] = static_cast<std::int8_t>(dir_[n] | kSeesBit);
      }
    }
  }
}

std::optional<std::string> Field::build(const grid::Grid& g, std::span<const Cell> goals,
                                        const Options& o) {
  // A refused build leaves the field empty.
  auto fail = [this](std::string why) -> std::optional<std::string> {
    *this = Field{};
    return why;
  };
  const auto t0 = std::chrono::steady_clock::now();
  if (auto bad = grid::validate(o.unit)) return fail(*bad);
  if (!(o.sight_range >= 0) || o.sight_range > 1024) {
    return fail("the sight range must be a number from 0 to 1024");
  }
  if (goals.empty()) return fail("a flow field needs at least one goal");
  if (goals.size() > 65535) return fail("a flow field takes at most 65535 goals");
  const std::shared_ptr<const grid::Grid> view = g.view(o.unit);
  for (const Cell c : goals) {
    const std::string at = std::to_string(c.x) + "," + std::to_string(c.y);
    if (!g.in_bounds(c)) {
      return fail("goal " + at + " is outside the " + std::to_string(g.width()) + "x" +
                  std::to_string(g.height()) + " map");
    }
    if (!view->passable(c)) {
      std::string why = "goal " + at;
      why += " is on a square the unit cannot use (a wall, a forbidden class, or closer than its ";
      why += "radius to one)";
      return fail(why);
    }
  }
  // The arrays keep their memory from an earlier build (no page faults on a rebuild).
  stats_ = {};
  width_ = g.width();
  height_ = g.height();
  options_ = o;
  grid_ = &g;
  revision_ = g.revision();
  goals_.assign(goals.begin(), goals.end());
  dist_.assign(view->padded_size(), kUnreachable);
  dir_.assign(view->padded_size(), kNoDirection);
  sees_.assign(view->padded_size(), 0);
  std::vector<NodeId> seeds;
  for (const Cell c : goals_) {
    const NodeId n = id(c);
    if (dist_[n] == 0) continue;
    dist_[n] = 0;
    seeds.push_back(n);
  }
  settle_all(*view, seeds);
  sight_pass(*view);
  stats_.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return std::nullopt;
}

void Field::repair(const grid::Grid& view, std::span<const grid::Rect> areas) {
  const std::int32_t s = view.stride();
  const auto off = offsets(s);
  const double straight = options_.moves.straight_cost(), diagonal = options_.moves.diagonal_cost();
  const grid::DiagonalRule rule = options_.moves.diagonal;
  // The unit's view changes within its radius of an edited square; a move's legality within one
  // more cell (the corner rule).
  const int grow = static_cast<int>(std::ceil(options_.unit.radius)) + 2;
  std::vector<std::uint8_t> marked(dist_.size(), 0);
  std::vector<NodeId> invalid;
  for (const grid::Rect& a : areas) {
    for (int y = std::max(0, a.y0 - grow); y <= std::min(height_ - 1, a.y1 + grow); ++y) {
      for (int x = std::max(0, a.x0 - grow); x <= std::min(width_ - 1, a.x1 + grow); ++x) {
        const NodeId n = id({x, y});
        if (marked[n]) continue;
        marked[n] = 1;
        invalid.push_back(n);
      }
    }
  }
  // Every cell whose direction chain runs into the marked cells: their children, recursively.
  for (std::size_t k = 0; k < invalid.size(); ++k) {
    const NodeId c = invalid[k];
    for (int d = 0; d < 8; ++d) {
      const NodeId m = c + static_cast<NodeId>(off[static_cast<std::size_t>(d)]);
      const std::int8_t md = code(dir_[m]);
      if (marked[m] || md < 0) continue;
      if (m + static_cast<NodeId>(off[static_cast<std::size_t>(md)]) != c) continue;
      marked[m] = 1;
      invalid.push_back(m);
    }
  }
  std::vector<NodeId> goal_ids;
  for (const Cell g : goals_) goal_ids.push_back(id(g));
  std::sort(goal_ids.begin(), goal_ids.end());
  for (const NodeId c : invalid) {
    dist_[c] = kUnreachable;
    dir_[c] = kNoDirection;
  }
  using Entry = std::pair<double, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> q;
  for (const NodeId c : invalid) {
    if (!view.passable_id(c)) continue;
    if (std::binary_search(goal_ids.begin(), goal_ids.end(), c)) {
      dist_[c] = 0;
      q.emplace(0, c);
      continue;
    }
    const unsigned legal = legal_moves(view, rule, c);
    double best = kUnreachable;
    for (int d = 0; d < 8; ++d) {
      if (!(legal >> d & 1u)) continue;
      const NodeId m = c + static_cast<NodeId>(off[static_cast<std::size_t>(d)]);
      if (marked[m]) continue;
      best = std::min(best, dist_[m] + ((d & 1) ? diagonal : straight) * view.terrain_id(m));
    }
    if (std::isfinite(best)) {
      dist_[c] = best;
      q.emplace(best, c);
    }
  }
  // Label-correcting Dijkstra: pops in key order, skips stale entries, and spreads every
  // improvement beyond the tolerance, inside the marked cells or out of them.
  std::vector<NodeId> changed(invalid.begin(), invalid.end());
  while (!q.empty()) {
    const auto [key, c] = q.top();
    q.pop();
    if (key > dist_[c]) continue;
    ++stats_.settled;
    const unsigned legal = legal_moves(view, rule, c);
    const float t = view.terrain_id(c);
    for (int d = 0; d < 8; ++d) {
      if (!(legal >> d & 1u)) continue;
      const NodeId m = c + static_cast<NodeId>(off[static_cast<std::size_t>(d)]);
      const double offer = key + ((d & 1) ? diagonal : straight) * t;
      if (offer < dist_[m] - (std::isfinite(dist_[m]) ? tolerance(dist_[m]) : 0.0)) {
        if (!marked[m]) {
          marked[m] = 1;
          changed.push_back(m);
        }
        dist_[m] = offer;
        q.emplace(offer, m);
      }
    }
  }
  // Directions of the changed cells and of their neighbours (who may now prefer them).
  std::vector<std::uint8_t> redone(dist_.size(), 0);
  for (const NodeId c : changed) {
    for (int d = -1; d < 8; ++d) {
      const NodeId m = d < 0 ? c : c + static_cast<NodeId>(off[static_cast<std::size_t>(d)]);
      if (redone[m]) continue;
      redone[m] = 1;
      const Cell mc = view.cell(m);
      if (!in_bounds(mc)) continue;
      dir_[m] = best_direction(view, m);
    }
  }
}

Stats Field::update(const grid::Grid& g) {
  if (grid_ == nullptr || g.revision() == revision_) return {};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<grid::Rect> areas;
  const bool same_shape = &g == grid_ && g.width() == width_ && g.height() == height_;
  // Not plain (hex, edge walls, links): build afresh, which equals a fresh build by definition.
  if (!same_shape || !plain_ || !g.plain() || !g.changes_since(revision_, areas)) {
    const std::vector<Cell> goals = goals_;
    const Options o = options_;
    // The goals were valid when built; one the edits made unusable keeps no distance, which a
    // fresh build refuses, so rebuild around it by hand (the arrays keep their memory).
    stats_ = {};
    width_ = g.width();
    height_ = g.height();
    options_ = o;
    grid_ = &g;
    goals_ = goals;
    const auto view = g.view(o.unit);
    dist_.assign(view->padded_size(), kUnreachable);
    dir_.assign(view->padded_size(), kNoDirection);
    sees_.assign(view->padded_size(), 0);
    std::vector<NodeId> seeds;
    for (const Cell c : goals_) {
      if (!in_bounds(c) || !view->passable(c) || dist_[id(c)] == 0) continue;
      dist_[id(c)] = 0;
      seeds.push_back(id(c));
    }
    settle_all(*view, seeds);
    sight_pass(*view);
    stats_.rebuilt = true;
  } else {
    stats_ = {};
    const auto view = g.view(options_.unit);
    repair(*view, areas);
    sight_pass(*view);
  }
  revision_ = g.revision();
  stats_.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return stats_;
}

std::optional<Point> Field::steer(Point p) const noexcept {
  if (!(p.x >= 0) || !(p.y >= 0) || !(p.x < width_) || !(p.y < height_)) return std::nullopt;
  const Cell c{static_cast<std::int32_t>(p.x), static_cast<std::int32_t>(p.y)};
  const NodeId n = id(c);
  const std::int8_t b = dir_[n];
  if (b == kNoDirection) return std::nullopt;
  if (b == kGoalByte) return centre(c);
  if (b & kSeesBit) return centre(goals_[sees_[n] - 1u]);
  const std::optional<Cell> to = next(c);
  if (!to) return std::nullopt;
  return centre(*to);
}

std::optional<Cell> Field::next(Cell c) const noexcept {
  if (!in_bounds(c)) return std::nullopt;
  const NodeId n = id(c);
  const std::int8_t d = code(dir_[n]);
  if (d < 0) return std::nullopt;
  if (!plain_) {
    const NodeId m = next_[n];
    if (m == kNoNode) return std::nullopt;
    const std::int32_t s = stride();
    return Cell{static_cast<std::int32_t>(m % static_cast<NodeId>(s)) - 1,
                static_cast<std::int32_t>(m / static_cast<NodeId>(s)) - 1};
  }
  return Cell{c.x + kDirDx[static_cast<std::size_t>(d)], c.y + kDirDy[static_cast<std::size_t>(d)]};
}

std::vector<double> Field::distances() const {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_));
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) out.push_back(dist_[id({x, y})]);
  }
  return out;
}

std::vector<std::int8_t> Field::directions() const {
  std::vector<std::int8_t> out;
  out.reserve(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_));
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) out.push_back(code(dir_[id({x, y})]));
  }
  return out;
}

}  // namespace pathlab::flow
