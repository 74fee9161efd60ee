#include <pathlab/grid/grid.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include <pathlab/grid/topology.hpp>
#include <pathlab/grid/unit.hpp>

#include "unit_cache.hpp"

namespace pathlab::grid {
namespace {

/// Whether the default unit is blocked by a cell of this class.
bool default_blocked(char cls) noexcept {
  return cls == kWallClass || Unit{}.forbids(cls);
}

bool bit(const std::vector<std::uint64_t>& v, NodeId n) noexcept {
  return !v.empty() && ((v[n >> 6] >> (n & 63)) & 1u) != 0;
}

/// Whether two bit vectors hold the same set bits (an empty vector holds none).
bool same_bits(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) noexcept {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return false;
  }
  return true;
}

std::string cell_text(int x, int y) {
  return std::to_string(x) + "," + std::to_string(y);
}

}  // namespace

std::string_view to_string(Layout l) noexcept {
  switch (l) {
    case Layout::square:
      return "square";
    case Layout::pointy_odd_r:
      return "pointy-odd-r";
    case Layout::pointy_even_r:
      return "pointy-even-r";
    case Layout::flat_odd_q:
      return "flat-odd-q";
    case Layout::flat_even_q:
      return "flat-even-q";
  }
  return "?";
}

std::optional<Layout> parse_layout(std::string_view s) noexcept {
  for (auto l : {Layout::square, Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                 Layout::flat_even_q}) {
    if (s == to_string(l)) return l;
  }
  return std::nullopt;
}

std::string_view to_string(Side s) noexcept {
  switch (s) {
    case Side::north:
      return "n";
    case Side::east:
      return "e";
    case Side::south:
      return "s";
    case Side::west:
      return "w";
  }
  return "?";
}

std::optional<int> parse_edge_side(std::string_view s, bool hex) noexcept {
  if (hex) {
    if (s.size() == 1 && s[0] >= '0' && s[0] <= '5') return s[0] - '0';
    return std::nullopt;
  }
  if (s == "n" || s == "north") return static_cast<int>(Side::north);
  if (s == "e" || s == "east") return static_cast<int>(Side::east);
  if (s == "s" || s == "south") return static_cast<int>(Side::south);
  if (s == "w" || s == "west") return static_cast<int>(Side::west);
  return std::nullopt;
}

Grid Grid::layered(int width, int height, int layers) {
  if (layers < 1) throw std::length_error("a layered map needs at least one layer");
  if (layers == 1) return Grid(width, height);
  if (width < 0 || height < 1) {
    throw std::length_error("layers of " + std::to_string(width) + "x" + std::to_string(height) +
                            " cells are empty");
  }
  // One row of wall between floors, or two when one would flip the parity of the rows below
  // (hex rows shift by their parity).
  const int pitch = (height + 1) % 2 == 0 ? height + 1 : height + 2;
  const std::int64_t rows = std::int64_t{layers - 1} * pitch + height;
  if (rows > max_cells || std::int64_t{width} * rows > max_cells) {
    throw std::length_error(std::to_string(layers) + " layers of " + std::to_string(width) + "x" +
                            std::to_string(height) + " cells exceed the limit of 2^28 cells");
  }
  Grid g(width, static_cast<int>(rows));
  g.layers_ = layers;
  g.layer_height_ = height;
  g.layer_pitch_ = pitch;
  for (int y = 0; y < g.height_; ++y) {
    if (!g.between_layers(y)) continue;
    for (int x = 0; x < width; ++x) g.set_class_bits(g.id(x, y), kWallClass);
  }
  return g;
}

Grid::Grid(int width, int height) {
  if (width < 0 || height < 0 || std::int64_t{width} * height > max_cells) {
    throw std::length_error("grid of " + std::to_string(width) + "x" + std::to_string(height) +
                            " cells exceeds the limit of 2^28 cells");
  }
  width_ = width;
  height_ = height;
  layer_height_ = height;
  layer_pitch_ = height + 1;
  stride_ = width + 2;
  const std::size_t n = padded_size();
  // All bits set (blocked), then clear the interior: the border stays blocked.
  walls_.assign((n + 63) / 64 + 1, ~std::uint64_t{0});
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const NodeId i = id(x, y);
      walls_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    }
  }
}

void Grid::set_class_bits(NodeId i, char cls) {
  const std::uint64_t bit = std::uint64_t{1} << (i & 63);
  if (default_blocked(cls)) {
    walls_[i >> 6] |= bit;
  } else {
    walls_[i >> 6] &= ~bit;
  }
  if (!classes_.empty()) classes_[i] = static_cast<std::uint8_t>(cls);
}

void Grid::record(Rect area, std::uint64_t before) {
  auto& log = log_.entries;
  if (log.size() >= 2 * kChangeLogSize) {
    log.erase(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(kChangeLogSize));
  }
  log.push_back(Change{before, revision_.value(), area});
  cache_.get().repair(*this, area);
}

void Grid::set_blocked(int x, int y, bool blocked) {
  if (!map_cell(x, y)) throw std::out_of_range("set_blocked outside the grid");
  const NodeId i = id(x, y);
  if (!blocked && passable_id(i)) return;  // free cells keep their class
  if (blocked && class_id(i) == kWallClass) return;
  const std::uint64_t before = revision_.value();
  revision_.renew();
  set_class_bits(i, blocked ? kWallClass : kGroundClass);
  record({x, y, x, y}, before);
}

void Grid::set_class(int x, int y, char cls) {
  if (!valid_class(canonical_class(cls))) throw std::invalid_argument("not a class character");
  if (!map_cell(x, y)) throw std::out_of_range("set_class outside the grid");
  Edit e;
  e.kind = Edit::Kind::set_class;
  e.area = {x, y, x, y};
  e.cls = cls;
  (void)apply(e);  // checked above: it cannot be refused
}

void Grid::set_terrain(int x, int y, float cost) {
  if (!map_cell(x, y)) throw std::out_of_range("set_terrain outside the grid");
  if (!(cost >= 1.0f) || !std::isfinite(cost)) {
    throw std::invalid_argument("terrain cost must be a finite number >= 1");
  }
  if (terrain(x, y) == cost) return;
  const std::uint64_t before = revision_.value();
  revision_.renew();
  if (terrain_.empty()) terrain_.assign(padded_size(), 1.0f);
  terrain_[id(x, y)] = cost;
  record({x, y, x, y}, before);
}

std::optional<std::string> Grid::check(const Edit& e) const {
  const Rect& a = e.area;
  if (a.x0 > a.x1 || a.y0 > a.y1) {
    return "empty rectangle " + std::to_string(a.x0) + "," + std::to_string(a.y0) + ":" +
           std::to_string(a.x1) + "," + std::to_string(a.y1) + " (corners out of order)";
  }
  if (!in_bounds(a.x0, a.y0) || !in_bounds(a.x1, a.y1)) {
    const bool one = a.x0 == a.x1 && a.y0 == a.y1;
    return (one ? "cell " + std::to_string(a.x0) + "," + std::to_string(a.y0)
                : "rectangle " + std::to_string(a.x0) + "," + std::to_string(a.y0) + ":" +
                      std::to_string(a.x1) + "," + std::to_string(a.y1)) +
           " is outside the " + std::to_string(width_) + "x" + std::to_string(height_) + " map";
  }
  if (layers_ > 1) {
    for (int y = a.y0; y <= a.y1; ++y) {
      if (between_layers(y)) {
        return "row " + std::to_string(y) + " lies between two layers (layer " +
               std::to_string(layer_of(y)) + " has " + std::to_string(layer_height_) +
               " rows): edit each layer's own cells";
      }
    }
  }
  const bool edge = e.kind == Edit::Kind::edge_wall || e.kind == Edit::Kind::edge_open;
  if (edge && is_hex(layout_) && e.hex_side > 5)
    return "an edge of a hex map is named by its direction 0..5 (wall-0 .. wall-5), not n, e, s "
           "or w";
  if (edge && !is_hex(layout_) && e.hex_side != Edit::kNoHexSide)
    return "direction codes name the edges of hex maps; a square cell's sides are n, e, s or w";
  if (edge && !is_hex(layout_) && static_cast<unsigned>(e.side) > 3)
    return "edge side must be n, e, s or w";
  if (static_cast<unsigned>(e.kind) > static_cast<unsigned>(Edit::Kind::edge_open)) {
    return "unknown edit kind " + std::to_string(static_cast<unsigned>(e.kind));
  }
  if (e.kind == Edit::Kind::set_class && !valid_class(e.cls)) {
    return "class must be one printable character, not code " +
           std::to_string(static_cast<unsigned char>(e.cls));
  }
  if (e.kind == Edit::Kind::terrain && (!(e.cost >= 1.0f) || !std::isfinite(e.cost))) {
    return "terrain cost must be a finite number >= 1";
  }
  return std::nullopt;
}

void Grid::set_edge_bit(NodeId n, int which, bool blocked) {
  if (edge_e_.empty()) {
    edge_e_.assign(walls_.size(), 0);
    edge_s_.assign(walls_.size(), 0);
  }
  if (which == 2 && edge_x_.empty()) edge_x_.assign(walls_.size(), 0);
  auto& v = which == 0 ? edge_e_ : which == 1 ? edge_s_ : edge_x_;
  const std::uint64_t b = std::uint64_t{1} << (n & 63);
  const bool was = (v[n >> 6] & b) != 0;
  if (blocked) {
    v[n >> 6] |= b;
  } else {
    v[n >> 6] &= ~b;
  }
  edge_count_ += (blocked ? 1 : 0) - (was ? 1 : 0);
}

bool Grid::edge_wall(int x, int y, Side s) const noexcept {
  if (x < -1 || y < -1 || x > width_ || y > height_ || edge_e_.empty() || is_hex(layout_))
    return false;
  switch (s) {
    case Side::north:
      return y > -1 && wall_south_id(id(x, y - 1));
    case Side::east:
      return x < width_ && wall_east_id(id(x, y));
    case Side::south:
      return y < height_ && wall_south_id(id(x, y));
    case Side::west:
      return x > -1 && wall_east_id(id(x - 1, y));
  }
  return false;
}

void Grid::set_edge_wall(int x, int y, Side s, bool blocked) {
  if (!map_cell(x, y)) throw std::out_of_range("set_edge_wall outside the grid");
  if (is_hex(layout_)) throw std::invalid_argument("walls on cell edges need a square layout");
  Edit e;
  e.kind = blocked ? Edit::Kind::edge_wall : Edit::Kind::edge_open;
  e.area = {x, y, x, y};
  e.side = s;
  (void)apply(e);
}

namespace {
/// Where the wall between hex cell (x, y) and its neighbour in direction d is stored: the
/// padded node and the edge vector (0: edge_e_, 1: edge_s_, 2: edge_x_).
std::pair<NodeId, int> hex_edge_slot(const Grid& g, int x, int y, int d) noexcept {
  const NodeId n = g.id(x, y);
  if (d == 0 || d == 4 || d == 5) return {n, d == 0 ? 0 : d == 5 ? 1 : 2};
  NodeId m = n;
  for_each_hex_cell(g, n, [&](NodeId k, int e) {
    if (e == d) m = k;
  });
  return {m, d == 3 ? 0 : d == 2 ? 1 : 2};
}
}  // namespace

bool Grid::hex_edge_wall(int x, int y, int d) const noexcept {
  if (!is_hex(layout_) || edge_e_.empty() || !in_bounds(x, y) || d < 0 || d > 5) return false;
  const auto [n, v] = hex_edge_slot(*this, x, y, d);
  return bit(v == 0 ? edge_e_ : v == 1 ? edge_s_ : edge_x_, n);
}

void Grid::set_hex_edge_wall(int x, int y, int d, bool blocked) {
  if (!map_cell(x, y)) throw std::out_of_range("set_hex_edge_wall outside the grid");
  if (!is_hex(layout_)) throw std::invalid_argument("set_hex_edge_wall needs a hex layout");
  if (d < 0 || d > 5) throw std::invalid_argument("a hex edge's direction must be 0..5");
  Edit e;
  e.kind = blocked ? Edit::Kind::edge_wall : Edit::Kind::edge_open;
  e.area = {x, y, x, y};
  e.hex_side = static_cast<std::uint8_t>(d);
  (void)apply(e);
}

void Grid::set_layout(Layout l) {
  if (l == layout_) return;
  if (is_hex(l) != is_hex(layout_) && edge_wall_count() > 0) {
    throw std::invalid_argument(
        "walls on cell edges stand, and a square layout's sides are not a hex's (take them "
        "down first)");
  }
  const std::uint64_t before = revision_.value();
  revision_.renew();
  layout_ = l;
  // Clearance means another thing on hexes: drop every field and view (finders ask again, the
  // revision changed).
  cache_ = detail::UnitCacheSlot{};
  if (width_ > 0 && height_ > 0) record({0, 0, width_ - 1, height_ - 1}, before);
}

std::optional<std::string> Grid::add_link(const Link& l) {
  for (const Cell c : {l.from, l.to}) {
    if (!in_bounds(c)) {
      return "link end " + cell_text(c.x, c.y) + " is outside the " + std::to_string(width_) + "x" +
             std::to_string(height_) + " map";
    }
    if (between_layers(c.y)) {
      return "link end " + cell_text(c.x, c.y) + " lies between two layers";
    }
  }
  if (!(l.cost > 0.0f) || !std::isfinite(l.cost)) {
    return "link cost must be a finite number > 0";
  }
  const std::uint64_t before = revision_.value();
  revision_.renew();
  links_.push_back(l);
  index_links();
  record({std::min(l.from.x, l.to.x), std::min(l.from.y, l.to.y), std::max(l.from.x, l.to.x),
          std::max(l.from.y, l.to.y)},
         before);
  return std::nullopt;
}

std::size_t Grid::remove_links(Cell from, Cell to) {
  const std::size_t n0 = links_.size();
  std::erase_if(links_, [&](const Link& l) {
    return (l.from == from && l.to == to) || (!l.oneway && l.from == to && l.to == from);
  });
  const std::size_t removed = n0 - links_.size();
  if (removed > 0) {
    const std::uint64_t before = revision_.value();
    revision_.renew();
    index_links();
    record({std::min(from.x, to.x), std::min(from.y, to.y), std::max(from.x, to.x),
            std::max(from.y, to.y)},
           before);
  }
  return removed;
}

void Grid::clear_links() {
  if (links_.empty()) return;
  const std::uint64_t before = revision_.value();
  revision_.renew();
  links_.clear();
  index_links();
  if (width_ > 0 && height_ > 0) record({0, 0, width_ - 1, height_ - 1}, before);
}

void Grid::index_links() {
  arcs_out_.clear();
  arcs_in_.clear();
  link_out_mark_.clear();
  link_in_mark_.clear();
  if (links_.empty()) return;
  for (const Link& l : links_) {
    arcs_out_.push_back({id(l.from), id(l.to), l.cost});
    if (!l.oneway) arcs_out_.push_back({id(l.to), id(l.from), l.cost});
  }
  arcs_in_ = arcs_out_;
  std::stable_sort(arcs_out_.begin(), arcs_out_.end(),
                   [](const Arc& a, const Arc& b) { return a.from < b.from; });
  std::stable_sort(arcs_in_.begin(), arcs_in_.end(),
                   [](const Arc& a, const Arc& b) { return a.to < b.to; });
  link_out_mark_.assign(walls_.size(), 0);
  link_in_mark_.assign(walls_.size(), 0);
  for (const Arc& a : arcs_out_) {
    link_out_mark_[a.from >> 6] |= std::uint64_t{1} << (a.from & 63);
    link_in_mark_[a.to >> 6] |= std::uint64_t{1} << (a.to & 63);
  }
}

namespace {

/// The run of arcs whose `key` (from or to) is n in arcs sorted by it.
template <class Key>
std::span<const Grid::Arc> run_of(const std::vector<Grid::Arc>& arcs, NodeId n, Key key) noexcept {
  const auto lo = std::lower_bound(arcs.begin(), arcs.end(), n,
                                   [&](const Grid::Arc& a, NodeId v) { return key(a) < v; });
  auto hi = lo;
  while (hi != arcs.end() && key(*hi) == n) ++hi;
  // (pointer, size): libc++ 14 (Emscripten) has no span from two iterators.
  return {arcs.data() + (lo - arcs.begin()), static_cast<std::size_t>(hi - lo)};
}

}  // namespace

std::span<const Grid::Arc> Grid::out_links(NodeId n) const noexcept {
  return run_of(arcs_out_, n, [](const Arc& a) { return a.from; });
}

std::span<const Grid::Arc> Grid::in_links(NodeId n) const noexcept {
  return run_of(arcs_in_, n, [](const Arc& a) { return a.to; });
}

void Grid::copy_shape(const Grid& from) {
  layout_ = from.layout_;
  layers_ = from.layers_;
  layer_height_ = from.layer_height_;
  layer_pitch_ = from.layer_pitch_;
  edge_e_ = from.edge_e_;
  edge_s_ = from.edge_s_;
  edge_x_ = from.edge_x_;
  edge_count_ = from.edge_count_;
  links_ = from.links_;
  arcs_out_ = from.arcs_out_;
  arcs_in_ = from.arcs_in_;
  link_out_mark_ = from.link_out_mark_;
  link_in_mark_ = from.link_in_mark_;
}

std::optional<std::string> Grid::apply(const Edit& e) {
  if (auto bad = check(e)) return bad;
  const Rect& a = e.area;
  if (e.kind == Edit::Kind::edge_wall || e.kind == Edit::Kind::edge_open) {
    const bool up = e.kind == Edit::Kind::edge_wall;
    if (!up && edge_e_.empty()) return std::nullopt;
    bool changed = false;
    for (int y = a.y0; y <= a.y1; ++y) {
      for (int x = a.x0; x <= a.x1; ++x) {
        if (is_hex(layout_)) {
          const auto [n, v] = hex_edge_slot(*this, x, y, e.hex_side);
          if (bit(v == 0 ? edge_e_ : v == 1 ? edge_s_ : edge_x_, n) == up) continue;
          set_edge_bit(n, v, up);
          changed = true;
          continue;
        }
        NodeId n = id(x, y);
        bool south = false;
        switch (e.side) {
          case Side::north:
            n = id(x, y - 1), south = true;
            break;
          case Side::east:
            break;
          case Side::south:
            south = true;
            break;
          case Side::west:
            n = id(x - 1, y);
            break;
        }
        if (bit(south ? edge_s_ : edge_e_, n) == up) continue;
        set_edge_bit(n, south ? 1 : 0, up);
        changed = true;
      }
    }
    if (changed) {
      const std::uint64_t before = revision_.value();
      revision_.renew();
      record({std::max(0, a.x0 - 1), std::max(0, a.y0 - 1), std::min(width_ - 1, a.x1 + 1),
              std::min(height_ - 1, a.y1 + 1)},
             before);
    }
    return std::nullopt;
  }
  const bool terrain_edit = e.kind == Edit::Kind::terrain;
  const char cls = e.kind == Edit::Kind::wall        ? kWallClass
                   : e.kind == Edit::Kind::set_class ? canonical_class(e.cls)
                                                     : kGroundClass;
  // What each kind does (grid.hpp, Edit): wall and free make plain cells (terrain cost 1),
  // set_class keeps the cost except on walls, terrain leaves walls alone.
  const bool reset_cost = e.kind == Edit::Kind::wall || e.kind == Edit::Kind::free ||
                          (e.kind == Edit::Kind::set_class && cls == kWallClass);
  if (e.kind == Edit::Kind::set_class && cls != kGroundClass && cls != kWallClass &&
      classes_.empty()) {
    classes_.resize(padded_size(), static_cast<std::uint8_t>(kWallClass));
    for (int y = 0; y < height_; ++y) {
      for (int x = 0; x < width_; ++x) {
        const NodeId n = id(x, y);
        classes_[n] = static_cast<std::uint8_t>(passable_id(n) ? kGroundClass : kWallClass);
      }
    }
  }
  if (terrain_edit && terrain_.empty() && e.cost != 1.0f) {
    terrain_.assign(padded_size(), 1.0f);
  }
  bool changed = false;
  for (int y = a.y0; y <= a.y1; ++y) {
    for (int x = a.x0; x <= a.x1; ++x) {
      const NodeId n = id(x, y);
      if (terrain_edit) {
        if (terrain_.empty() || terrain_[n] == e.cost || class_id(n) == kWallClass) continue;
        terrain_[n] = e.cost;
        changed = true;
        continue;
      }
      if (class_id(n) != cls) {
        set_class_bits(n, cls);
        changed = true;
      }
      if (reset_cost && !terrain_.empty() && terrain_[n] != 1.0f) {
        terrain_[n] = 1.0f;
        changed = true;
      }
    }
  }
  if (changed) {
    const std::uint64_t before = revision_.value();
    revision_.renew();
    record(a, before);
  }
  return std::nullopt;
}

std::optional<std::string> Grid::paste(Cell at, int width, int height,
                                       std::span<const std::uint8_t> walls) {
  if (width < 1 || height < 1) {
    return "empty block " + std::to_string(width) + "x" + std::to_string(height);
  }
  if (walls.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    return "a " + std::to_string(width) + "x" + std::to_string(height) + " block needs " +
           std::to_string(static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) +
           " cells, not " + std::to_string(walls.size());
  }
  // Its rectangle is checked as a wall edit's (inside the map, not between floors); the far
  // corner is computed in 64 bits, so that a block past INT_MAX is refused, not wrapped.
  const std::int64_t x1 = std::int64_t{at.x} + width - 1, y1 = std::int64_t{at.y} + height - 1;
  if (x1 >= width_ || y1 >= height_) {
    return "a " + std::to_string(width) + "x" + std::to_string(height) + " block at " +
           std::to_string(at.x) + "," + std::to_string(at.y) + " leaves the " +
           std::to_string(width_) + "x" + std::to_string(height_) + " map";
  }
  Edit e;
  e.area = {at.x, at.y, static_cast<int>(x1), static_cast<int>(y1)};
  if (auto bad = check(e)) return bad;
  // The change log gets the bounding box of the cells that changed, not the block: a block
  // that mostly rewrites what is there costs the caches' repairs only the part that changed.
  Rect changed{width_, height_, -1, -1};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const NodeId n = id(at.x + x, at.y + y);
      const char cls = walls[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                             static_cast<std::size_t>(x)] != 0
                           ? kWallClass
                           : kGroundClass;
      bool differs = false;
      if (class_id(n) != cls) {
        set_class_bits(n, cls);
        differs = true;
      }
      if (!terrain_.empty() && terrain_[n] != 1.0f) {
        terrain_[n] = 1.0f;
        differs = true;
      }
      if (differs) {
        changed.x0 = std::min(changed.x0, at.x + x);
        changed.y0 = std::min(changed.y0, at.y + y);
        changed.x1 = std::max(changed.x1, at.x + x);
        changed.y1 = std::max(changed.y1, at.y + y);
      }
    }
  }
  if (changed.x1 >= 0) {
    const std::uint64_t before = revision_.value();
    revision_.renew();
    record(changed, before);
  }
  return std::nullopt;
}

bool Grid::changes_since(std::uint64_t rev, std::vector<Rect>& out) const {
  out.clear();
  if (rev == revision_.value()) return true;
  const auto& log = log_.entries;
  for (std::size_t i = log.size(); i-- > 0;) {
    if (log[i].before == rev) {
      for (std::size_t k = i; k < log.size(); ++k) out.push_back(log[k].area);
      return true;
    }
  }
  return false;
}

std::int64_t Grid::wall_count() const noexcept {
  std::int64_t n = 0;
  for (int y = 0; y < height_; ++y) {
    if (between_layers(y)) continue;
    for (int x = 0; x < width_; ++x) n += passable_id(id(x, y)) ? 0 : 1;
  }
  return n;
}

bool Grid::has_walls() const noexcept {
  for (int y = 0; y < height_; ++y) {
    if (between_layers(y)) continue;
    for (int x = 0; x < width_; ++x) {
      if (!passable_id(id(x, y))) return true;
    }
  }
  return false;
}

Grid Grid::with_clearance(double radius) const {
  Grid out = *this;
  if (!(radius > 0.5)) return out;
  // Distance from a cell centre to the square of a cell offset by (dx,dy) is
  // hypot(max(0,|dx|-0.5), max(0,|dy|-0.5)); it is blocking when strictly below r.
  const int reach = static_cast<int>(std::ceil(radius + 0.5));
  std::vector<std::pair<int, int>> offsets;
  for (int dy = -reach; dy <= reach; ++dy) {
    for (int dx = -reach; dx <= reach; ++dx) {
      const double gx = std::max(0.0, std::abs(dx) - 0.5);
      const double gy = std::max(0.0, std::abs(dy) - 0.5);
      if (gx * gx + gy * gy < radius * radius && (dx != 0 || dy != 0)) offsets.emplace_back(dx, dy);
    }
  }
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      if (!passable(x, y)) continue;
      for (auto [dx, dy] : offsets) {
        // Outside the map counts as wall: an agent cannot stick out of the map.
        if (!passable(x + dx, y + dy)) {
          out.set_blocked(x, y, true);
          break;
        }
      }
    }
  }
  return out;
}

bool operator==(const Grid& a, const Grid& b) noexcept {
  if (a.width_ != b.width_ || a.height_ != b.height_ || a.walls_ != b.walls_) return false;
  if (a.layout_ != b.layout_ || a.layers_ != b.layers_ || a.layer_height_ != b.layer_height_ ||
      !same_bits(a.edge_e_, b.edge_e_) || !same_bits(a.edge_s_, b.edge_s_) ||
      !same_bits(a.edge_x_, b.edge_x_)) {
    return false;
  }
  // The same moves: the same arcs, whatever order the links were added in.
  if (a.arcs_out_.size() != b.arcs_out_.size()) return false;
  {
    auto key = [](const Grid::Arc& x) { return std::tuple(x.from, x.to, x.cost); };
    std::vector<std::tuple<NodeId, NodeId, float>> ka, kb;
    for (const auto& x : a.arcs_out_) ka.push_back(key(x));
    for (const auto& x : b.arcs_out_) kb.push_back(key(x));
    std::sort(ka.begin(), ka.end());
    std::sort(kb.begin(), kb.end());
    if (ka != kb) return false;
  }
  // Stored alike (both empty, or both allocated): the vectors compare at once.
  if (a.terrain_.size() == b.terrain_.size() && a.classes_.size() == b.classes_.size()) {
    return a.terrain_ == b.terrain_ && a.classes_ == b.classes_;
  }
  for (int y = 0; y < a.height_; ++y) {
    for (int x = 0; x < a.width_; ++x) {
      const NodeId n = a.id(x, y);
      if (a.terrain_id(n) != b.terrain_id(n) || a.class_id(n) != b.class_id(n)) return false;
    }
  }
  return true;
}

std::uint64_t Grid::checksum() const noexcept {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(static_cast<std::uint64_t>(width_));
  mix(static_cast<std::uint64_t>(height_));
  for (std::uint64_t w : walls_) mix(w);
  // The map kinds, only when they are not the plain square map's, so that plain maps keep
  // their checksums.
  if (layout_ != Layout::square || layers_ != 1) {
    mix(0x6c61796f7574ull);
    mix(static_cast<std::uint64_t>(layout_));
    mix(static_cast<std::uint64_t>(layers_));
    mix(static_cast<std::uint64_t>(layer_height_));
  }
  for (std::size_t i = 0; i < edge_e_.size(); ++i) {
    if (edge_e_[i] != 0 || edge_s_[i] != 0) {
      mix(i);
      mix(edge_e_[i]);
      mix(edge_s_[i]);
    }
  }
  for (std::size_t i = 0; i < edge_x_.size(); ++i) {
    if (edge_x_[i] != 0) {
      mix(~i);
      mix(edge_x_[i]);
    }
  }
  if (!arcs_out_.empty()) {
    std::vector<std::tuple<NodeId, NodeId, float>> k;
    for (const auto& x : arcs_out_) k.emplace_back(x.from, x.to, x.cost);
    std::sort(k.begin(), k.end());
    for (const auto& [f, t, c] : k) {
      std::uint32_t bits = 0;
      __builtin_memcpy(&bits, &c, sizeof bits);
      mix((std::uint64_t{f} << 32) | t);
      mix(bits);
    }
  }
  // Per cell only where a cost differs from 1 or a class from ground and wall (the walls are
  // in the bits): a grid edited back to its old cells has its old checksum.
  if (terrain_.empty() && classes_.empty()) return h;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const NodeId n = id(x, y);
      const float t = terrain_id(n);
      const char c = class_id(n);
      if (t == 1.0f && (c == kGroundClass || c == kWallClass)) continue;
      std::uint32_t bits = 0;
      static_assert(sizeof bits == sizeof t);
      __builtin_memcpy(&bits, &t, sizeof bits);
      mix(n);
      mix(bits);
      mix(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
    }
  }
  return h;
}

std::vector<EdgeWallAt> edge_walls(const Grid& g) {
  std::vector<EdgeWallAt> out;
  if (!g.has_edge_walls()) return out;
  const bool hex = is_hex(g.layout());
  for (int y = 0; y < g.height(); ++y) {
    if (!g.map_cell(0, y)) continue;
    for (int x = 0; x < g.width(); ++x) {
      if (hex) {
        for (int d = 0; d < 6; ++d) {
          if (!g.hex_edge_wall(x, y, d)) continue;
          const Cell n = hex::neighbour(g.layout(), x, y, d);
          if (d >= 1 && d <= 3 && g.map_cell(n.x, n.y)) continue;  // named from n
          out.push_back({{x, y}, d});
        }
        continue;
      }
      for (const Side s : {Side::north, Side::west, Side::east, Side::south}) {
        if ((s == Side::north && g.local_y(y) != 0) || (s == Side::west && x != 0)) continue;
        if (g.edge_wall(x, y, s)) out.push_back({{x, y}, static_cast<int>(s)});
      }
    }
  }
  return out;
}

}  // namespace pathlab::grid
