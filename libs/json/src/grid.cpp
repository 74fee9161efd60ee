// Cells, points, units and maps as JSON (see grid.hpp).
#include <pathlab/json/grid.hpp>

#include <pathlab/grid/hex.hpp>

namespace pathlab::json {
namespace {

/// Every cell's class character, row-major: '@' walls, '.' ground, 'S', 'T', 'W', ...
std::string classes_string(const grid::Grid& g) {
  std::string out;
  out.reserve(static_cast<std::size_t>(g.cells()));
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) out += g.cell_class(x, y);
  }
  return out;
}

}  // namespace

nlohmann::json cell(Cell c, const grid::Grid* g) {
  if (g != nullptr && g->layers() > 1) {
    return nlohmann::json::array({c.x, g->local_y(c.y), g->layer_of(c.y)});
  }
  return nlohmann::json::array({c.x, c.y});
}

nlohmann::json cells(std::span<const Cell> cs, const grid::Grid* g) {
  nlohmann::json out = nlohmann::json::array();
  for (const Cell c : cs) out.push_back(cell(c, g));
  return out;
}

nlohmann::json points(const std::vector<Point>& pts) {
  nlohmann::json out = nlohmann::json::array();
  for (const Point p : pts) out.push_back({p.x, p.y});
  return out;
}

nlohmann::json unit(const grid::Unit& u) {
  return {{"radius", u.radius}, {"class_cost", grid::class_costs_text(u)}};
}

nlohmann::json walls(const grid::Grid& g) {
  std::string walls(static_cast<std::size_t>(g.cells()), '0');
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      if (!g.passable(x, y)) {
        walls[static_cast<std::size_t>(y) * static_cast<std::size_t>(g.width()) +
              static_cast<std::size_t>(x)] = '1';
      }
    }
  }
  return {{"width", g.width()}, {"height", g.height()}, {"walls", walls}};
}

nlohmann::json edge_walls(const grid::Grid& g) {
  nlohmann::json out = nlohmann::json::array();
  if (!g.has_edge_walls()) return out;
  const auto add = [&](int x, int y, grid::Side s) {
    nlohmann::json e = cell({x, y}, &g);
    e.push_back(std::string(grid::to_string(s)));
    out.push_back(std::move(e));
  };
  if (grid::is_hex(g.layout())) {
    // Each edge once, named by direction code "0".."5": directions 0, 4 and 5 of every cell,
    // and 1, 2, 3 where the neighbour is no cell of the map (an edge to the outside).
    for (int y = 0; y < g.height(); ++y) {
      if (!g.map_cell(0, y)) continue;
      for (int x = 0; x < g.width(); ++x) {
        for (int d = 0; d < 6; ++d) {
          if (!g.hex_edge_wall(x, y, d)) continue;
          const Cell n = grid::hex::neighbour(g.layout(), x, y, d);
          if (d >= 1 && d <= 3 && g.map_cell(n.x, n.y)) continue;
          nlohmann::json e = cell({x, y}, &g);
          e.push_back(std::to_string(d));
          out.push_back(std::move(e));
        }
      }
    }
    return out;
  }
  // Each edge once: the east and south sides of every cell, plus the north side of a floor's
  // first row and the west side of the first column (edges to the outside).
  for (int y = 0; y < g.height(); ++y) {
    if (!g.map_cell(0, y)) continue;
    for (int x = 0; x < g.width(); ++x) {
      if (g.local_y(y) == 0 && g.edge_wall(x, y, grid::Side::north)) add(x, y, grid::Side::north);
      if (x == 0 && g.edge_wall(x, y, grid::Side::west)) add(x, y, grid::Side::west);
      if (g.edge_wall(x, y, grid::Side::east)) add(x, y, grid::Side::east);
      if (g.edge_wall(x, y, grid::Side::south)) add(x, y, grid::Side::south);
    }
  }
  return out;
}

nlohmann::json links(const grid::Grid& g) {
  nlohmann::json out = nlohmann::json::array();
  for (const grid::Link& l : g.links()) {
    out.push_back({{"from", cell(l.from, &g)},
                   {"to", cell(l.to, &g)},
                   {"cost", l.cost},
                   {"oneway", l.oneway}});
  }
  return out;
}

nlohmann::json loaded_map(const io::Map& m, const std::string& name) {
  const grid::Grid& g = m.grid;
  nlohmann::json j = walls(g);
  j["name"] = name;
  j["start"] = m.start ? cell(*m.start, &g) : nlohmann::json(nullptr);
  j["goal"] = m.goal ? cell(*m.goal, &g) : nlohmann::json(nullptr);
  if (g.has_terrain()) {
    nlohmann::json terrain = nlohmann::json::array();
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) terrain.push_back(g.terrain(x, y));
    }
    j["terrain"] = terrain;
  }
  if (g.has_classes()) j["classes"] = classes_string(g);
  j["layout"] = std::string(grid::to_string(g.layout()));
  if (g.layers() > 1) {
    j["layers"] = g.layers();
    j["layer_height"] = g.layer_height();
    j["layer_pitch"] = g.layer_pitch();
  }
  if (g.has_edge_walls()) j["edge_walls"] = edge_walls(g);
  if (!g.links().empty()) j["links"] = links(g);
  return j;
}

}  // namespace pathlab::json
