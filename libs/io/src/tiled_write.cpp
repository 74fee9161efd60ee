// write_tmj (tiled.hpp): any map as a Tiled JSON map that parse_tmj reads back to the same grid.
// One tileset holds a tile per kind of cell found (class, terrain cost, thin walls on its four
// sides), one tile layer per floor, one object layer per floor for links and markers.
#include <pathlab/io/tiled.hpp>

#include <pathlab/core/portable.hpp>
#include <pathlab/grid/hex.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace pathlab::io {

namespace {

using grid::Grid;

// A float as JSON: whole numbers as integers, others with every digit a double needs (so the
// float read back through a double is the same float).
std::string number(double v) {
  if (std::floor(v) == v && std::abs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  char buf[64];
  const auto r = core::to_chars(buf, buf + sizeof buf, v);  // libc++ 14 has no double to_chars
  return r.ec == std::errc{} ? std::string(buf, r.ptr) : std::string("0");
}

std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump();
}

std::string class_name(char c) {
  switch (c) {
    case grid::kWallClass:
      return "wall";
    case grid::kGroundClass:
      return "ground";
    case 'W':
      return "water";
    case 'S':
      return "swamp";
    case 'T':
      return "trees";
    default:
      return std::string(1, c);
  }
}

std::string prop(const char* name, const char* type, const std::string& value) {
  return std::string("{\"name\":\"") + name + "\",\"type\":\"" + type + "\",\"value\":" + value +
         "}";
}

struct Geometry {
  int tw = 32, th = 32, side = 0;
  grid::Layout layout = grid::Layout::square;
  // The pixel centre of cell (x, y) of a floor, as Tiled draws it.
  [[nodiscard]] std::pair<double, double> centre(int x, int y) const {
    if (!grid::is_hex(layout)) return {(x + 0.5) * tw, (y + 0.5) * th};
    if (grid::hex::pointy(layout)) {
      const bool shifted = ((y & 1) != 0) == (layout == grid::Layout::pointy_odd_r);
      return {x * double(tw) + tw / 2.0 + (shifted ? tw / 2.0 : 0.0),
              y * (th + side) / 2.0 + th / 2.0};
    }
    const bool shifted = ((x & 1) != 0) == (layout == grid::Layout::flat_odd_q);
    return {x * (tw + side) / 2.0 + tw / 2.0,
            y * double(th) + th / 2.0 + (shifted ? th / 2.0 : 0.0)};
  }
};

}  // namespace

std::string write_tmj(const Map& map) {
  const Grid& g = map.grid;
  const int floors = g.layers();
  const int w = g.width();
  const int h = floors > 1 ? g.layer_height() : g.height();
  Geometry geo;
  geo.layout = g.layout();
  if (grid::is_hex(geo.layout)) {
    // Regular-looking hexes with whole-pixel centres.
    const bool pointy = grid::hex::pointy(geo.layout);
    geo.tw = pointy ? 28 : 32;
    geo.th = pointy ? 32 : 28;
    geo.side = 16;
  }

  // The kinds of cell, in order of first appearance.
  using Key = std::tuple<char, float, int>;
  std::map<Key, int> ids;
  std::vector<Key> kinds;
  std::vector<std::string> layers_data(static_cast<std::size_t>(floors));
  for (int f = 0; f < floors; ++f) {
    std::string& out = layers_data[static_cast<std::size_t>(f)];
    out.reserve(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 2 + 2);
    out += '[';
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Cell c = g.at(f, x, y);
        int walls = 0;
        if (g.has_edge_walls()) {
          for (int s = 0; s < 4; ++s) {
            if (g.edge_wall(c.x, c.y, static_cast<grid::Side>(s))) walls |= 1 << s;
          }
        }
        const Key key{g.cell_class(c.x, c.y), g.terrain(c.x, c.y), walls};
        auto [it, fresh] = ids.try_emplace(key, static_cast<int>(kinds.size()));
        if (fresh) kinds.push_back(key);
        if (x + y > 0) out += ',';
        out += std::to_string(it->second + 1);
      }
    }
    out += ']';
  }

  std::string tiles;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto& [cls, cost, walls] = kinds[i];
    std::vector<std::string> props;
    if (cls != grid::kGroundClass)
      props.push_back(prop("class", "string", quoted(class_name(cls))));
    if (cost != 1.0f) props.push_back(prop("cost", "float", number(cost)));
    static constexpr const char* kWallNames[4] = {"wall_n", "wall_e", "wall_s", "wall_w"};
    for (int s = 0; s < 4; ++s) {
      if ((walls >> s) & 1) props.push_back(prop(kWallNames[s], "bool", "true"));
    }
    if (props.empty()) continue;
    if (!tiles.empty()) tiles += ",\n    ";
    tiles += "{\"id\":" + std::to_string(i) + ",\"properties\":[";
    for (std::size_t p = 0; p < props.size(); ++p) tiles += (p ? "," : "") + props[p];
    tiles += "]}";
  }

  // Objects per floor: markers and links.
  int next_object = 1;
  std::vector<std::vector<std::string>> objects(static_cast<std::size_t>(floors));
  const auto point = [&](const Cell& c, const std::string& name, const std::string& props) {
    if (!g.map_cell(c.x, c.y)) return;
    const int f = g.layer_of(c.y);
    const auto [px, py] = geo.centre(c.x, g.local_y(c.y));
    std::string o = "{\"height\":0,\"id\":" + std::to_string(next_object++) +
                    ",\"name\":" + quoted(name) + ",\"point\":true,";
    if (!props.empty()) o += "\"properties\":[" + props + "],";
    o += "\"rotation\":0,\"type\":\"\",\"visible\":true,\"width\":0,\"x\":" + number(px) +
         ",\"y\":" + number(py) + "}";
    objects[static_cast<std::size_t>(f)].push_back(std::move(o));
  };
  if (map.start) point(*map.start, "start", "");
  if (map.goal) point(*map.goal, "goal", "");
  for (const grid::Link& l : g.links()) {
    if (!g.map_cell(l.to.x, l.to.y)) continue;
    const std::string props = prop("cost", "float", number(l.cost)) + "," +
                              prop("oneway", "bool", l.oneway ? "true" : "false") + "," +
                              prop("to_layer", "int", std::to_string(g.layer_of(l.to.y))) + "," +
                              prop("to_x", "int", std::to_string(l.to.x)) + "," +
                              prop("to_y", "int", std::to_string(g.local_y(l.to.y)));
    point(l.from, "link", props);
  }

  std::string out = "{\"compressionlevel\":-1,\n \"height\":" + std::to_string(h) + ",\n";
  if (grid::is_hex(geo.layout)) out += " \"hexsidelength\":" + std::to_string(geo.side) + ",\n";
  out += " \"infinite\":false,\n \"layers\":[\n";
  int next_layer = 1;
  for (int f = 0; f < floors; ++f) {
    const std::string floor_prop =
        floors > 1 ? ",\"properties\":[" + prop("floor", "int", std::to_string(f)) + "]" : "";
    if (f > 0) out += ",\n";
    out += "  {\"data\":" + layers_data[static_cast<std::size_t>(f)] +
           ",\n   \"height\":" + std::to_string(h) + ",\"id\":" + std::to_string(next_layer++) +
           ",\"name\":" + quoted(floors > 1 ? "floor " + std::to_string(f) : "cells") +
           ",\"opacity\":1" + floor_prop +
           ",\"type\":\"tilelayer\",\"visible\":true,\"width\":" + std::to_string(w) +
           ",\"x\":0,\"y\":0}";
    const auto& objs = objects[static_cast<std::size_t>(f)];
    if (objs.empty()) continue;
    out += ",\n  {\"draworder\":\"topdown\",\"id\":" + std::to_string(next_layer++) +
           ",\"name\":" + quoted(floors > 1 ? "objects " + std::to_string(f) : "objects") +
           ",\"objects\":[\n    ";
    for (std::size_t i = 0; i < objs.size(); ++i) out += (i ? ",\n    " : "") + objs[i];
    out += "],\"opacity\":1" + floor_prop +
           ",\"type\":\"objectgroup\",\"visible\":true,\"x\":0,\"y\":0}";
  }
  out += "],\n \"nextlayerid\":" + std::to_string(next_layer) +
         ",\n \"nextobjectid\":" + std::to_string(next_object) +
         ",\n \"orientation\":" + (grid::is_hex(geo.layout) ? "\"hexagonal\"" : "\"orthogonal\"") +
         ",\n \"renderorder\":\"right-down\",\n";
  if (grid::is_hex(geo.layout)) {
    const bool pointy = grid::hex::pointy(geo.layout);
    const bool odd =
        geo.layout == grid::Layout::pointy_odd_r || geo.layout == grid::Layout::flat_odd_q;
    out += std::string(" \"staggeraxis\":\"") + (pointy ? "y" : "x") + "\",\n \"staggerindex\":\"" +
           (odd ? "odd" : "even") + "\",\n";
  }
  out += " \"tiledversion\":\"1.8.2\",\n \"tileheight\":" + std::to_string(geo.th) +
         ",\n \"tilesets\":[\n  {\"columns\":0,\"firstgid\":1,\"grid\":{\"height\":1,"
         "\"orientation\":\"orthogonal\",\"width\":1},\"margin\":0,\"name\":\"pathlab\","
         "\"spacing\":0,\"tilecount\":" +
         std::to_string(kinds.size()) + ",\"tileheight\":" + std::to_string(geo.th) +
         ",\n   \"tiles\":[\n    " + tiles + "],\n   \"tilewidth\":" + std::to_string(geo.tw) +
         "}],\n \"tilewidth\":" + std::to_string(geo.tw) +
         ",\n \"type\":\"map\",\n \"version\":\"1.8\",\n \"width\":" + std::to_string(w) + "\n}\n";
  return out;
}

}  // namespace pathlab::io
