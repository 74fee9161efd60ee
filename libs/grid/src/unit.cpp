// Units, their parser, clearance fields and the grid's cache of unit views.
#include <pathlab/core/portable.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/unit.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "unit_cache.hpp"

namespace pathlab::grid {
namespace detail {
namespace {

/// (2k - 1)^2 for k >= 1, 0 for k = 0: 4 x the squared gap to a square k cells away on one axis.
constexpr std::uint32_t gap2(int k) noexcept {
  return k == 0 ? 0u : static_cast<std::uint32_t>((2 * k - 1) * (2 * k - 1));
}

std::bitset<128> forbidden_set(const ViewKey& key) {
  std::bitset<128> f;
  for (std::size_t c = 0; c < 128; ++c) f[c] = std::isinf(key.cost[c]);
  f[static_cast<unsigned char>(kWallClass)] = true;
  return f;
}

Rect clip(const Grid& g, Rect a, int grow) {
  return {std::max(0, a.x0 - grow), std::max(0, a.y0 - grow), std::min(g.width() - 1, a.x1 + grow),
          std::min(g.height() - 1, a.y1 + grow)};
}

/// Hex layouts: q = the hex distance from each cell of `area` to the nearest hex blocked for
/// `forbidden` (the outside of the map counts as blocked), capped at kReach + 1; 0 for blocked
/// cells. A multi-source breadth-first search over the area grown by kReach + 1.
void compute_q_hex(const Grid& g, const std::bitset<128>& forbidden, Rect area,
                   std::vector<std::uint16_t>& q) {
  const int W = g.width(), H = g.height();
  constexpr int kFar = kReach + 1;
  const Rect r = clip(g, area, kFar + 1);
  const int rw = r.x1 - r.x0 + 1, rh = r.y1 - r.y0 + 1;
  std::vector<std::uint8_t> d(static_cast<std::size_t>(rw) * rh, static_cast<std::uint8_t>(kFar));
  std::vector<std::int32_t> queue;
  const auto off = hex::offsets(g.layout());
  auto at = [&](int x, int y) -> std::uint8_t& {
    return d[static_cast<std::size_t>(y - r.y0) * rw + (x - r.x0)];
  };
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) {
      if (forbidden[static_cast<unsigned char>(g.cell_class(x, y)) & 127]) {
        at(x, y) = 0;
        queue.push_back((y - r.y0) * rw + (x - r.x0));
      }
    }
  }
  // The outside of the map: one step from every cell with a neighbour outside it.
  const std::size_t outside_from = queue.size();
  for (int y = r.y0; y <= r.y1; ++y) {
    for (int x = r.x0; x <= r.x1; ++x) {
      if (at(x, y) == 0) continue;
      for (const hex::Offset o : off[hex::odd(g.layout(), x, y)]) {
        const int nx = x + o.dx, ny = y + o.dy;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H) {
          at(x, y) = 1;
          queue.push_back((y - r.y0) * rw + (x - r.x0));
          break;
        }
      }
    }
  }
  // Cells at distance 1 seeded above go after the blocked ones: the queue stays in order.
  (void)outside_from;
  std::stable_sort(queue.begin(), queue.end(),
                   [&](std::int32_t a, std::int32_t b) { return d[a] < d[b]; });
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const int x = r.x0 + queue[i] % rw, y = r.y0 + queue[i] / rw;
    const int next = d[static_cast<std::size_t>(queue[i])] + 1;
    if (next >= kFar) continue;
    for (const hex::Offset o : off[hex::odd(g.layout(), x, y)]) {
      const int nx = x + o.dx, ny = y + o.dy;
      if (nx < r.x0 || ny < r.y0 || nx > r.x1 || ny > r.y1) continue;
      std::uint8_t& v = at(nx, ny);
      if (v > next) {
        v = static_cast<std::uint8_t>(next);
        queue.push_back((ny - r.y0) * rw + (nx - r.x0));
      }
    }
  }
  for (int y = area.y0; y <= area.y1; ++y) {
    for (int x = area.x0; x <= area.x1; ++x) q[g.id(x, y)] = at(x, y);
  }
}

/// q for every cell of `area` (q[id]; padded layout), from the squares blocked for `forbidden`.
/// Hex layouts: compute_q_hex.
void compute_q(const Grid& g, const std::bitset<128>& forbidden, Rect area,
               std::vector<std::uint16_t>& q) {
  if (is_hex(g.layout())) {
    compute_q_hex(g, forbidden, area, q);
    return;
  }
  const int W = g.width(), H = g.height();
  auto blocked = [&](int x, int y) -> bool {
    if (x < 0 || y < 0 || x >= W || y >= H) return true;
    return forbidden[static_cast<unsigned char>(g.cell_class(x, y)) & 127];
  };
  // v(x', y): rows to the nearest blocked square in column x' (capped at kReach + 1), for the
  // columns the area's cells look at and the area's rows.
  const int cx0 = std::max(0, area.x0 - kReach), cx1 = std::min(W - 1, area.x1 + kReach);
  const int rows = area.y1 - area.y0 + 1, cols = cx1 - cx0 + 1;
  std::vector<std::uint8_t> v(static_cast<std::size_t>(rows) * cols);
  constexpr int kFar = kReach + 1;
  std::vector<int> down(static_cast<std::size_t>(rows));
  for (int c = 0; c < cols; ++c) {
    const int x = cx0 + c;
    // Distance to the nearest blocked square above (sweeping down), then below.
    int d = kFar;
    for (int y = area.y0 - kFar; y <= area.y1; ++y) {
      d = blocked(x, y) ? 0 : std::min(d + 1, kFar);
      if (y >= area.y0) down[static_cast<std::size_t>(y - area.y0)] = d;
    }
    d = kFar;
    for (int y = area.y1 + kFar; y >= area.y0; --y) {
      d = blocked(x, y) ? 0 : std::min(d + 1, kFar);
      if (y <= area.y1) {
        const std::size_t r = static_cast<std::size_t>(y - area.y0);
        v[r * cols + c] = static_cast<std::uint8_t>(std::min(d, down[r]));
      }
    }
  }
  for (int y = area.y0; y <= area.y1; ++y) {
    const std::uint8_t* row = &v[static_cast<std::size_t>(y - area.y0) * cols];
    for (int x = area.x0; x <= area.x1; ++x) {
      std::uint32_t best = kCap;
      for (int k = 0; k <= kReach && gap2(k) < best; ++k) {
        for (const int xx : {x - k, x + k}) {
          const std::uint32_t cand = xx < 0 || xx >= W ? gap2(k) : gap2(k) + gap2(row[xx - cx0]);
          best = std::min(best, cand);
        }
      }
      q[g.id(x, y)] = static_cast<std::uint16_t>(best);
    }
  }
}

}  // namespace

const Field& UnitCache::field(const Grid& g, const std::bitset<128>& forbidden) {
  for (Field& f : fields) {
    if (f.forbidden == forbidden) {
      f.used = ++clock;
      return f;
    }
  }
  if (fields.size() >= kMaxFields) {
    fields.erase(std::min_element(fields.begin(), fields.end(),
                                  [](const Field& a, const Field& b) { return a.used < b.used; }));
  }
  used.store(true, std::memory_order_relaxed);
  Field f;
  f.forbidden = forbidden;
  f.q.assign(g.padded_size(), 0);
  if (g.width() > 0 && g.height() > 0) {
    compute_q(g, forbidden, {0, 0, g.width() - 1, g.height() - 1}, f.q);
  }
  f.used = ++clock;
  fields.push_back(std::move(f));
  return fields.back();
}

void UnitCache::build_view(const Grid& g, const ViewKey& key, Grid& out, Rect area,
                           const Field* f) {
  for (int y = area.y0; y <= area.y1; ++y) {
    for (int x = area.x0; x <= area.x1; ++x) {
      const NodeId n = g.id(x, y);
      const float cost = key.cost[static_cast<unsigned char>(g.class_id(n)) & 127];
      const bool blocked = std::isinf(cost) || (f != nullptr && f->q[n] < key.qmin);
      const std::uint64_t bit = std::uint64_t{1} << (n & 63);
      if (blocked) {
        out.walls_[n >> 6] |= bit;
      } else {
        out.walls_[n >> 6] &= ~bit;
      }
      const float t = blocked ? 1.0f : cost * g.terrain_id(n);
      if (out.terrain_.empty() && t != 1.0f) out.terrain_.assign(out.padded_size(), 1.0f);
      if (!out.terrain_.empty()) out.terrain_[n] = t;
    }
  }
}

std::shared_ptr<const Grid> UnitCache::view(const Grid& g, const ViewKey& key) {
  const std::lock_guard lock(mutex);
  for (ViewEntry& e : views) {
    if (e.key == key) {
      e.used = ++clock;
      return e.grid;
    }
  }
  if (views.size() >= kMaxViews) {
    views.erase(std::min_element(views.begin(), views.end(),
                                 [](const auto& a, const auto& b) { return a.used < b.used; }));
  }
  const Field* f = key.qmin > 1 ? &field(g, forbidden_set(key)) : nullptr;
  used.store(true, std::memory_order_relaxed);
  auto out = std::make_shared<Grid>(g.width(), g.height());
  out->copy_shape(g);
  if (g.width() > 0 && g.height() > 0) {
    build_view(g, key, *out, {0, 0, g.width() - 1, g.height() - 1}, f);
  }
  views.push_back({key, out, ++clock});
  return out;
}

void UnitCache::repair(const Grid& g, Rect area) {
  if (!used.load(std::memory_order_relaxed)) return;
  const std::lock_guard lock(mutex);
  if (fields.empty() && views.empty()) return;
  const Rect wide = clip(g, area, kReach);
  for (Field& f : fields) compute_q(g, f.forbidden, wide, f.q);
  for (ViewEntry& e : views) {
    const Field* f = nullptr;
    if (e.key.qmin > 1) {
      const auto forbidden = forbidden_set(e.key);
      for (const Field& fd : fields) {
        if (fd.forbidden == forbidden) f = &fd;
      }
      if (f == nullptr) f = &field(g, forbidden);  // evicted: rebuilt in full
    }
    const Rect changed = f != nullptr ? wide : area;
    Grid& v = *e.grid;
    // Edge walls, links and the layout are the grid's own (units do not change them).
    if (!g.plain() || !v.plain()) v.copy_shape(g);
    build_view(g, e.key, v, changed, f);
    const std::uint64_t before = v.revision_.value();
    v.revision_.renew();
    v.record(changed, before);
  }
}

std::uint32_t min_q(double radius) noexcept {
  if (!(radius > 0.5)) return 0;
  const double q = 4.0 * radius * radius;
  const double n = std::round(q);
  // A radius given in decimal (1.5, 2.5) squares exactly; keep near-integers from rounding up.
  return static_cast<std::uint32_t>(std::abs(q - n) < 1e-9 * q ? n : std::ceil(q));
}

UnitCacheSlot::UnitCacheSlot() : cache_(std::make_unique<UnitCache>()) {}
UnitCacheSlot::~UnitCacheSlot() = default;
UnitCacheSlot::UnitCacheSlot(const UnitCacheSlot&) : cache_(std::make_unique<UnitCache>()) {}
UnitCacheSlot& UnitCacheSlot::operator=(const UnitCacheSlot& o) {
  if (this != &o) cache_ = std::make_unique<UnitCache>();
  return *this;
}
UnitCacheSlot::UnitCacheSlot(UnitCacheSlot&& o) noexcept : cache_(std::move(o.cache_)) {
  o.cache_ = std::make_unique<UnitCache>();
}
UnitCacheSlot& UnitCacheSlot::operator=(UnitCacheSlot&& o) noexcept {
  if (this != &o) {
    cache_ = std::move(o.cache_);
    o.cache_ = std::make_unique<UnitCache>();
  }
  return *this;
}

}  // namespace detail

namespace {

/// The least q a usable cell needs on layout l: square, min_q(radius) (clearance squared, times
/// 4); hex, radius + 1 (the hex distance to the nearest blocked hex); 0 when every unblocked cell
/// is usable.
std::uint32_t qmin_of(const Unit& u, Layout l) {
  if (is_hex(l)) return u.radius >= 1.0 ? static_cast<std::uint32_t>(u.radius) + 1 : 0;
  const std::uint32_t q = detail::min_q(u.radius);
  return q <= 1 ? 0 : q;
}

detail::ViewKey key_of(const Unit& u, Layout l = Layout::square) {
  detail::ViewKey k;
  k.cost = u.cost;
  k.cost[static_cast<unsigned char>(kWallClass)] = Unit::forbidden;
  // No cell has the aliases' classes: units that differ only there share a view.
  k.cost[static_cast<unsigned char>('G')] = 1.0f;
  k.cost[static_cast<unsigned char>('O')] = 1.0f;
  k.qmin = qmin_of(u, l);
  return k;
}

}  // namespace

bool Grid::sees_alike(const Unit& unit) const noexcept {
  if (qmin_of(unit, layout_) > 0) return false;
  if (classes_.empty()) return unit.class_cost(kGroundClass) == 1.0f;
  static const detail::ViewKey plain = key_of(Unit{});
  detail::ViewKey k = key_of(unit);
  return k.cost == plain.cost;
}

std::shared_ptr<const Grid> Grid::view(const Unit& unit) const {
  if (auto bad = validate(unit)) throw std::invalid_argument(*bad);
  if (auto bad = validate(unit, layout_)) throw std::invalid_argument(*bad);
  // This grid itself, not owned: the aliasing constructor with an empty owner.
  if (sees_alike(unit)) return std::shared_ptr<const Grid>(std::shared_ptr<const Grid>{}, this);
  return cache_.get().view(*this, key_of(unit, layout_));
}

Footing footing(const Grid& g, const Unit& unit, Cell c) {
  if (!g.in_bounds(c)) return Footing::outside;
  const char cls = g.cell_class(c.x, c.y);
  if (cls == kWallClass) return Footing::wall;
  if (unit.forbids(cls)) return Footing::forbidden_class;
  const auto view = g.view(unit);
  return view && view->passable(c) ? Footing::ok : Footing::too_close;
}

std::optional<std::string> validate(const Unit& u, Layout l) {
  if (auto bad = validate(u)) return bad;
  if (is_hex(l) && u.radius != std::floor(u.radius)) {
    char text[32];
    const auto r = core::to_chars(text, text + sizeof text, u.radius);
    return "radius " + std::string(text, r.ptr) +
           ": on a hex map the radius is a whole number of hexes (0, 1, 2, ...)";
  }
  return std::nullopt;
}

std::optional<std::string> validate(const Unit& u) {
  if (!(u.radius >= 0) || u.radius > Unit::max_radius) {
    char text[32];
    const auto r = core::to_chars(text, text + sizeof text, u.radius);
    return "radius " + std::string(text, r.ptr) + ": the radius must be a number from 0 to " +
           std::to_string(static_cast<int>(Unit::max_radius));
  }
  for (std::size_t c = 0; c < u.cost.size(); ++c) {
    if (canonical_class(static_cast<char>(c)) != static_cast<char>(c) ||
        c == static_cast<unsigned char>(kWallClass)) {
      continue;  // never read: '@', and the aliases 'G' and 'O'
    }
    if (!(u.cost[c] >= 1.0f)) {
      return "class cost must be a number >= 1 or forbidden (class code " + std::to_string(c) + ")";
    }
  }
  return std::nullopt;
}

std::optional<std::string> parse_class_costs(std::string_view text, Unit& unit) {
  Unit out = unit;
  std::bitset<128> seen;
  const std::string hint = " (expected C=V[,C=V...]: C a class character, V a number >= 1 or x)";
  if (text.empty()) return "empty class costs" + hint;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    std::string shown(1, '\'');
    shown.append(item).push_back('\'');
    if (item.empty()) return "empty item in class costs '" + std::string(text) + "'" + hint;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) return shown + " has no '='" + hint;
    if (eq != 1) return shown + ": the class must be one character" + hint;
    const char cls = canonical_class(item[0]);
    if (!valid_class(cls)) return shown + ": the class must be a printable character" + hint;
    if (cls == kWallClass) return shown + ": walls ('@', 'O') are not a terrain class" + hint;
    const std::string_view value = item.substr(2);
    float v = 0;
    if (value == "x" || value == "X") {
      v = Unit::forbidden;
    } else {
      double d = 0;
      const auto [p, ec] = core::from_chars(value.data(), value.data() + value.size(), d);
      if (value.empty() || ec != std::errc{} || p != value.data() + value.size()) {
        std::string what = value.empty() ? std::string("no value") : std::string(1, '\'');
        if (!value.empty()) what.append(value).push_back('\'');
        return shown + ": " + what + " is not a number or x" + hint;
      }
      if (!(d >= 1) || !(d <= 1e9)) {
        return shown + ": the cost must be from 1 to 1e9 (or x for forbidden)";
      }
      v = static_cast<float>(d);
    }
    const auto index = static_cast<unsigned char>(cls);
    if (seen[index]) return "class '" + std::string(1, cls) + "' is given twice";
    seen[index] = true;
    out.set(cls, v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  unit = out;
  return std::nullopt;
}

std::optional<std::string> parse_edit(std::string_view text, Edit& out, const Grid* map) {
  const std::string hint =
      " (expected KIND:[L:]X,Y[:X2,Y2], KIND wall, free, class=C, terrain=V, or wall-S / "
      "open-S for a wall on side S (n, e, s, w; 0..5 on hex maps) of the cells)";
  // 'text' in quotes (built by appending: gcc 12 warns falsely on "'" + std::string(...)).
  auto quoted = [](std::string_view t) {
    std::string q(1, '\'');
    q.append(t).push_back('\'');
    return q;
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return quoted(text) + " has no ':'" + hint;
  const std::string_view kind = text.substr(0, colon);
  Edit e;
  if (kind == "wall") {
    e.kind = Edit::Kind::wall;
  } else if (kind == "free") {
    e.kind = Edit::Kind::free;
  } else if (kind.substr(0, 6) == "class=") {
    e.kind = Edit::Kind::set_class;
    if (kind.size() != 7 || !valid_class(kind[6])) {
      return quoted(kind) + ": the class must be one printable character" + hint;
    }
    e.cls = kind[6];
  } else if (kind.substr(0, 8) == "terrain=") {
    e.kind = Edit::Kind::terrain;
    const std::string_view v = kind.substr(8);
    double d = 0;
    const auto [p, ec] = core::from_chars(v.data(), v.data() + v.size(), d);
    if (v.empty() || ec != std::errc{} || p != v.data() + v.size() || !(d >= 1) || !(d <= 1e6)) {
      return quoted(kind) + ": the terrain cost must be a number from 1 to 1e6";
    }
    e.cost = static_cast<float>(d);
  } else if (kind.substr(0, 5) == "wall-" || kind.substr(0, 5) == "open-") {
    e.kind = kind[0] == 'w' ? Edit::Kind::edge_wall : Edit::Kind::edge_open;
    const std::string_view side = kind.substr(5);
    if (const auto sq = parse_edge_side(side, false)) {
      e.side = static_cast<Side>(*sq);
    } else if (const auto hx = parse_edge_side(side, true)) {  // a hex edge
      e.hex_side = static_cast<std::uint8_t>(*hx);
    } else {
      return quoted(kind) + ": the side must be n, e, s or w (or 0..5 on hex maps)" + hint;
    }
  } else {
    return "unknown edit kind " + quoted(kind) + hint;
  }
  auto cell = [](std::string_view t, int& x, int& y) {
    const std::size_t comma = t.find(',');
    if (comma == std::string_view::npos) return false;
    const std::string_view a = t.substr(0, comma), b = t.substr(comma + 1);
    const auto ra = std::from_chars(a.data(), a.data() + a.size(), x);
    const auto rb = std::from_chars(b.data(), b.data() + b.size(), y);
    return !a.empty() && !b.empty() && ra.ec == std::errc{} && ra.ptr == a.data() + a.size() &&
           rb.ec == std::errc{} && rb.ptr == b.data() + b.size();
  };
  std::string_view rest = text.substr(colon + 1);
  // A floor before the cells (L:X,Y, as the CLI names cells of layered maps).
  std::optional<int> floor;
  if (const std::size_t next = rest.find(':');
      next != std::string_view::npos && rest.substr(0, next).find(',') == std::string_view::npos) {
    const std::string_view l = rest.substr(0, next);
    int v = 0;
    const auto [p, ec] = std::from_chars(l.data(), l.data() + l.size(), v);
    if (l.empty() || ec != std::errc{} || p != l.data() + l.size()) {
      return quoted(l) + " is not a floor" + hint;
    }
    if (map == nullptr) return "a floor (" + quoted(l) + ") needs the map it names" + hint;
    if (v < 0 || v >= map->layers()) {
      return "floor " + std::to_string(v) + " is not on the map (" + std::to_string(map->layers()) +
             (map->layers() == 1 ? " floor)" : " floors)");
    }
    floor = v;
    rest = rest.substr(next + 1);
  }
  const std::size_t second = rest.find(':');
  const std::string_view first = rest.substr(0, second);
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  if (!cell(first, x0, y0)) return quoted(first) + " is not X,Y" + hint;
  x1 = x0;
  y1 = y0;
  if (second != std::string_view::npos) {
    const std::string_view other = rest.substr(second + 1);
    if (!cell(other, x1, y1)) return quoted(other) + " is not X,Y" + hint;
  }
  if (floor) {
    // Rows of that floor: stacked onto the grid's own rows.
    for (const int y : {y0, y1}) {
      if (y < 0 || y >= map->layer_height()) {
        return "row " + std::to_string(y) + " is outside floor " + std::to_string(*floor) + " (" +
               std::to_string(map->layer_height()) + " rows)";
      }
    }
    y0 = map->at(*floor, 0, y0).y;
    y1 = map->at(*floor, 0, y1).y;
  }
  e.area = {std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
  out = e;
  return std::nullopt;
}

std::string class_costs_text(const Unit& u) {
  const Unit plain;
  std::string out;
  for (std::size_t c = 33; c < 127; ++c) {
    // '@' and the aliases 'G' and 'O' are never read ("G=2" would read back as ground).
    if (c == static_cast<unsigned char>(kWallClass) || c == 'G' || c == 'O' ||
        u.cost[c] == plain.cost[c]) {
      continue;
    }
    if (!out.empty()) out += ',';
    out += static_cast<char>(c);
    out += '=';
    if (std::isinf(u.cost[c])) {
      out += 'x';
    } else {
      char buf[32];
      const auto r = core::to_chars(buf, buf + sizeof buf, u.cost[c]);
      out.append(buf, r.ptr);
    }
  }
  return out;
}

double clearance(const Grid& g, const Unit& unit, Cell c) {
  if (!g.in_bounds(c)) return 0;
  detail::UnitCache& cache = g.cache_.get();
  const std::lock_guard lock(cache.mutex);
  const auto& f = cache.field(g, detail::forbidden_set(key_of(unit)));
  const double q = f.q[g.id(c)];
  // Hex: whole hexes free around the cell (q is the hex distance to the nearest blocked one).
  if (is_hex(g.layout())) return q > 0 ? q - 1 : 0;
  return std::sqrt(q) / 2.0;
}

}  // namespace pathlab::grid
