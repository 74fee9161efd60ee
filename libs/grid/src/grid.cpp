#include <pathlab/grid/grid.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

namespace pathlab::grid {

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

void Grid::set_blocked(int x, int y, bool blocked) {
  if (!in_bounds(x, y)) throw std::out_of_range("set_blocked outside the grid");
  const NodeId i = id(x, y);
  const std::uint64_t bit = std::uint64_t{1} << (i & 63);
  revision_.renew();
  if (blocked) {
    walls_[i >> 6] |= bit;
  } else {
    walls_[i >> 6] &= ~bit;
  }
}

void Grid::set_terrain(int x, int y, float cost) {
  if (!in_bounds(x, y)) throw std::out_of_range("set_terrain outside the grid");
  if (!(cost >= 1.0f) || !std::isfinite(cost)) {
    throw std::invalid_argument("terrain cost must be a finite number >= 1");
  }
  revision_.renew();
  if (terrain_.empty()) {
    if (cost == 1.0f) return;
    terrain_.assign(padded_size(), 1.0f);
  }
  terrain_[id(x, y)] = cost;
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
  for (float t : terrain_) {
    std::uint32_t bits = 0;
    static_assert(sizeof bits == sizeof t);
    __builtin_memcpy(&bits, &t, sizeof bits);
    mix(bits);
  }
  return h;
}

}  // namespace pathlab::grid
