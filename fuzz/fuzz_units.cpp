// Fuzz target for units and map edits: the --class-cost parser, then a small grid with classes
// driven by the input, a unit, a sequence of edits (many outside the map or malformed) and
// searches after each. Bad edits must be refused with a message and change nothing; the unit's
// view must equal one built fresh; every path found must be legal on the view.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <pathlab/grid/moves.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/search/pathfinder.hpp>

using namespace pathlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  // Line 1: class costs, as --class-cost reads them.
  const std::size_t nl = in.find('\n');
  grid::Unit unit;
  const std::string_view costs = in.substr(0, nl);
  const grid::Unit before = unit;
  if (grid::parse_class_costs(costs, unit).has_value() && !(unit == before)) __builtin_trap();
  if (grid::validate(unit)) __builtin_trap();  // whatever parses is a valid unit
  // The same line as an --edit: a parsed edit has its corners in order.
  grid::Edit parsed;
  if (!grid::parse_edit(costs, parsed) &&
      (parsed.area.x0 > parsed.area.x1 || parsed.area.y0 > parsed.area.y1)) {
    __builtin_trap();
  }
  // And with a layered hex map to name floors of (KIND:L:X,Y): what parses is applied, or
  // refused with a message and no change.
  {
    grid::Grid tower = grid::Grid::layered(5, 4, 3);
    tower.set_layout(grid::Layout::pointy_odd_r);
    if (!grid::parse_edit(costs, parsed, &tower)) {
      if (parsed.area.x0 > parsed.area.x1 || parsed.area.y0 > parsed.area.y1) __builtin_trap();
      const grid::Grid old = tower;
      const auto bad = tower.apply(parsed);
      if (bad && (bad->empty() || !(tower == old))) __builtin_trap();
    }
  }
  if (nl == std::string_view::npos) return 0;
  std::string_view rest = in.substr(nl + 1);
  auto next = [&rest]() -> std::uint8_t {
    if (rest.empty()) return 0;
    const auto b = static_cast<std::uint8_t>(rest.front());
    rest.remove_prefix(1);
    return b;
  };
  unit.radius = (next() % 40) * 0.1;  // 0 .. 3.9
  const int w = 1 + next() % 24, h = 1 + next() % 24;
  grid::Grid g(w, h);
  const char classes[] = {'.', '@', 'S', 'T', 'W', 'F', 'G', 'O'};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) g.set_class(x, y, classes[next() % 8]);
  }
  search::Options o;
  o.unit = unit;
  const search::Algorithm algos[] = {search::Algorithm::astar, search::Algorithm::jps,
                                     search::Algorithm::jps_plus, search::Algorithm::subgoal};
  search::Pathfinder finder(g, o);
  while (!rest.empty()) {
    grid::Edit e;
    e.kind = static_cast<grid::Edit::Kind>(next() % 4);
    e.area = {static_cast<std::int8_t>(next()) % 30, static_cast<std::int8_t>(next()) % 30,
              static_cast<std::int8_t>(next()) % 30, static_cast<std::int8_t>(next()) % 30};
    e.cls = static_cast<char>(next());
    e.cost = static_cast<float>(next()) / 16.0f;
    const grid::Grid old = g;
    const auto bad = g.apply(e);
    if (bad.has_value() != g.check(e).has_value()) __builtin_trap();
    if (bad && (bad->empty() || !(g == old))) __builtin_trap();
    const auto view = g.view(unit);
    if (!g.sees_alike(unit)) {
      grid::Grid fresh = g;  // a copy has an empty cache: its view is built from nothing
      if (!(*fresh.view(unit) == *view)) __builtin_trap();
    }
    o.algorithm = algos[next() % 4];
    finder.set_options(o);
    const Cell s{next() % w, next() % h}, t{next() % w, next() % h};
    const search::Result r = finder.find(s, t);
    if (r.status == Status::invalid_input && view->passable(s) && view->passable(t)) {
      __builtin_trap();
    }
    if (r.status == Status::found && grid::check_path(*view, o.moves, r.path)) __builtin_trap();
  }
  return 0;
}
