#include <pathlab/grid/moves.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>

#include <pathlab/grid/topology.hpp>

namespace pathlab::grid {

std::string_view to_string(DiagonalRule r) noexcept {
  switch (r) {
    case DiagonalRule::never:
      return "never";
    case DiagonalRule::no_corner_cut:
      return "no-corner-cut";
    case DiagonalRule::one_corner:
      return "one-corner";
    case DiagonalRule::always:
      return "always";
  }
  return "?";
}

std::string_view to_string(CostModel m) noexcept {
  return m == CostModel::integer ? "integer" : "octile";
}

std::optional<DiagonalRule> parse_diagonal_rule(std::string_view s) noexcept {
  for (auto r : {DiagonalRule::never, DiagonalRule::no_corner_cut, DiagonalRule::one_corner,
                 DiagonalRule::always}) {
    if (s == to_string(r)) return r;
  }
  return std::nullopt;
}

std::optional<CostModel> parse_cost_model(std::string_view s) noexcept {
  if (s == "octile") return CostModel::octile;
  if (s == "integer") return CostModel::integer;
  return std::nullopt;
}

namespace {

/// The grid move a -> b (no link): its direction code, or -1 when b is not a neighbour of a
/// in the layout or the move is illegal.
int grid_move(const Grid& g, const Moves& m, Cell a, Cell b) noexcept {
  if (!g.passable(a) || !g.passable(b)) return -1;
  const NodeId na = g.id(a), nb = g.id(b);
  int found = -1;
  auto look = [&](NodeId n, int d, double) {
    if (n == nb && d < directions(g.layout())) found = d;
  };
  dispatch_rule(m.diagonal, [&](auto rule) {
    for_each_move<decltype(rule)::value>(g, na, step_base(m), look);
  });
  return found;
}

/// The cheapest link a -> b usable by the grid's cells: its cost, or infinity.
double link_cost(const Grid& g, Cell a, Cell b) noexcept {
  double best = std::numeric_limits<double>::infinity();
  if (!g.in_bounds(a) || !g.in_bounds(b) || !g.passable(a) || !g.passable(b)) return best;
  const NodeId na = g.id(a), nb = g.id(b);
  if (!g.link_out_id(na)) return best;
  for (const Grid::Arc& arc : g.out_links(na)) {
    if (arc.to == nb) best = std::min(best, static_cast<double>(arc.cost));
  }
  return best;
}

}  // namespace

bool step_legal(const Grid& g, const Moves& m, Cell a, Cell b) noexcept {
  if (!g.plain()) {
    return grid_move(g, m, a, b) >= 0 || std::isfinite(link_cost(g, a, b));
  }
  if (!g.passable(a) || !g.passable(b)) return false;
  const int dx = b.x - a.x, dy = b.y - a.y;
  if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) return false;
  if (dx == 0 || dy == 0) return true;
  const bool side_x = g.passable(a.x + dx, a.y), side_y = g.passable(a.x, a.y + dy);
  switch (m.diagonal) {
    case DiagonalRule::never:
      return false;
    case DiagonalRule::no_corner_cut:
      return side_x && side_y;
    case DiagonalRule::one_corner:
      return side_x || side_y;
    case DiagonalRule::always:
      return true;
  }
  return false;
}

double step_cost(const Grid& g, const Moves& m, Cell a, Cell b) noexcept {
  if (!g.plain()) {
    // The cheaper of the grid move and a link joining the same two cells.
    double best = link_cost(g, a, b);
    const int d = grid_move(g, m, a, b);
    if (d >= 0) {
      const double base = (!is_hex(g.layout()) && d >= 4) ? m.diagonal_cost() : m.straight_cost();
      best = std::min(best, base * static_cast<double>(g.terrain(b.x, b.y)));
    }
    if (std::isfinite(best)) return best;
    // Not a legal move: what the plain rules would charge (callers check legality first).
  }
  const bool diagonal = a.x != b.x && a.y != b.y && !is_hex(g.layout());
  const double base = diagonal ? m.diagonal_cost() : m.straight_cost();
  return base * static_cast<double>(g.terrain(b.x, b.y));
}

std::optional<std::string> check_path(const Grid& g, const Moves& m, std::span<const Cell> path) {
  if (path.empty()) return "empty path";
  if (!g.passable(path[0])) return "the first cell is not passable";
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!step_legal(g, m, path[i - 1], path[i])) {
      return "illegal step " + std::to_string(i) + " from (" + std::to_string(path[i - 1].x) + "," +
             std::to_string(path[i - 1].y) + ") to (" + std::to_string(path[i].x) + "," +
             std::to_string(path[i].y) + ")";
    }
  }
  return std::nullopt;
}

double path_cost(const Grid& g, const Moves& m, std::span<const Cell> path) noexcept {
  double c = 0;
  if (g.plain()) {
    // The plain square map's steps, without step_cost's checks for the other kinds.
    const double straight = m.straight_cost(), diagonal = m.diagonal_cost();
    const bool terrain = g.has_terrain();
    for (std::size_t i = 1; i < path.size(); ++i) {
      const Cell a = path[i - 1], b = path[i];
      const double base = a.x != b.x && a.y != b.y ? diagonal : straight;
      c += terrain ? base * static_cast<double>(g.terrain(b.x, b.y)) : base;
    }
    return c;
  }
  for (std::size_t i = 1; i < path.size(); ++i) c += step_cost(g, m, path[i - 1], path[i]);
  return c;
}

}  // namespace pathlab::grid
