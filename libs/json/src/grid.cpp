// Cells, points, units and maps as JSON (see grid.hpp).
#include <pathlab/json/grid.hpp>

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
  const bool hex = grid::is_hex(g.layout());
  for (const grid::EdgeWallAt& w : grid::edge_walls(g)) {
    nlohmann::json e = cell(w.cell, &g);
    e.push_back(hex ? std::to_string(w.side)
                    : std::string(grid::to_string(static_cast<grid::Side>(w.side))));
    out.push_back(std::move(e));
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
  if (g.has_edge_walls()) j["edge_walls"] = json::edge_walls(g);
  if (!g.links().empty()) j["links"] = links(g);
  return j;
}

}  // namespace pathlab::json
