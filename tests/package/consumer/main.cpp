// Parses a small ASCII map with the installed pathlab, solves it with A* and checks the cost:
// proof that the installed headers, libraries and CMake package work together.
#include <cmath>
#include <cstdio>

#include <pathlab/io/map.hpp>
#include <pathlab/search/pathfinder.hpp>

int main() {
  // Around the wall's end: 4 straight moves and 1 diagonal (no corner cutting), cost 4 + sqrt(2).
  const pathlab::io::Map map = pathlab::io::parse_map("S....\n###..\n....G\n", "consumer.ascii");
  pathlab::search::Pathfinder finder(map.grid);
  const pathlab::search::Result r = finder.find(*map.start, *map.goal);
  const double expected = 4 + std::sqrt(2.0);
  std::printf("status %s, cost %.6f (expected %.6f)\n", pathlab::to_string(r.status).data(), r.cost,
              expected);
  return r.status == pathlab::Status::found && std::abs(r.cost - expected) < 1e-9 ? 0 : 1;
}
