// A program that only searches: a grid built in code (no map reader), A* around a wall, the cost
// checked. It links pathlab::search alone, so it needs neither stb nor giflib.
#include <cmath>
#include <cstdio>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/pathfinder.hpp>

int main() {
  // 5x3, a wall on row 1 from x = 0 to 2: from (0,0) to (4,2) along row 0 to (3,0), then round
  // the wall's end with no corner cut, one diagonal and one straight move: cost 4 + sqrt(2).
  pathlab::grid::Grid g(5, 3);
  for (int x = 0; x < 3; ++x) g.set_blocked(x, 1, true);
  pathlab::search::Pathfinder finder(g);
  const pathlab::search::Result r = finder.find({0, 0}, {4, 2});
  const double expected = 4 + std::sqrt(2.0);
  std::printf("search: status %s, cost %.6f (expected %.6f), %zu cells\n",
              pathlab::to_string(r.status).data(), r.cost, expected, r.path.size());
  return r.status == pathlab::Status::found && std::abs(r.cost - expected) < 1e-9 ? 0 : 1;
}
