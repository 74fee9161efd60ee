// Helpers for the unit tests: grids with random terrain classes, random units, and the
// reference of shared docs/ALGORITHMS.md ("Units"): the plain grid copy built for a unit by the
// definition, with a brute-force clearance, independent of the library's fields and views.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>

namespace pathlab::testing {

/// Classes the random grids use: ground, Moving AI's S, T, W, and one of the users' own.
inline constexpr char kTestClasses[] = {'.', 'S', 'T', 'W', 'F'};

/// A random grid: walls with probability wall_pct/100; other cells ground or (with probability
/// class_pct/100) a random class of kTestClasses, and with `terrain` a cost in {1.5, 2, 3} on
/// a third of them.
inline grid::Grid random_class_grid(std::uint32_t seed, int w, int h, int wall_pct,
                                    int class_pct = 30, bool terrain = false) {
  std::mt19937 rng(seed);
  grid::Grid g(w, h);
  const float costs[] = {1.5f, 2.0f, 3.0f};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (static_cast<int>(rng() % 100) < wall_pct) {
        g.set_blocked(x, y, true);
        continue;
      }
      if (static_cast<int>(rng() % 100) < class_pct) g.set_class(x, y, kTestClasses[rng() % 5]);
      if (terrain && rng() % 3 == 0) g.set_terrain(x, y, costs[rng() % 3]);
    }
  }
  return g;
}

/// A random unit: radius 0..2.5 in steps of 0.05 (0 half the time... a third: most units in a
/// game are small), each class of kTestClasses a cost in {1, 1.5, 2, 4} or forbidden (ground
/// forbidden rarely).
inline grid::Unit random_unit(std::mt19937& rng) {
  grid::Unit u;
  u.radius = rng() % 3 == 0 ? 0.0 : static_cast<double>(rng() % 51) * 0.05;
  const float costs[] = {1.0f, 1.5f, 2.0f, 4.0f};
  for (const char c : kTestClasses) {
    const bool forbid = rng() % (c == '.' ? 20 : 4) == 0;
    u.set(c, forbid ? grid::Unit::forbidden : costs[rng() % 4]);
  }
  return u;
}

/// Whether the square of (x, y) is blocked for the unit: a wall, a forbidden class, outside.
inline bool blocked_square(const grid::Grid& g, const grid::Unit& u, int x, int y) {
  if (!g.in_bounds(x, y)) return true;
  const char c = g.cell_class(x, y);
  return c == grid::kWallClass || u.forbids(c);
}

/// Clearance by the definition: the distance from the cell's centre to the nearest blocked
/// square, over every square of the map and the four sides of its outside.
inline double brute_clearance(const grid::Grid& g, const grid::Unit& u, int x, int y) {
  if (blocked_square(g, u, x, y)) return 0;
  double best = std::min({x + 0.5, g.width() - x - 0.5, y + 0.5, g.height() - y - 0.5});
  for (int yy = 0; yy < g.height(); ++yy) {
    for (int xx = 0; xx < g.width(); ++xx) {
      if (!blocked_square(g, u, xx, yy)) continue;
      const double gx = std::max(0.0, std::abs(xx - x) - 0.5);
      const double gy = std::max(0.0, std::abs(yy - y) - 0.5);
      best = std::min(best, std::hypot(gx, gy));
    }
  }
  return best;
}

/// The plain grid copy for a unit: cells that are not usable (blocked, or clearance below the
/// radius) are walls; the others cost class cost x terrain.
inline grid::Grid plain_copy(const grid::Grid& g, const grid::Unit& u) {
  grid::Grid out(g.width(), g.height());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const double d = brute_clearance(g, u, x, y);
      if (blocked_square(g, u, x, y) || (u.radius > 0.5 && d < u.radius)) {
        out.set_blocked(x, y, true);
        continue;
      }
      const float t = u.class_cost(g.cell_class(x, y)) * g.terrain(x, y);
      if (t != 1.0f) out.set_terrain(x, y, t);
    }
  }
  return out;
}

}  // namespace pathlab::testing
