// Option parsing and map loading shared by the subcommands.
#include "common.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>

#include <fmt/core.h>
#include <fstream>

#include <pathlab/core/error.hpp>
#include <pathlab/core/portable.hpp>

namespace pathlab::cli {

void MapArgs::add_to(CLI::App& app, bool with_radius) {
  app.add_option("--format", format,
                 "input map format: auto, text, ascii, movingai, image, tmx, tmj, layered")
      ->capture_default_str();
  app.add_option("--threshold", threshold, "images: luminance below this (0-255) is a wall")
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  app.add_option("--cell", cell, "images: N x N pixels per cell (blocked if any pixel is)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--layout", layout,
                 "read the map's cells as square or hex cells: square, pointy-odd-r, "
                 "pointy-even-r, flat-odd-q, flat-even-q (default: as the file says)");
  if (with_radius) {
    app.add_option("--radius", radius,
                   "agent radius in cells: block cells whose centre is closer than R to a wall")
        ->check(CLI::Range(0.0, 1000.0));
  }
}

io::MapOptions MapArgs::options() const {
  io::MapOptions o;
  auto f = io::parse_map_format(format);
  if (!f)
    throw CliError{"unknown map format '" + format +
                   "' (auto, text, ascii, movingai, image, tmx, tmj, layered)"};
  o.format = *f;
  o.threshold = threshold;
  o.cell = cell;
  if (!layout.empty()) {
    o.layout = grid::parse_layout(layout);
    if (!o.layout) {
      throw CliError{"unknown layout '" + layout +
                     "' (square, pointy-odd-r, pointy-even-r, flat-odd-q, flat-even-q)"};
    }
  }
  return o;
}

io::Map load_map(const std::string& path, const MapArgs& args) {
  const io::MapOptions options = args.options();
  try {
    io::Map m = io::load_map(path, options);
    if (args.radius > 0.5) m.grid = m.grid.with_clearance(args.radius);
    return m;
  } catch (const ParseError& e) {
    throw CliError{e.what()};
  }
}

Cell parse_cell(const std::string& text, const std::string& what, const grid::Grid* g) {
  // L:X,Y on a layered map: cell (X, Y) of floor L.
  if (const auto colon = text.find(':'); colon != std::string::npos && g != nullptr) {
    int layer = -1;
    const std::string_view l(text.data(), colon);
    auto [p, ec] = std::from_chars(l.data(), l.data() + l.size(), layer);
    if (ec != std::errc() || p != l.data() + l.size() || l.empty()) {
      throw CliError{what + " expects L:X,Y (a floor, then two integers), got '" + text + "'"};
    }
    if (layer < 0 || layer >= g->layers()) {
      throw CliError{what + " " + text + ": floor " + std::to_string(layer) +
                     " is not one of the map's " + std::to_string(g->layers()) + " (0 to " +
                     std::to_string(g->layers() - 1) + ")"};
    }
    const Cell c = parse_cell(text.substr(colon + 1), what, nullptr);
    if (c.y < 0 || c.y >= g->layer_height()) {
      throw CliError{what + " " + text + ": row " + std::to_string(c.y) + " is outside floor " +
                     std::to_string(layer) + " (" + std::to_string(g->layer_height()) + " rows)"};
    }
    return g->at(layer, c.x, c.y);
  }
  const auto comma = text.find(',');
  auto number = [&](std::string_view s, int& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
  };
  Cell c;
  if (comma == std::string::npos || !number(std::string_view(text).substr(0, comma), c.x) ||
      !number(std::string_view(text).substr(comma + 1), c.y)) {
    throw CliError{what + " expects X,Y (two integers)" +
                   (g != nullptr && g->layers() > 1 ? std::string(" or L:X,Y") : "") + ", got '" +
                   text + "'"};
  }
  // On a layered map X,Y is a cell of floor 0.
  if (g != nullptr && g->layers() > 1 && c.y >= g->layer_height()) {
    throw CliError{what + " " + text + ": row " + std::to_string(c.y) + " is outside floor 0 (" +
                   std::to_string(g->layer_height()) + " rows); give L:X,Y for another floor"};
  }
  return c;
}

bool is_point_text(const std::string& text) {
  return text.find('.') != std::string::npos && text.find(':') == std::string::npos;
}

Point parse_point(const std::string& text, const std::string& what) {
  const auto comma = text.find(',');
  auto number = [](std::string_view s, double& out) {
    auto [p, ec] = core::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty() && std::isfinite(out);
  };
  Point p;
  if (comma == std::string::npos || !number(std::string_view(text).substr(0, comma), p.x) ||
      !number(std::string_view(text).substr(comma + 1), p.y)) {
    throw CliError{what + " expects X,Y (two numbers, a point in map units), got '" + text + "'"};
  }
  return p;
}

void SearchArgs::add_to(CLI::App& app, bool with_moves) {
  app.add_option("--heuristic", heuristic,
                 "manhattan, octile, euclidean, chebyshev or zero (default: octile, or "
                 "manhattan with --diagonal never)");
  app.add_option("--weight", weight, "f = g + W*h (default 1; 2 for wastar; 0 = Dijkstra)");
  if (with_moves) {
    app.add_option("--diagonal", diagonal, "never, no-corner-cut, one-corner or always")
        ->capture_default_str();
    app.add_option("--cost-model", cost_model, "octile (1, sqrt 2) or integer (10, 14)")
        ->capture_default_str();
  }
  app.add_option("--node-limit", node_limit, "expansions allowed per query (>= 1)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62, "a count >= 1"))
      ->capture_default_str();
}

void SearchArgs::add_unit_options(CLI::App& app) {
  app.add_option("--class-cost", class_cost,
                 "the unit's cost per terrain class, C=V[,C=V...]: C a class ('.' ground, S, T, "
                 "W, ...), V a multiplier >= 1 or x (forbidden); unnamed classes keep T=x,W=x, "
                 "others 1");
  app.add_option("--radius", radius,
                 "the unit's radius in cells (0-16): it uses cells whose centre is at least R "
                 "from any square it cannot enter");
  app.add_option("--edit", edits,
                 "change the map first, through the edit API: KIND:X,Y[:X2,Y2] with KIND wall, "
                 "free, class=C, terrain=V, or wall-S / open-S to put up or take down a wall on "
                 "side S (n, e, s, w; on hex maps the direction 0-5) of the cells; on a layered "
                 "map KIND:L:X,Y[:X2,Y2] names floor L's cells (repeat for several, applied in "
                 "order)");
}

void SearchArgs::apply_edits(grid::Grid& g) const {
  for (const std::string& text : edits) {
    grid::Edit e;
    if (auto bad = grid::parse_edit(text, e, &g)) throw CliError{"--edit " + text + ": " + *bad};
    if (auto bad = g.apply(e)) throw CliError{"--edit " + text + ": " + *bad};
  }
}

search::Options SearchArgs::options() const {
  search::Options o;
  if (class_cost) {
    if (auto bad = grid::parse_class_costs(*class_cost, o.unit)) {
      throw CliError{"--class-cost '" + *class_cost + "': " + *bad};
    }
  }
  if (!(radius >= 0) || radius > grid::Unit::max_radius) {
    throw CliError{fmt::format("--radius {}: the radius must be a number from 0 to {}", radius,
                               grid::Unit::max_radius)};
  }
  o.unit.radius = radius;
  if (!heuristic.empty()) {
    o.heuristic = search::parse_heuristic(heuristic);
    if (!o.heuristic) {
      throw CliError{"unknown heuristic '" + heuristic +
                     "' (manhattan, octile, euclidean, chebyshev, zero)"};
    }
  }
  auto rule = grid::parse_diagonal_rule(diagonal);
  if (!rule) {
    throw CliError{"unknown diagonal rule '" + diagonal +
                   "' (never, no-corner-cut, one-corner, always)"};
  }
  auto model = grid::parse_cost_model(cost_model);
  if (!model) throw CliError{"unknown cost model '" + cost_model + "' (octile, integer)"};
  o.moves = {*rule, *model};
  o.weight = weight;
  o.node_limit = node_limit;
  if (auto problem = search::validate(o)) throw CliError{*problem};
  return o;
}

std::vector<search::Algorithm> parse_algorithms(const std::string& list) {
  std::vector<search::Algorithm> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    const std::size_t end = std::min(list.find(',', pos), list.size());
    const std::string name = list.substr(pos, end - pos);
    auto a = search::parse_algorithm(name);
    if (!a) {
      std::string known;
      for (const auto& i : search::algorithms()) known.append(" ").append(i.name);
      throw CliError{"unknown algorithm '" + name + "' (known:" + known + ")"};
    }
    out.push_back(*a);
    pos = end + 1;
  }
  return out;
}

std::string map_shape(const grid::Grid& g) {
  std::string out = g.layers() > 1
                        ? fmt::format("{}x{}, {} floors", g.width(), g.layer_height(), g.layers())
                        : fmt::format("{}x{}", g.width(), g.height());
  if (grid::is_hex(g.layout())) out += fmt::format(", hex {}", grid::to_string(g.layout()));
  return out;
}

std::string cell_text(const grid::Grid& g, Cell c) {
  if (g.layers() > 1 && g.in_bounds(c)) {
    return fmt::format("{}:{},{}", g.layer_of(c.y), c.x, g.local_y(c.y));
  }
  return fmt::format("{},{}", c.x, c.y);
}

void check_endpoint(const grid::Grid& g, const search::Options& o, Cell c, const char* option,
                    const std::string& map) {
  switch (grid::footing(g, o.unit, c)) {
    case grid::Footing::ok:
      return;
    case grid::Footing::outside:
      throw CliError{fmt::format("{} {} is outside the {} map {}", option, cell_text(g, c),
                                 map_shape(g), map)};
    case grid::Footing::wall:
      throw CliError{fmt::format("{} {} is on a wall in {}", option, cell_text(g, c), map)};
    case grid::Footing::forbidden_class: {
      const char cls = g.cell_class(c.x, c.y);
      throw CliError{fmt::format(
          "{} {} is on '{}', a class the unit may not enter{}, in {}", option, cell_text(g, c), cls,
          grid::Unit{}.forbids(cls) ? " (give it a cost with --class-cost)" : "", map)};
    }
    case grid::Footing::too_close:
      throw CliError{
          fmt::format("{} {} is closer than --radius {} to a square the unit cannot "
                      "enter in {}",
                      option, cell_text(g, c), o.unit.radius, map)};
  }
}

bool stdout_is_terminal() {
  return isatty(STDOUT_FILENO) == 1;
}
bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) == 1;
}

void write_json_file(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  if (!out) throw CliError{path + ": cannot write file"};
  out << j.dump() << '\n';
  if (!out) throw CliError{path + ": write failed"};
}

}  // namespace pathlab::cli
