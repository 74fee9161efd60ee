// Internal to the grid module: a grid's cache of clearance fields and unit views (unit.hpp),
// built on first use under a mutex, repaired by every edit of the grid.
#pragma once

#include <array>
#include <atomic>
#include <bitset>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>

namespace pathlab::grid::detail {

/// Clearance is kept as q = 4 d^2, an integer: the nearest point of a square at offset (dx, dy)
/// is max(0, |dx| - 1/2) and max(0, |dy| - 1/2) away on each axis, so 2d is the hypotenuse of
/// two odd integers (or zeros). Squares farther than kReach cells on either axis are at least
/// kReach + 1/2 away, more than any radius needs: q saturates at kCap.
inline constexpr int kReach = 17;
inline constexpr std::uint16_t kCap = (2 * kReach + 1) * (2 * kReach + 1);
static_assert(kReach + 0.5 > Unit::max_radius);

/// Least q a usable cell needs for a radius: d >= r <=> q >= 4 r^2 <=> q >= ceil(4 r^2).
[[nodiscard]] std::uint32_t min_q(double radius) noexcept;

/// One clearance field: q per padded cell for one set of forbidden classes.
struct Field {
  std::bitset<128> forbidden;
  std::vector<std::uint16_t> q;
  std::uint64_t used = 0;
};

/// What makes two units see a grid alike: their class costs (forbidden = infinity, the wall
/// class always forbidden) and the least clearance they need.
struct ViewKey {
  std::array<float, 128> cost{};
  std::uint32_t qmin = 0;
  friend bool operator==(const ViewKey&, const ViewKey&) = default;
};

struct ViewEntry {
  ViewKey key;
  std::shared_ptr<Grid> grid;
  std::uint64_t used = 0;
};

struct UnitCache {
  static constexpr std::size_t kMaxViews = 16;
  static constexpr std::size_t kMaxFields = 8;

  std::mutex mutex;
  /// Set once a field or view exists: edits of a grid whose cache was never used skip the lock.
  std::atomic<bool> used{false};
  std::vector<Field> fields;
  std::vector<ViewEntry> views;
  std::uint64_t clock = 0;

  /// The view for a unit that does not see g alike.
  std::shared_ptr<const Grid> view(const Grid& g, const ViewKey& key);
  /// The field for a set of forbidden classes (built if missing). Call with the mutex held.
  const Field& field(const Grid& g, const std::bitset<128>& forbidden);
  /// Brings every field and view up to date after the cells of `area` changed.
  void repair(const Grid& g, Rect area);

 private:
  void build_view(const Grid& g, const ViewKey& key, Grid& out, Rect area, const Field* f);
};

}  // namespace pathlab::grid::detail
