// Waypoint pruning and its string-pulling refinement, over the grid's line of sight.
#include <pathlab/post/smooth.hpp>

#include <cmath>

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

namespace {

double dist(Cell a, Cell b) noexcept {
  return std::hypot(a.x - b.x, a.y - b.y);
}

template <grid::DiagonalRule R>
std::vector<Cell> smooth_rule(const grid::Grid& g, std::span<const Cell> path, Smoothing method,
                              std::uint64_t& checks) {
  auto los = [&](Cell a, Cell b) {
    ++checks;
    return grid::line_of_sight_id<R>(g, g.id(a), g.id(b));
  };
  const std::size_t n = path.size();
  // Greedy pass: indices into path of the kept waypoints.
  std::vector<std::size_t> kept{0};
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (!los(path[kept.back()], path[i + 1])) kept.push_back(i);
  }
  if (n > 1) kept.push_back(n - 1);

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
  std::vector<Cell> out = grid::dispatch_rule(
      rule, [&](auto r) { return smooth_rule<decltype(r)::value>(g, path, method, checks); });
  if (stats != nullptr) stats->los_checks += checks;
  return out;
}

SmoothedPath smooth_result(const grid::Grid& g, const search::Options& o, const search::Result& r,
                           Smoothing method) {
  SmoothedPath out;
  if (r.status != Status::found) return out;
  if (o.algorithm == search::Algorithm::anyangle_exact) {
    out.path = r.path;
    out.points = r.points;
    out.cost = r.cost;
    return out;
  }
  SmoothStats st;
  out.path = smooth(g, o.moves.diagonal, r.path, method, &st);
  out.points.reserve(out.path.size());
  for (const Cell c : out.path) out.points.push_back(centre(c));
  out.cost = length(out.path) * o.moves.straight_cost();
  out.los_checks = st.los_checks;
  return out;
}

}  // namespace pathlab::post
