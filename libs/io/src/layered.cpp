// parse_layered (tiled.hpp): a layered map described in JSON, its floors in map files of any
// format beside it, stacked into one grid (Grid::layered) with the links between them.
#include <pathlab/io/tiled.hpp>

#include "json_doc.hpp"
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

namespace pathlab::io {

namespace {

using grid::Grid;
using nlohmann::json;

[[noreturn]] void fail_at(const detail::JsonDoc& doc, const json& where, const std::string& msg) {
  throw ParseError(doc.name(), std::max(1, doc.line_of(where, 1)), msg);
}

}  // namespace

Map parse_layered(std::string_view bytes, const std::string& name, const MapOptions& options) {
  const detail::JsonDoc doc(bytes, name);
  const json& root = doc.root();
  if (!root.is_object()) fail_at(doc, root, "a layered map must be a JSON object");
  const auto layers_it = root.find("layers");
  if (layers_it == root.end() || !layers_it->is_array() || layers_it->empty()) {
    fail_at(doc, root, "a layered map needs \"layers\": [{\"map\": \"FILE\"}, ...]");
  }
  const json& layers = *layers_it;
  if (layers.size() > 4096) fail_at(doc, layers, "too many layers (at most 4096)");

  std::optional<grid::Layout> layout;
  if (const auto it = root.find("layout"); it != root.end()) {
    if (!it->is_string()) fail_at(doc, root, "\"layout\" must be a string");
    layout = grid::parse_layout(it->get<std::string>());
    if (!layout) {
      fail_at(doc, root,
              "unknown layout " + detail::quote(it->get<std::string>()) +
                  " (expected square, pointy-odd-r, pointy-even-r, flat-odd-q or flat-even-q)");
    }
  }

  // Each floor from its own file.
  std::vector<Map> floors;
  MapOptions floor_options = options;
  floor_options.format = MapFormat::automatic;
  floor_options.layout.reset();
  const std::filesystem::path base = std::filesystem::path(name).parent_path();
  for (const json& layer : layers) {
    const auto m = layer.is_object() ? layer.find("map") : layer.end();
    if (!layer.is_object() || m == layer.end() || !m->is_string()) {
      fail_at(doc, layer.is_object() ? layer : layers, "a layer needs \"map\": \"FILE\"");
    }
    const std::string path = (base / m->get<std::string>()).lexically_normal().string();
    std::string data;
    try {
      if (!options.read_file) {
        throw ParseError(path, 0,
                         "a map parsed from memory reads no other file (load_map does, or give "
                         "MapOptions::read_file)");
      }
      data = options.read_file(path);
    } catch (const ParseError& e) {
      fail_at(doc, layer,
              "cannot read the floor " + detail::quote(m->get<std::string>()) + ": " + e.message());
    }
    if (data.empty()) fail_at(doc, layer, "the floor " + detail::quote(path) + " is empty");
    // A floor is one grid: never a layered map itself (which could name this very file).
    if (detect_format(data, path) == MapFormat::layered) {
      fail_at(doc, layer, "the floor " + detail::quote(path) + " is a layered map itself");
    }
    Map floor = parse_map(data, path, floor_options);
    if (floor.grid.layers() > 1) {
      fail_at(doc, layer, "the floor " + detail::quote(path) + " has floors of its own");
    }
    if (!floors.empty() && (floor.grid.width() != floors[0].grid.width() ||
                            floor.grid.height() != floors[0].grid.height())) {
      fail_at(doc, layer,
              "the floor " + detail::quote(path) + " is " + std::to_string(floor.grid.width()) +
                  "x" + std::to_string(floor.grid.height()) + ", the first floor " +
                  std::to_string(floors[0].grid.width()) + "x" +
                  std::to_string(floors[0].grid.height()) + " (floors must have one size)");
    }
    if (!layout && !floors.empty() && floor.grid.layout() != floors[0].grid.layout()) {
      fail_at(doc, layer,
              "the floor " + detail::quote(path) + " has layout " +
                  std::string(grid::to_string(floor.grid.layout())) + ", the first floor " +
                  std::string(grid::to_string(floors[0].grid.layout())));
    }
    floors.push_back(std::move(floor));
  }

  const int w = floors[0].grid.width();
  const int h = floors[0].grid.height();
  const int n = static_cast<int>(floors.size());
  if (n > 1) {
    const std::int64_t pitch = (h + 1) % 2 == 0 ? h + 1 : h + 2;
    if (std::int64_t{w} * (std::int64_t{n - 1} * pitch + h) > Grid::max_cells) {
      fail_at(doc, layers,
              std::to_string(n) + " floors of " + std::to_string(w) + "x" + std::to_string(h) +
                  " cells exceed the limit of 2^28 cells");
    }
  }
  Map map{Grid::layered(w, h, n), std::nullopt, std::nullopt, MapFormat::layered};
  Grid& g = map.grid;
  for (int f = 0; f < n; ++f) {
    const Map& src = floors[static_cast<std::size_t>(f)];
    const Grid& s = src.grid;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Cell c = g.at(f, x, y);
        const float cost = s.terrain(x, y);
        if (cost != 1.0f) g.set_terrain(c.x, c.y, cost);
        const char cls = s.cell_class(x, y);
        if (cls == grid::kWallClass) {
          g.set_blocked(c.x, c.y, true);
        } else if (cls != grid::kGroundClass) {
          g.set_class(c.x, c.y, cls);
        }
        if (s.has_edge_walls()) {
          for (int side = 0; side < 4; ++side) {
            const auto sd = static_cast<grid::Side>(side);
            if (s.edge_wall(x, y, sd)) g.set_edge_wall(c.x, c.y, sd, true);
          }
        }
      }
    }
    for (const grid::Link& l : s.links()) {
      (void)g.add_link({g.at(f, l.from.x, l.from.y), g.at(f, l.to.x, l.to.y), l.cost, l.oneway});
    }
    for (const auto& [marker, slot, label] :
         {std::tuple{src.start, &map.start, "start"}, std::tuple{src.goal, &map.goal, "goal"}}) {
      if (!marker) continue;
      if (*slot)
        fail_at(doc, layers[static_cast<std::size_t>(f)],
                std::string("second ") + label + " marker");
      *slot = g.at(f, marker->x, marker->y);
    }
  }

  const auto links_it = root.find("links");
  if (links_it != root.end()) {
    if (!links_it->is_array()) fail_at(doc, root, "\"links\" must be an array");
    for (const json& l : *links_it) {
      if (!l.is_object()) fail_at(doc, *links_it, "a link must be an object");
      Cell ends[2];
      for (int e = 0; e < 2; ++e) {
        const char* key = e == 0 ? "from" : "to";
        const auto it = l.find(key);
        if (it == l.end() || !it->is_array() || it->size() != 3 ||
            !std::all_of(it->begin(), it->end(),
                         [](const json& v) { return v.is_number_integer(); })) {
          fail_at(doc, l,
                  std::string("a link needs \"") + key + "\": [layer, x, y] (three whole numbers)");
        }
        const std::int64_t lay = (*it)[0].get<std::int64_t>();
        const std::int64_t x = (*it)[1].get<std::int64_t>();
        const std::int64_t y = (*it)[2].get<std::int64_t>();
        if (lay < 0 || lay >= n || x < 0 || x >= w || y < 0 || y >= h) {
          fail_at(doc, l,
                  std::string("link ") + key + " " + std::to_string(lay) + ":" + std::to_string(x) +
                      "," + std::to_string(y) + " is not a cell of the map (" + std::to_string(n) +
                      " layers of " + std::to_string(w) + "x" + std::to_string(h) + ")");
        }
        ends[e] = g.at(static_cast<int>(lay), static_cast<int>(x), static_cast<int>(y));
      }
      grid::Link link{ends[0], ends[1], 1.0f, false};
      if (const auto it = l.find("cost"); it != l.end()) {
        const double c = it->is_number() ? it->get<double>() : -1.0;
        if (!(c > 0) || !std::isfinite(static_cast<float>(c)) || !(static_cast<float>(c) > 0)) {
          fail_at(doc, l, "a link's \"cost\" must be a number > 0");
        }
        link.cost = static_cast<float>(c);
      }
      if (const auto it = l.find("oneway"); it != l.end()) {
        if (!it->is_boolean()) fail_at(doc, l, "a link's \"oneway\" must be true or false");
        link.oneway = it->get<bool>();
      }
      if (auto bad = g.add_link(link)) fail_at(doc, l, *bad);
    }
  }

  const grid::Layout want = layout.value_or(floors[0].grid.layout());
  if (want != g.layout()) {
    try {
      g.set_layout(want);
    } catch (const std::invalid_argument& e) {
      fail_at(doc, root,
              std::string("layout ") + std::string(grid::to_string(want)) + ": " + e.what());
    }
  }
  return map;
}

}  // namespace pathlab::io
