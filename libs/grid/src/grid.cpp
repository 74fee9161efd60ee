#include <pathlab/grid/grid.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <pathlab/grid/unit.hpp>

#include "unit_cache.hpp"

namespace pathlab::grid {
namespace {

/// Whether the default unit is blocked by a cell of this class.
bool default_blocked(char cls) noexcept {
  return cls == kWallClass || Unit{}.forbids(cls);
}

}  // namespace

Grid::Grid(int width, int height) {
  if (width < 0 || height < 0 || std::int64_t{width} * height > max_cells) {
    throw std::length_error("grid of " + std::to_string(width) + "x" + std::to_string(height) +
                            " cells exceeds the limit of 2^28 cells");
  }
  width_ = width;
  height_ = height;
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
  if (!in_bounds(x, y)) throw std::out_of_range("set_blocked outside the grid");
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
  if (!in_bounds(x, y)) throw std::out_of_range("set_class outside the grid");
  Edit e;
  e.kind = Edit::Kind::set_class;
  e.area = {x, y, x, y};
  e.cls = cls;
  (void)apply(e);  // checked above: it cannot be refused
}

void Grid::set_terrain(int x, int y, float cost) {
  if (!in_bounds(x, y)) throw std::out_of_range("set_terrain outside the grid");
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
  if (e.kind == Edit::Kind::set_class && !valid_class(e.cls)) {
    return "class must be one printable character, not code " +
           std::to_string(static_cast<unsigned char>(e.cls));
  }
  if (e.kind == Edit::Kind::terrain && (!(e.cost >= 1.0f) || !std::isfinite(e.cost))) {
    return "terrain cost must be a finite number >= 1";
  }
  return std::nullopt;
}

std::optional<std::string> Grid::apply(const Edit& e) {
  if (auto bad = check(e)) return bad;
  const Rect& a = e.area;
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
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) n += passable_id(id(x, y)) ? 0 : 1;
  return n;
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

}  // namespace pathlab::grid
