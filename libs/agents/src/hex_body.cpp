#include "hex_body.hpp"

#include <pathlab/agents/geometry.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/unit.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace pathlab::agents::detail {

NearestPoint nearest_on_hexagon(grid::Layout l, Vec2 p, int x, int y) noexcept {
  const std::array<Point, 6> c = grid::hex::corners(l, x, y);
  std::array<Vec2, 6> v;
  for (std::size_t i = 0; i < 6; ++i) v[i] = Vec2(c[i]);
  return nearest_on_polygon(p, v);
}

namespace {

/// Half a hex edge, 1/(2 sqrt 3): the widest body that passes between walls at both ends of
/// the edge two free hexes share.
constexpr double kHalfEdge = grid::hex::kCorner / 2;

/// The distance from p to the closed hexagon of cell (x, y) (0 inside it).
double to_hexagon(grid::Layout l, Vec2 p, int x, int y) {
  const NearestPoint n = nearest_on_hexagon(l, p, x, y);
  return n.inside ? 0.0 : n.distance;
}

/// ring[k]: the least distance from a hex's centre to a hex at hex distance k + 1, for every
/// whole radius a unit may have (the same in every layout: the layouts are one tiling turned).
const std::vector<double>& ring_clearance() {
  static const std::vector<double> table = [] {
    const auto kmax = static_cast<int>(grid::Unit::max_radius);
    std::vector<double> t(static_cast<std::size_t>(kmax) + 1, 1e300);
    const grid::Layout l = grid::Layout::pointy_odd_r;
    const int c = kmax + 4;  // the centre cell, with room for every ring around it
    const Vec2 o(grid::hex::centre(l, c, c));
    for (int y = 0; y <= 2 * c; ++y) {
      for (int x = 0; x <= 2 * c; ++x) {
        const int ring = grid::hex::distance(l, {c, c}, {x, y}) - 1;
        if (ring < 0 || ring > kmax) continue;
        auto& slot = t[static_cast<std::size_t>(ring)];
        slot = std::min(slot, to_hexagon(l, o, x, y));
      }
    }
    return t;
  }();
  return table;
}

/// A wall for a body, as the World's motion model has it: a hex the default unit cannot enter
/// or one outside the map.
bool wall(const grid::Grid& map, Cell c) {
  return !map.in_bounds(c) || !map.passable(c);
}

/// The wall hexes within hex distance `reach` of (x, y).
std::vector<Cell> walls_near(const grid::Grid& map, int x, int y, int reach) {
  const grid::Layout l = map.layout();
  std::vector<Cell> near;
  for (int yy = y - reach - 1; yy <= y + reach + 1; ++yy) {
    for (int xx = x - reach - 1; xx <= x + reach + 1; ++xx) {
      if (grid::hex::distance(l, {x, y}, {xx, yy}) <= reach && wall(map, {xx, yy}))
        near.push_back({xx, yy});
    }
  }
  return near;
}

/// The samples of the edge between (x, y) and its neighbour d: f(point, clearance) for each of
/// 33 points from one end to the other, until f returns false.
template <class F>
void sample_edge(const grid::Grid& map, int x, int y, int d, int k, F&& f) {
  const grid::Layout l = map.layout();
  // The wall hexes that can come within r of the edge: within hex distance k + 2 of (x, y).
  // Those beyond are at least ring[k + 2] from its centre and the edge is within 1/sqrt 3 of
  // it, while r <= ring[k] and each ring lies at least sqrt(3)/2 beyond the last.
  const std::vector<Cell> near = walls_near(map, x, y, k + 2);
  const std::array<Point, 2> e = grid::hex::edge(l, x, y, d);
  constexpr int kSamples = 32;
  for (int s = 0; s <= kSamples; ++s) {
    const double t = static_cast<double>(s) / kSamples;
    const Vec2 p{e[0].x + t * (e[1].x - e[0].x), e[0].y + t * (e[1].y - e[0].y)};
    double clear = 1e300;
    for (const Cell c : near) clear = std::min(clear, to_hexagon(l, p, c.x, c.y));
    if (!f(p, clear, t)) return;
  }
}

}  // namespace

int hex_whole_radius(double r) {
  const std::vector<double>& ring = ring_clearance();
  for (std::size_t k = 0; k < ring.size(); ++k) {
    if (ring[k] >= r - 1e-12) return static_cast<int>(k);
  }
  throw std::invalid_argument("a body of radius " + std::to_string(r) +
                              " is too wide for a hex map's planners");
}

bool hex_body_crosses(const grid::Grid& map, int x, int y, int d, double r) {
  if (r <= kHalfEdge + 1e-12) return true;
  const grid::Layout l = map.layout();
  const int k = hex_whole_radius(r);
  if (k == 0) {
    // Only the two hexes at the ends of the edge come within 0.5 of it (every other hex is at
    // least a hex edge, 1/sqrt 3, from its ends): with one of them free the body passes by that
    // end; with both walls the gap is the edge itself.
    return !wall(map, grid::hex::neighbour(l, x, y, (d + 1) % 6)) ||
           !wall(map, grid::hex::neighbour(l, x, y, (d + 5) % 6));
  }
  bool crosses = false;
  sample_edge(map, x, y, d, k, [&](Vec2, double clear, double) {
    crosses = clear >= r;
    return !crosses;
  });
  return crosses;
}

std::optional<Point> hex_crossing(const grid::Grid& map, int x, int y, int d, double r) {
  std::optional<Point> best;
  double best_clear = -1, best_off = 1;
  sample_edge(map, x, y, d, hex_whole_radius(r), [&](Vec2 p, double clear, double t) {
    const double off = std::abs(t - 0.5);
    if (clear > best_clear + 1e-12 || (clear > best_clear - 1e-12 && off < best_off)) {
      best_clear = clear;
      best_off = off;
      best = p.point();
    }
    return true;
  });
  if (best_clear < r - 1e-12) return std::nullopt;
  return best;
}

grid::Grid hex_body_map(const grid::Grid& map, double r) {
  grid::Grid out = map;
  if (r <= kHalfEdge + 1e-12) return out;
  grid::Unit u;
  u.cost.fill(1.0f);
  u.radius = hex_whole_radius(r);
  const std::shared_ptr<const grid::Grid> view = map.view(u);
  const grid::Layout l = map.layout();
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) {
      if (!view->passable(x, y)) continue;
      for (const int d : {0, 4, 5}) {  // each edge once
        const Cell n = grid::hex::neighbour(l, x, y, d);
        if (!view->passable(n) || hex_body_crosses(map, x, y, d, r)) continue;
        out.set_hex_edge_wall(x, y, d, true);
      }
    }
  }
  return out;
}

}  // namespace pathlab::agents::detail
