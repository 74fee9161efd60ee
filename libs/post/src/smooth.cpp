// Waypoint pruning and its string-pulling refinement, over the grid's line of sight.
#include <pathlab/post/smooth.hpp>

#include <cmath>
#include <cstdlib>

#include <pathlab/grid/hex.hpp>

#include <pathlab/grid/los.hpp>

namespace pathlab::post {

std::string_view to_string(Smoothing s) noexcept {
  return s == Smoothing::greedy ? "greedy" : "refined";
}

std::optional<Smoothing> parse_smoothing(std::string_view s) noexcept {
  if (s == "greedy") return Smoothing::greedy;
  if (s == "refined") return Smoothing::refined;
  return std::nullopt;
}

double length(std::span<const Cell> waypoints) noexcept {
  double len = 0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    len += std::hypot(waypoints[i].x - waypoints[i - 1].x, waypoints[i].y - waypoints[i - 1].y);
  }
  return len;
}

Point point_of(const grid::Grid& g, Cell c) noexcept {
  return grid::is_hex(g.layout()) ? grid::hex::centre(g.layout(), c.x, c.y) : centre(c);
}

std::optional<double> link_cost(const grid::Grid& g, Cell a, Cell b) noexcept {
  if (!g.in_bounds(a) || !g.in_bounds(b)) return std::nullopt;
  const grid::NodeId to = g.id(b);
  std::optional<double> best;
  for (const grid::Grid::Arc& arc : g.out_links(g.id(a))) {
    if (arc.to == to && (!best || arc.cost < *best)) best = arc.cost;
  }
  return best;
}

namespace {

/// Whether a -> b is a grid move of the map's layout (same floor, neighbours, in sight of each
/// other: for neighbours that is the move's legality); any other step is a link.
bool grid_step(const grid::Grid& g, grid::DiagonalRule rule, Cell a, Cell b) noexcept {
  if (!g.in_bounds(a) || !g.in_bounds(b) || g.layer_of(a.y) != g.layer_of(b.y)) return false;
  if (grid::is_hex(g.layout())) {
    if (grid::hex::distance(g.layout(), a, b) != 1) return false;
  } else if (std::abs(a.x - b.x) > 1 || std::abs(a.y - b.y) > 1 || a == b) {
    return false;
  }
  return grid::line_of_sight(g, rule, a, b);
}

}  // namespace

double length(const grid::Grid& g, std::span<const Cell> waypoints, double straight,
              grid::DiagonalRule rule) noexcept {
  if (g.plain()) return length(waypoints) * straight;
  double len = 0;
  for (std::size_t i = 1; i < waypoints.size(); ++i) {
    const Cell a = waypoints[i - 1], b = waypoints[i];
    const Point p = point_of(g, a), q = point_of(g, b);
    const double segment = std::hypot(p.x - q.x, p.y - q.y) * straight;
    const std::optional<double> link = link_cost(g, a, b);
    if (link && (g.layer_of(a.y) != g.layer_of(b.y) || *link < segment ||
                 !grid::line_of_sight(g, rule, a, b))) {
      len += *link;
    } else {
      len += segment;
    }
  }
  return len;
}

namespace {

/// Prunes path[first..last] (a run of grid moves on one floor): indices of the kept waypoints,
/// appended to `kept` (the run's first and last always).
template <grid::DiagonalRule R, bool General>
void smooth_run(const grid::Grid& g, std::span<const Cell> path, std::size_t first,
                std::size_t last, Smoothing method, std::uint64_t& checks,
                std::vector<std::size_t>& out) {
  auto los = [&](Cell a, Cell b) {
    ++checks;
    if constexpr (General) {
      return grid::line_of_sight_any<R>(g, g.id(a), g.id(b));
    } else {
      return grid::line_of_sight_id<R>(g, g.id(a), g.id(b));
    }
  };
  const bool hex = grid::is_hex(g.layout());
  auto dist = [&](Cell a, Cell b) {
    if (!hex) return std::hypot(a.x - b.x, a.y - b.y);
    const Point p = point_of(g, a), q = point_of(g, b);
    return std::hypot(p.x - q.x, p.y - q.y);
  };
  // Greedy pass: indices into path of the kept waypoints.
  std::vector<std::size_t> kept{first};
  for (std::size_t i = first + 1; i < last; ++i) {
    if (!los(path[kept.back()], path[i + 1])) kept.push_back(i);
  }
  if (last > first) kept.push_back(last);

  if (method == Smoothing::refined) {
    // String pulling over the path's cells until a pass changes nothing (a handful of passes;
    // the cap only bounds pathological inputs).
    for (int pass = 0; pass < 16; ++pass) {
      bool changed = false;
      std::size_t k = 1;
      while (k + 1 < kept.size()) {
        const Cell a = path[kept[k - 1]], c = path[kept[k + 1]];
        if (los(a, c)) {
          kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(k));
          changed = true;
          continue;
        }
        double best = dist(a, path[kept[k]]) + dist(path[kept[k]], c);
        std::size_t best_j = kept[k];
        for (std::size_t j = kept[k - 1] + 1; j < kept[k + 1]; ++j) {
          const double d = dist(a, path[j]) + dist(path[j], c);
          if (d < best - 1e-12 && los(a, path[j]) && los(path[j], c)) {
            best = d;
            best_j = j;
          }
        }
        if (best_j != kept[k]) {
          kept[k] = best_j;
          changed = true;
        }
        ++k;
      }
      if (!changed) break;
    }
  }
  out.insert(out.end(), kept.begin(), kept.end());
}

template <grid::DiagonalRule R, bool General>
std::vector<Cell> smooth_rule(const grid::Grid& g, std::span<const Cell> path, Smoothing method,
                              std::uint64_t& checks) {
  const std::size_t n = path.size();
  std::vector<std::size_t> kept;
  if constexpr (!General) {
    smooth_run<R, General>(g, path, 0, n - 1, method, checks, kept);
  } else {
    // Runs of grid moves, each pruned on its own; a link step keeps both its ends.
    std::size_t first = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (grid_step(g, R, path[i], path[i + 1])) continue;
      smooth_run<R, General>(g, path, first, i, method, checks, kept);
      first = i + 1;
    }
    smooth_run<R, General>(g, path, first, n - 1, method, checks, kept);
  }
  std::vector<Cell> out;
  out.reserve(kept.size());
  for (const std::size_t i : kept) out.push_back(path[i]);
  return out;
}

}  // namespace

std::vector<Cell> smooth(const grid::Grid& g, grid::DiagonalRule rule, std::span<const Cell> path,
                         Smoothing method, SmoothStats* stats) {
  if (path.empty()) return {};
  for (const Cell c : path) {
    if (!g.in_bounds(c)) return {path.begin(), path.end()};  // not a path on this grid
  }
  std::uint64_t checks = 0;
  std::vector<Cell> out = grid::dispatch_rule(rule, [&](auto r) {
    constexpr grid::DiagonalRule R = decltype(r)::value;
    return g.plain() ? smooth_rule<R, false>(g, path, method, checks)
                     : smooth_rule<R, true>(g, path, method, checks);
  });
  if (stats != nullptr) stats->los_checks += checks;
  return out;
}

SmoothedPath smooth_result(const grid::Grid& g, const search::Options& o, const search::Result& r,
                           Smoothing method) {
  SmoothedPath out;
  if (r.status != Status::found) return out;
  if (search::answers_points(o.algorithm)) {
    out.path = r.path;
    out.points = r.points;
    out.cost = r.cost;
    return out;
  }
  SmoothStats st;
  out.path = smooth(g, o.moves.diagonal, r.path, method, &st);
  out.points.reserve(out.path.size());
  for (const Cell c : out.path) out.points.push_back(point_of(g, c));
  out.cost = length(g, out.path, o.moves.straight_cost(), o.moves.diagonal);
  out.los_checks = st.los_checks;
  return out;
}

}  // namespace pathlab::post
