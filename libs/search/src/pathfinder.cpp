// The Pathfinder: validates a query, picks the algorithm family and its listener
// instantiation, times the query and computes the path cost.
#include <pathlab/search/pathfinder.hpp>

#include <pathlab/core/portable.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <string>

#include "engine.hpp"

namespace pathlab::search {

Pathfinder::Pathfinder(const grid::Grid& grid, Options options)
    : grid_(&grid), options_(options), ws_(std::make_unique<Workspace>()) {}
Pathfinder::~Pathfinder() = default;

std::size_t Pathfinder::memory_bytes() const noexcept {
  const Workspace& w = *ws_;
  std::size_t n = sizeof(Workspace) + w.side[0].bytes() + w.side[1].bytes();
  n += detail::capacity_bytes(w.queue) + detail::capacity_bytes(w.next) +
       detail::capacity_bytes(w.stack) + detail::capacity_bytes(w.scratch) +
       detail::capacity_bytes(w.stamps) + detail::capacity_bytes(w.columns.bits) + w.dip.bytes();
  if (w.exact) n += detail::bytes_of(*w.exact);
  if (w.jps) n += detail::bytes_of(*w.jps);
  if (w.subgoal) n += detail::bytes_of(*w.subgoal);
  if (w.hierarchy) n += detail::bytes_of(*w.hierarchy);
  return n;
}
Pathfinder::Pathfinder(Pathfinder&&) noexcept = default;
Pathfinder& Pathfinder::operator=(Pathfinder&&) noexcept = default;

namespace {

/// validate() without the unit, which searched_grid() checks when the unit changes: the part
/// every query runs.
bool valid_search_options(const Options& o) noexcept {
  const double w = o.effective_weight();
  return w >= 0 && std::isfinite(w) && o.node_limit >= 1;
}

}  // namespace

std::optional<std::string> validate(const Options& o) {
  const double w = o.effective_weight();
  if (!(w >= 0) || !std::isfinite(w)) {
    char text[32];
    const auto r = core::to_chars(text, text + sizeof text, w);
    return "weight " + std::string(text, r.ptr) + ": the weight must be a finite number >= 0";
  }
  if (o.node_limit < 1) return "node limit must be at least 1";
  if (auto bad = grid::validate(o.unit)) return bad;
  return std::nullopt;
}

namespace {

template <class L>
Status dispatch(const grid::Grid& g, const Options& o, grid::NodeId s, grid::NodeId t,
                Pathfinder::Workspace& ws, Result& out, L& listener) {
  if (!g.plain()) {
    // Algorithms made for plain square maps answer through one that knows this map's kind.
    const FallbackInfo f = detail::fallback_on(g, o);
    if (f.fallback == Fallback::map_kind) {
      detail::set_fallback(out, f);
      Options by = o;
      by.algorithm = f.answered_by;
      if (f.answered_by == Algorithm::theta)
        return detail::run_theta(g, by, s, t, ws, out, listener);
      return detail::run_best_first(g, by, s, t, ws, out, listener);
    }
  }
  switch (o.algorithm) {
    case Algorithm::bfs:
    case Algorithm::dfs:
    case Algorithm::iddfs:
    case Algorithm::bibfs:
      return detail::run_unit_cost(g, o, s, t, ws, out, listener);
    case Algorithm::biastar:
      return detail::run_bidirectional_astar(g, o, s, t, ws, out, listener);
    case Algorithm::idastar:
      return detail::run_idastar(g, o, s, t, ws, out, listener);
    case Algorithm::theta:
    case Algorithm::lazytheta:
      return detail::run_theta(g, o, s, t, ws, out, listener);
    case Algorithm::anyangle_exact:
    case Algorithm::anyangle_labels:
      return detail::run_anyangle_exact(g, o, s, t, ws, out, listener);
    case Algorithm::jps:
    case Algorithm::jps_plus:
      return detail::run_jps(g, o, s, t, ws, out, listener);
    case Algorithm::subgoal:
    case Algorithm::subgoal_ch:
      return detail::run_subgoal(g, o, s, t, ws, out, listener);
    case Algorithm::dijkstra:
    case Algorithm::greedy:
    case Algorithm::astar:
    case Algorithm::wastar:
      break;
  }
  return detail::run_best_first(g, o, s, t, ws, out, listener);
}

}  // namespace

const grid::Grid* Pathfinder::searched_grid() const noexcept {
  Workspace& w = *ws_;
  // The unit compared bit for bit: operator== would compare its 128 costs as floats, a third
  // of a short query's fixed cost (equal bits are an equal unit; a false "changed" only
  // rebuilds the view).
  if (w.view_for != nullptr && w.view_base == grid_->revision() &&
      w.view_unit.radius == options_.unit.radius &&
      std::memcmp(w.view_unit.cost.data(), options_.unit.cost.data(), sizeof options_.unit.cost) ==
          0) {
    return w.view_for;
  }
  if (grid::validate(options_.unit)) return nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    w.view_grid.reset();
    w.view_for = nullptr;
    if (!grid_->sees_alike(options_.unit)) w.view_grid = grid_->view(options_.unit);
  } catch (const std::exception&) {
    return nullptr;
  }
  w.view_for = w.view_grid ? w.view_grid.get() : grid_;
  w.view_base = grid_->revision();
  w.view_unit = options_.unit;
  w.prep_us +=
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return w.view_for;
}

Status Pathfinder::find(Cell start, Cell goal, Result& out, SearchListener* listener) noexcept {
  return query(start, std::span<const Cell>(&goal, 1), out, listener);
}

Status Pathfinder::find_nearest(Cell start, std::span<const Cell> goals, Result& out,
                                SearchListener* listener) noexcept {
  return query(start, goals, out, listener);
}

std::optional<Cell> centre_cell(Point p) noexcept {
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (!(p.x - fx == 0.5 && p.y - fy == 0.5) || !(std::abs(fx) < 1e9 && std::abs(fy) < 1e9)) {
    return std::nullopt;
  }
  return Cell{static_cast<std::int32_t>(fx), static_cast<std::int32_t>(fy)};
}

std::optional<Cell> point_cell(const grid::Grid& g, Point p) noexcept {
  const auto e = detail::exact_point(g, p);
  if (!e) return std::nullopt;
  return e->cell;
}

namespace {

/// A query's Result before it runs: nothing found, its vectors emptied (capacity kept).
void begin_result(Result& out, Algorithm a) noexcept {
  out.path.clear();
  out.points.clear();
  out.cost = 0;
  out.stats = Stats{};
  out.note = {};
  out.answered_by = a;
  out.fallback = Fallback::none;
  out.partial.path.clear();
  out.partial.cost = 0;
}

}  // namespace

bool answers_points(Algorithm a) noexcept {
  return a == Algorithm::anyangle_exact || a == Algorithm::anyangle_labels;
}

Status Pathfinder::find_points(Point start, Point goal, Result& out,
                               SearchListener* listener) noexcept {
  return query_points(start, goal, false, out, listener);
}

Status Pathfinder::find_corners(Cell start, Cell goal, Result& out,
                                SearchListener* listener) noexcept {
  return query_points({static_cast<double>(start.x), static_cast<double>(start.y)},
                      {static_cast<double>(goal.x), static_cast<double>(goal.y)}, true, out,
                      listener);
}

Status Pathfinder::query_points(Point start, Point goal, bool corners, Result& out,
                                SearchListener* listener) noexcept {
  const auto t0 = std::chrono::steady_clock::now();
  // Cell centres with another algorithm: the cell query answers.
  if (!answers_points(options_.algorithm) && !corners) {
    const auto sc = centre_cell(start), tc = centre_cell(goal);
    if (sc && tc) return find(*sc, *tc, out, listener);
  }
  begin_result(out, options_.algorithm);
  out.status = Status::invalid_input;
  ws_->prep_us = 0;
  ws_->sliced_active = false;
  ws_->resume = false;
  const grid::Grid* gp = valid_search_options(options_) ? searched_grid() : nullptr;
  if (gp == nullptr || !answers_points(options_.algorithm) || !gp->plain()) return out.status;
  const grid::Grid& g = *gp;
  std::optional<detail::ExactPoint> s, t;
  if (corners) {
    // find_corners passed whole cells as points.
    s = detail::exact_corner(
        g, {static_cast<std::int32_t>(start.x), static_cast<std::int32_t>(start.y)});
    t = detail::exact_corner(
        g, {static_cast<std::int32_t>(goal.x), static_cast<std::int32_t>(goal.y)});
  } else {
    s = detail::exact_point(g, start);
    t = detail::exact_point(g, goal);
  }
  if (!s || !t) return out.status;
  try {
    if (listener != nullptr) {
      detail::DynamicListener l{g, *listener};
      out.status = detail::run_anyangle_exact_points(g, options_, *s, *t, *ws_, out, l);
    } else {
      detail::NullListener l;
      out.status = detail::run_anyangle_exact_points(g, options_, *s, *t, *ws_, out, l);
    }
  } catch (const std::bad_alloc&) {
    out.status = Status::invalid_input;
    out.path.clear();
    out.points.clear();
  }
  out.stats.iterations = 1;
  if (out.status == Status::found) {
    out.cost = polyline_length(out.points) * options_.moves.straight_cost();
  }
  out.stats.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() -
      ws_->prep_us;
  return out.status;
}

Status Pathfinder::query(Cell start, std::span<const Cell> goals, Result& out,
                         SearchListener* listener) noexcept {
  const auto t0 = std::chrono::steady_clock::now();
  begin_result(out, options_.algorithm);
  ws_->prep_us = 0;
  ws_->sliced_active = false;  // one query at a time: a plain query cancels a sliced one
  ws_->resume = false;
  const grid::Grid* gp = valid_search_options(options_) ? searched_grid() : nullptr;
  bool valid = gp != nullptr && gp->passable(start) && !goals.empty();
  for (const Cell goal : goals) valid = valid && gp->passable(goal);
  if (!valid) {
    out.status = Status::invalid_input;
    return out.status;
  }
  const grid::Grid& g = *gp;
  Workspace& ws = *ws_;
  try {
    const grid::NodeId s = g.id(start);
    auto run = [&](grid::NodeId t, Result& r, auto& l) {
      return dispatch(g, options_, s, t, ws, r, l);
    };
    auto run_all = [&](auto& l) -> Status {
      if (goals.size() == 1) return run(g.id(goals[0]), out, l);
      ws.goal_ids.clear();
      for (const Cell goal : goals) ws.goal_ids.push_back(g.id(goal));
      if (detail::best_first_family(options_.algorithm)) {
        return detail::run_multi_goal(g, options_, s, ws.goal_ids, ws, out, l);
      }
      // Once per goal, the cheapest kept; then the winner again with the listener, so that a
      // trace replays to the result.
      Status best = Status::no_path;
      double best_cost = detail::kInf;
      std::size_t best_goal = 0;
      Stats total;
      detail::NullListener quiet;
      for (std::size_t i = 0; i < goals.size(); ++i) {
        Result& r = ws.goal_result;
        r.path.clear();
        r.points.clear();
        r.stats = Stats{};
        r.answered_by = options_.algorithm;
        r.fallback = Fallback::none;
        r.note = {};
        const Status st = run(ws.goal_ids[i], r, quiet);
        total.expanded += r.stats.expanded;
        total.generated += r.stats.generated;
        total.reopened += r.stats.reopened;
        total.los_checks += r.stats.los_checks;
        total.peak_open = std::max(total.peak_open, r.stats.peak_open);
        if (st == Status::found) {
          const double c = info(r.answered_by).any_angle
                               ? polyline_length(path_points(r))
                               : grid::path_cost(g, options_.moves, r.path);
          if (c < best_cost - 1e-12) {
            best_cost = c;
            best_goal = i;
            best = Status::found;
          }
        } else if (st == Status::node_limit && best != Status::found) {
          best = Status::node_limit;
        }
      }
      if (best != Status::found) {
        out.stats = total;
        out.answered_by = ws.goal_result.answered_by;  // how the last goal was answered
        out.fallback = ws.goal_result.fallback;
        out.note = ws.goal_result.note;
        return best;
      }
      const Status st = run(ws.goal_ids[best_goal], out, l);
      out.stats = total;
      return st;
    };
    if (listener != nullptr) {
      detail::DynamicListener l{g, *listener};
      out.status = run_all(l);
    } else {
      detail::NullListener l;
      out.status = run_all(l);
    }
    if (options_.partial && (out.status == Status::no_path || out.status == Status::node_limit)) {
      ws.goal_ids.clear();
      for (const Cell goal : goals) ws.goal_ids.push_back(g.id(goal));
      detail::run_partial(g, options_, s, ws.goal_ids, ws, out.partial);
      out.partial.cost = grid::path_cost(g, options_.moves, out.partial.path);
    }
  } catch (const std::bad_alloc&) {
    // Only the first query on a grid allocates (the workspace); report it as a bad query
    // instead of throwing through the no-throw API.
    out.status = Status::invalid_input;
    out.path.clear();
    out.points.clear();
  }
  if (out.stats.iterations == 0) out.stats.iterations = 1;
  if (out.status == Status::found) {
    if (info(out.answered_by).any_angle) {
      if (out.points.empty()) {
        for (const Cell c : out.path) out.points.push_back(centre(c));
      }
      out.cost = polyline_length(out.points) * options_.moves.straight_cost();
    } else {
      out.cost = grid::path_cost(g, options_.moves, out.path);
    }
  }
  // Building per-grid preprocessed data (the JPS+ table) on a first query is preparation,
  // reported by prepared_info(), not query time.
  out.stats.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() -
      ws.prep_us;
  return out.status;
}

bool Pathfinder::start_sliced(Cell start, Cell goal) noexcept {
  Workspace& w = *ws_;
  w.sliced_active = false;
  w.prep_us = 0;
  const grid::Grid* g = valid_search_options(options_) ? searched_grid() : nullptr;
  if (g == nullptr || !g->passable(start) || !g->passable(goal)) return false;
  w.sliced_active = true;
  w.sliced_grid = g;
  w.sliced_revision = g->revision();
  w.sliced_start = g->id(start);
  w.sliced_goal = g->id(goal);
  w.sliced_options = options_;
  w.sliced_stats = Stats{};
  w.resume = false;
  return true;
}

bool Pathfinder::sliced_active() const noexcept {
  return ws_->sliced_active;
}

void Pathfinder::cancel_sliced() noexcept {
  ws_->sliced_active = false;
  ws_->resume = false;
}

bool Pathfinder::run_slice(std::uint64_t max_expansions, Result& out) noexcept {
  const auto t0 = std::chrono::steady_clock::now();
  Workspace& w = *ws_;
  out.path.clear();
  out.points.clear();
  out.cost = 0;
  out.note = {};
  out.answered_by = w.sliced_active ? w.sliced_options.algorithm : options_.algorithm;
  out.fallback = Fallback::none;
  out.partial.path.clear();
  if (!w.sliced_active) {
    out.stats = Stats{};
    out.status = Status::invalid_input;
    return true;
  }
  w.prep_us = 0;
  const grid::Grid* g = searched_grid();
  if (g == nullptr || g != w.sliced_grid || g->revision() != w.sliced_revision) {
    // The grid (or the unit's view) changed between slices: start again on it.
    const Cell s = w.sliced_grid->cell(w.sliced_start), t = w.sliced_grid->cell(w.sliced_goal);
    const Options keep = options_;
    options_ = w.sliced_options;
    const bool ok = start_sliced(s, t);
    options_ = keep;
    if (!ok) {
      out.stats = Stats{};
      out.status = Status::invalid_input;
      return true;
    }
    g = w.sliced_grid;
  }
  const Algorithm a = w.sliced_options.algorithm;
  const bool sliceable =
      detail::best_first_family(a) || a == Algorithm::jps || a == Algorithm::jps_plus;
  Options o = w.sliced_options;
  const std::uint64_t limit = w.sliced_options.node_limit;
  if (sliceable) {
    const std::uint64_t step = std::max<std::uint64_t>(1, max_expansions);
    o.node_limit = std::min(limit, w.sliced_stats.expanded + std::min(step, limit));
  }
  out.stats = w.sliced_stats;
  const double before_us = out.stats.time_us;
  try {
    detail::NullListener l;
    out.status = dispatch(*g, o, w.sliced_start, w.sliced_goal, w, out, l);
  } catch (const std::bad_alloc&) {
    out.status = Status::invalid_input;
  }
  w.resume = true;
  const double slice_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() -
      w.prep_us;
  out.stats.time_us = before_us + slice_us;
  w.sliced_stats = out.stats;
  if (out.status == Status::node_limit && out.stats.expanded < limit) {
    out.path.clear();
    return false;  // the slice is spent; the search goes on in the next one
  }
  w.sliced_active = false;
  w.resume = false;
  if (out.stats.iterations == 0) out.stats.iterations = 1;
  if (out.status == Status::found) {
    if (info(out.answered_by).any_angle) {
      if (out.points.empty()) {
        for (const Cell c : out.path) out.points.push_back(centre(c));
      }
      out.cost = polyline_length(out.points) * o.moves.straight_cost();
    } else {
      out.cost = grid::path_cost(*g, o.moves, out.path);
    }
  }
  return true;
}

Status Pathfinder::reach(Cell start, double budget, std::vector<ReachCell>& out) noexcept {
  out.clear();
  ws_->prep_us = 0;
  ws_->sliced_active = false;  // one query at a time
  ws_->resume = false;
  const grid::Grid* gp = valid_search_options(options_) ? searched_grid() : nullptr;
  if (gp == nullptr || !gp->passable(start) || !(budget >= 0)) {
    return Status::invalid_input;
  }
  try {
    return detail::run_reach(*gp, options_, gp->id(start), budget, *ws_, out);
  } catch (const std::bad_alloc&) {
    out.clear();
    return Status::invalid_input;
  }
}

std::vector<Point> path_points(const Result& r) {
  if (!r.points.empty()) return r.points;
  std::vector<Point> out;
  out.reserve(r.path.size());
  for (const Cell c : r.path) out.push_back(centre(c));
  return out;
}

double polyline_length(std::span<const Point> points) noexcept {
  double len = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    len += std::hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y);
  }
  return len;
}

Result Pathfinder::find(Cell start, Cell goal, SearchListener* listener) noexcept {
  Result r;
  find(start, goal, r, listener);
  return r;
}

}  // namespace pathlab::search
