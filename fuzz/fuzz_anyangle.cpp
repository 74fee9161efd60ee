// Fuzz target for anyangle-exact between points (Pathfinder::find_points, find_corners): a
// small grid and a diagonal rule from the input, then queries between points drawn from it —
// centres, corners, edges, points off the map or inside walls, and raw doubles (NaN, infinities,
// huge values). Invalid points must be refused exactly when search::point_cell refuses them;
// a found path must start and end at the snapped points, bend only at wall corners, cost its
// own length and never less than the straight line, and be as long as the way back.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <pathlab/search/pathfinder.hpp>

using namespace pathlab;

namespace {

bool check_found(const grid::Grid& g, const search::Result& r, Point s, Point t) {
  if (r.points.empty() || r.points.size() != r.path.size()) return false;
  // Held to 1/4096 of a cell: within half of that of what was asked.
  const double tol = 0.5 / 4096 + 1e-12;
  if (std::abs(r.points.front().x - s.x) > tol || std::abs(r.points.front().y - s.y) > tol) {
    return false;
  }
  if (std::abs(r.points.back().x - t.x) > tol || std::abs(r.points.back().y - t.y) > tol) {
    return false;
  }
  for (std::size_t i = 1; i + 1 < r.points.size(); ++i) {
    const Point p = r.points[i];
    if (p.x != std::floor(p.x) || p.y != std::floor(p.y)) return false;  // a lattice corner
  }
  for (const Cell c : r.path) {
    if (!g.in_bounds(c) || !g.passable(c)) return false;
  }
  const double len = search::polyline_length(r.points);
  if (std::abs(r.cost - len) > 1e-9 * std::max(1.0, len)) return false;
  const Point a = r.points.front(), b = r.points.back();
  return r.cost >= std::hypot(b.x - a.x, b.y - a.y) - 1e-9;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::size_t at = 0;
  auto next = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };
  const int w = 1 + next() % 12, h = 1 + next() % 12;
  const grid::DiagonalRule rules[] = {grid::DiagonalRule::never, grid::DiagonalRule::no_corner_cut,
                                      grid::DiagonalRule::one_corner, grid::DiagonalRule::always};
  search::Options o;
  o.algorithm = search::Algorithm::anyangle_exact;
  o.moves.diagonal = rules[next() % 4];
  grid::Grid g(w, h);
  const int density = next() % 8;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, next() % 8 < density);
  }
  search::Pathfinder finder(g, o);
  auto point = [&]() -> Point {
    switch (next() % 4) {
      case 0: {  // raw doubles
        double v[2];
        std::uint8_t bytes[16] = {};
        for (auto& b : bytes) b = next();
        std::memcpy(v, bytes, sizeof v);
        return {v[0], v[1]};
      }
      case 1:  // quarters of a cell, a little outside the map too
        return {(next() % 60) / 4.0 - 1.0, (next() % 60) / 4.0 - 1.0};
      default:  // anywhere in the map, to 1/256 of a cell
        return {(next() % (w * 16 + 1)) / 16.0 + (next() % 16) / 256.0,
                (next() % (h * 16 + 1)) / 16.0 + (next() % 16) / 256.0};
    }
  };
  search::Result r, back;
  while (at < size) {
    const Point s = point(), t = point();
    const Status st = finder.find_points(s, t, r);
    const bool valid = search::point_cell(g, s).has_value() && search::point_cell(g, t).has_value();
    if ((st == Status::invalid_input) == valid) __builtin_trap();
    if (st == Status::found) {
      if (!check_found(g, r, s, t)) __builtin_trap();
      if (finder.find_points(t, s, back) != Status::found) __builtin_trap();
      if (std::abs(back.cost - r.cost) > 1e-9 * std::max(1.0, r.cost)) __builtin_trap();
    }
    // The competition's corners of two cells: free cells only; symmetric too.
    const Cell a{next() % (w + 1), next() % (h + 1)}, b{next() % (w + 1), next() % (h + 1)};
    const Status sc = finder.find_corners(a, b, r);
    const bool free = g.in_bounds(a) && g.passable(a) && g.in_bounds(b) && g.passable(b);
    if ((sc == Status::invalid_input) == free) __builtin_trap();
    if (sc == Status::found) {
      const Point pa{double(a.x), double(a.y)}, pb{double(b.x), double(b.y)};
      if (!check_found(g, r, pa, pb) || r.path.front() != a || r.path.back() != b) __builtin_trap();
      if (finder.find_corners(b, a, back) != Status::found) __builtin_trap();
      if (std::abs(back.cost - r.cost) > 1e-9 * std::max(1.0, r.cost)) __builtin_trap();
    }
  }
  return 0;
}
