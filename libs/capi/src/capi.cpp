// The C ABI (pathlab/pathlab.h) over the library: each call checks its arguments, converts them,
// calls the C++ API and turns every failure (a status, a message, an exception) into a
// pathlab_status and this thread's message. No algorithm lives here.
#define PATHLAB_BUILDING_C_API
#include <pathlab/pathlab.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>
#include <pathlab/link/solver.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/batch.hpp>
#include <pathlab/search/pathfinder.hpp>

struct pathlab_grid {
  pathlab::grid::Grid grid;
};

// A finder and the memory its answers point into (each buffer is reused from call to call).
struct pathlab_finder {
  explicit pathlab_finder(pathlab::search::Pathfinder f) : finder(std::move(f)) {}
  pathlab::search::Pathfinder finder;
  pathlab::search::Result result;
  std::vector<std::int32_t> path;
  std::vector<std::int32_t> partial_path;
  std::vector<pathlab::Cell> goals;
  std::vector<pathlab::search::ReachCell> reach;
  std::vector<std::int32_t> reach_cells;
  std::vector<double> reach_costs;
  std::vector<pathlab::Cell> to_smooth;
  std::vector<std::int32_t> smoothed;
};

struct pathlab_field {
  pathlab::flow::Field field;
  std::vector<double> distance;
  std::vector<std::int8_t> direction;
};

// A world and its state as the C structs give it, refreshed after every change.
struct pathlab_world {
  explicit pathlab_world(pathlab::agents::World w) : world(std::move(w)) {}
  pathlab::agents::World world;
  std::vector<pathlab_agent_state> states;
  std::vector<pathlab_agent_metrics> metrics;
  std::vector<pathlab_obstacle_state> obstacles;
  std::vector<double> obstacle_points;
};

// A Link board and the memory its answers point into.
struct pathlab_board {
  pathlab::link::Board board;
  std::vector<std::int32_t> points;
  std::vector<std::int32_t> moves;
};

namespace {

namespace grid = pathlab::grid;
namespace search = pathlab::search;
namespace agents = pathlab::agents;
namespace link = pathlab::link;
using pathlab::Cell;

thread_local std::string last_error;

pathlab_status fail(pathlab_status s, std::string message) noexcept {
  try {
    last_error = std::move(message);
  } catch (...) {
    last_error.clear();  // no memory for the message: the status still says what happened
  }
  return s;
}

// Runs f, turning whatever it throws into a status and a message.
template <class F>
pathlab_status guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(PATHLAB_OUT_OF_MEMORY, "out of memory");
  } catch (const pathlab::ParseError& e) {
    return fail(PATHLAB_PARSE_ERROR, e.what());
  } catch (const std::exception& e) {
    return fail(PATHLAB_INVALID, e.what());
  } catch (...) {
    return fail(PATHLAB_INVALID, "unknown error");
  }
}

pathlab_status null_argument(const char* call, const char* name) {
  return fail(PATHLAB_INVALID, std::string(call) + ": " + name + " is NULL");
}

std::string cell_text(pathlab::Cell c) {
  return std::to_string(c.x) + "," + std::to_string(c.y);
}

// The C++ options for C options (NULL: the defaults), or a message.
std::optional<std::string> to_options(const pathlab_options* in, search::Options& out) {
  out = {};
  if (in == nullptr) return std::nullopt;
  if (in->algorithm != nullptr) {
    const auto a = search::parse_algorithm(in->algorithm);
    if (!a)
      return "unknown algorithm '" + std::string(in->algorithm) + "' (see pathlab algorithms)";
    out.algorithm = *a;
  }
  if (in->diagonal != nullptr) {
    const auto d = grid::parse_diagonal_rule(in->diagonal);
    if (!d) {
      return "unknown diagonal rule '" + std::string(in->diagonal) +
             "' (never, no-corner-cut, one-corner or always)";
    }
    out.moves.diagonal = *d;
  }
  if (in->weight != 0) out.weight = in->weight;
  out.unit.radius = in->radius;
  if (in->class_costs != nullptr) {
    if (auto bad = grid::parse_class_costs(in->class_costs, out.unit)) {
      return "class costs '" + std::string(in->class_costs) + "': " + *bad;
    }
  }
  if (in->node_limit != 0) out.node_limit = in->node_limit;
  return search::validate(out);
}

// Why a unit may not stand on c, or nothing when it may.
std::optional<std::string> footing_problem(const grid::Grid& g, const grid::Unit& u,
                                           pathlab::Cell c, const char* what) {
  switch (grid::footing(g, u, c)) {
    case grid::Footing::ok:
      return std::nullopt;
    case grid::Footing::outside:
      return std::string(what) + " " + cell_text(c) + " is outside the " +
             std::to_string(g.width()) + "x" + std::to_string(g.height()) + " map";
    case grid::Footing::wall:
      return std::string(what) + " " + cell_text(c) + " is a wall";
    case grid::Footing::forbidden_class:
      return std::string(what) + " " + cell_text(c) + " is on '" +
             std::string(1, g.cell_class(c.x, c.y)) + "', a class the unit may not enter";
    case grid::Footing::too_close:
      return std::string(what) + " " + cell_text(c) +
             " is closer than the unit's radius to a square it cannot enter";
  }
  return std::nullopt;
}

pathlab_status to_status(pathlab::Status s) noexcept {
  switch (s) {
    case pathlab::Status::found:
      return PATHLAB_OK;
    case pathlab::Status::no_path:
      return PATHLAB_NO_PATH;
    case pathlab::Status::node_limit:
      return PATHLAB_NODE_LIMIT;
    case pathlab::Status::invalid_input:
      break;
  }
  return PATHLAB_INVALID;
}

// x0, y0, x1, y1, ... of cells, into out (reusing its storage).
void flatten(std::span<const Cell> cells, std::vector<std::int32_t>& out) {
  out.clear();
  out.reserve(2 * cells.size());
  for (const Cell c : cells) {
    out.push_back(c.x);
    out.push_back(c.y);
  }
}

std::string outside_map(const grid::Grid& g, Cell c, const std::string& what) {
  return what + " " + cell_text(c) + " is outside the " + std::to_string(g.width()) + "x" +
         std::to_string(g.height()) + " map";
}

// The reason the finder refused a query from start to goals. The search checks its ends
// itself: the reason is worked out only for a refusal.
pathlab_status refused_query(const pathlab_finder& f, Cell start, std::span<const Cell> goals) {
  const grid::Grid& g = f.finder.grid();
  const grid::Unit& unit = f.finder.options().unit;
  auto bad = footing_problem(g, unit, start, "start");
  for (std::size_t i = 0; !bad && i < goals.size(); ++i)
    bad = footing_problem(g, unit, goals[i], "goal");
  if (bad) return fail(PATHLAB_INVALID, *bad);
  // Both ends are usable and the options were checked when the finder was made: the search
  // refused because its workspace could not be allocated.
  return fail(PATHLAB_OUT_OF_MEMORY, "memory ran out: no room for the search's workspace on the " +
                                         std::to_string(g.width()) + "x" +
                                         std::to_string(g.height()) + " map");
}

// Why a finder has no grid to search for its unit (Pathfinder::searched_grid() gave none): a
// unit the grid refuses (on a hex layout, a radius that is not a whole number of hexes) is
// PATHLAB_INVALID with the grid's reason; otherwise memory ran out.
pathlab_status no_searched_grid(const pathlab_finder& f) {
  try {
    (void)f.finder.grid().view(f.finder.options().unit);
  } catch (const std::bad_alloc&) {
    return fail(PATHLAB_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(PATHLAB_INVALID, e.what());
  }
  return fail(PATHLAB_OUT_OF_MEMORY, "out of memory");
}

// The answer s of the finder's last search (not a refusal) into out.
pathlab_status answer(pathlab_finder& f, pathlab_status s, pathlab_result* out) {
  const search::Result& r = f.result;
  flatten(r.path, f.path);
  out->cost = s == PATHLAB_OK ? r.cost : 0;
  out->expanded = r.stats.expanded;
  out->time_us = r.stats.time_us;
  out->path = f.path.data();
  out->path_cells = r.path.size();
  return s;
}

// Turns the partial path search (Options::partial) on for one query, and off again after it:
// a C finder keeps it off, so that pathlab_find pays nothing for it.
class PartialFor {
 public:
  PartialFor(search::Pathfinder& f, bool on) noexcept : f_(on ? &f : nullptr) {
    if (f_ != nullptr) set(true);
  }
  ~PartialFor() {
    if (f_ != nullptr) set(false);
  }
  PartialFor(const PartialFor&) = delete;
  PartialFor& operator=(const PartialFor&) = delete;

 private:
  void set(bool on) noexcept {
    search::Options o = f_->options();
    o.partial = on;
    f_->set_options(o);
  }
  search::Pathfinder* f_;
};

// A search from start to the finder's goals (f.goals), with the partial path when asked for.
pathlab_status find_goals(pathlab_finder& f, Cell start, pathlab_result* out,
                          pathlab_partial* partial) {
  search::Result& r = f.result;
  pathlab_status s;
  {
    const PartialFor on(f.finder, partial != nullptr);
    s = to_status(f.finder.find_nearest(start, f.goals, r));
  }
  if (s == PATHLAB_INVALID) return refused_query(f, start, f.goals);
  if (partial != nullptr && s != PATHLAB_OK && !r.partial.path.empty()) {
    flatten(r.partial.path, f.partial_path);
    partial->reached_x = r.partial.reached.x;
    partial->reached_y = r.partial.reached.y;
    partial->cost = r.partial.cost;
    partial->path = f.partial_path.data();
    partial->path_cells = r.partial.path.size();
  }
  return answer(f, s, out);
}

// ---- The simulation.

// Whether (x, y) lies on the map, its right and bottom edges included (false for NaN).
bool on_map(const grid::Grid& g, double x, double y) {
  return x >= 0 && y >= 0 && x <= g.width() && y <= g.height();
}

std::string point_text(double x, double y) {
  // Built with append(): g++ 12 gives a false -Wrestrict on "(" + std::string.
  std::string out("(");
  out.append(std::to_string(x)).append(", ").append(std::to_string(y)).append(")");
  return out;
}

std::optional<std::string> planner_named(const char* name, agents::PlannerKind& out) {
  const auto p = agents::parse_planner(name);
  if (!p) {
    return "unknown planner '" + std::string(name) + "' (hybrid, apf, replan, dstar or flow)";
  }
  out = *p;
  return std::nullopt;
}

// The C structs of the world's agents and obstacles, as they are now.
void refresh(pathlab_world& w) {
  const std::vector<agents::AgentState>& as = w.world.agents();
  w.states.resize(as.size());
  w.metrics.resize(as.size());
  for (std::size_t i = 0; i < as.size(); ++i) {
    const agents::AgentState& a = as[i];
    w.states[i] = {a.spec.id,     a.arrived,     a.colliding,  a.waiting,
                   a.position.x,  a.position.y,  a.velocity.x, a.velocity.y,
                   a.spec.goal.x, a.spec.goal.y, a.spec.radius};
    const agents::AgentMetrics& m = a.metrics;
    w.metrics[i] = {m.id,
                    m.arrived,
                    m.time,
                    m.path_length,
                    m.optimal_length,
                    m.min_clearance,
                    m.collisions,
                    m.stalls,
                    m.local_replans,
                    m.global_replans,
                    m.collision_time};
  }
  const std::vector<agents::Obstacle>& os = w.world.spec().obstacles;
  const double t = w.world.time();
  w.obstacle_points.clear();
  for (const agents::Obstacle& o : os) {
    for (const agents::Vec2 p : o.shape.points) {
      w.obstacle_points.push_back(p.x);
      w.obstacle_points.push_back(p.y);
    }
  }
  w.obstacles.resize(os.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < os.size(); ++i) {
    const agents::Obstacle& o = os[i];
    const agents::Vec2 p = o.position(t), v = o.velocity(t);
    const std::size_t n = o.shape.points.size();
    w.obstacles[i] = {o.id,
                      static_cast<std::int32_t>(o.shape.kind),
                      o.present(t),
                      0,
                      p.x,
                      p.y,
                      v.x,
                      v.y,
                      o.shape.radius,
                      n == 0 ? nullptr : w.obstacle_points.data() + at,
                      n};
    at += 2 * n;
  }
}

pathlab_status new_world(agents::WorldSpec spec, const std::string& where, pathlab_world** out) {
  std::unique_ptr<pathlab_world> w;
  try {
    w = std::make_unique<pathlab_world>(agents::World(std::move(spec)));
  } catch (const std::invalid_argument& e) {
    return fail(PATHLAB_INVALID, where + e.what());
  }
  refresh(*w);
  *out = w.release();
  return PATHLAB_OK;
}

// A world from a scenario read by `read`, every agent given `planner` unless it is NULL.
template <class Read>
pathlab_status world_from_scenario(const char* call, const char* planner, pathlab_world** out,
                                   Read&& read) {
  if (out == nullptr) return null_argument(call, "out");
  *out = nullptr;
  std::optional<agents::PlannerKind> kind;
  if (planner != nullptr) {
    agents::PlannerKind k{};
    if (auto bad = planner_named(planner, k)) return fail(PATHLAB_INVALID, *bad);
    kind = k;
  }
  return guarded([&] {
    agents::Scenario sc = read();
    if (kind) {
      for (agents::AgentSpec& a : sc.world.agents) a.planner = *kind;
    }
    return new_world(std::move(sc.world), sc.path + ": ", out);
  });
}

// ---- The Link game.

std::optional<std::string> gravity_named(const char* name, link::Gravity& out) {
  out = link::Gravity::none;
  if (name == nullptr) return std::nullopt;
  const auto g = link::parse_gravity(name);
  if (!g) {
    return "unknown gravity '" + std::string(name) + "' (none, down, up, left, right or centre)";
  }
  out = *g;
  return std::nullopt;
}

// Why a and b cannot be asked about as a pair of tiles, or nothing.
std::optional<std::string> pair_problem(const link::Board& b, Cell p, Cell q) {
  for (const Cell c : {p, q}) {
    if (!b.inside(c)) {
      return "cell " + cell_text(c) + " is outside the " + std::to_string(b.width()) + "x" +
             std::to_string(b.height()) + " board";
    }
  }
  if (p == q) return "the same cell twice: " + cell_text(p);
  return std::nullopt;
}

// Why two tiles of the board do not connect, in the CLI's words.
std::string link_refusal(const link::Board& b, Cell p, Cell q) {
  if (b.is_empty(p) || b.is_empty(q)) return "empty cell";
  if (b.at(p) != b.at(q)) return "different kinds";
  return "no line with at most two turns";
}

pathlab_status put_line(pathlab_board& b, const link::Connection& line, pathlab_link_line* out) {
  flatten(line.points, b.points);
  out->points = b.points.data();
  out->points_n = line.points.size();
  out->turns = line.turns();
  out->length = line.length();
  return PATHLAB_OK;
}

void put_moves(pathlab_board& b, std::span<const link::Move> moves, pathlab_link_moves* out) {
  b.moves.clear();
  b.moves.reserve(4 * moves.size());
  for (const link::Move m : moves) b.moves.insert(b.moves.end(), {m.a.x, m.a.y, m.b.x, m.b.y});
  out->moves = b.moves.data();
  out->count = moves.size();
}

pathlab_status new_board(link::Board b, pathlab_board** out) {
  *out = new pathlab_board{std::move(b), {}, {}};
  return PATHLAB_OK;
}

// ---- Map kinds.

// The value a C caller passed as a pathlab_side: read as the int it is in C, since any int may
// arrive and C++ may not load an enum outside its enumerators' range.
int side_value(const pathlab_side& side) noexcept {
  static_assert(sizeof(pathlab_side) == sizeof(int));
  int v = 0;
  std::memcpy(&v, &side, sizeof v);
  return v;
}

std::optional<grid::Side> side_of(const pathlab_side& side) {
  switch (side_value(side)) {
    case 0:
      return grid::Side::north;
    case 1:
      return grid::Side::east;
    case 2:
      return grid::Side::south;
    case 3:
      return grid::Side::west;
    default:
      return std::nullopt;
  }
}

/// A hex edge's direction 0..5 passed as a pathlab_side (hex maps), or nothing.
std::optional<int> hex_side_of(const pathlab_side& side) {
  const int v = side_value(side);
  if (v < 0 || v > 5) return std::nullopt;
  return v;
}

pathlab_status unknown_side(const char* call, const pathlab_side& side, bool hex) {
  return fail(PATHLAB_INVALID, std::string(call) + ": unknown side " +
                                   std::to_string(side_value(side)) +
                                   (hex ? " (on a hex map: the edge's direction 0..5)"
                                        : " (PATHLAB_NORTH 0, PATHLAB_EAST 1, PATHLAB_SOUTH 2, "
                                          "PATHLAB_WEST 3)"));
}

// Why (x, y) is not a cell of some floor of g, or nothing when it is.
std::optional<std::string> not_map_cell(const grid::Grid& g, Cell c, const std::string& what) {
  if (!g.in_bounds(c)) return outside_map(g, c, what);
  if (g.between_layers(c.y)) {
    return what + " " + cell_text(c) + " lies on a row between two floors (row " +
           std::to_string(c.y) + "; each floor has " + std::to_string(g.layer_height()) +
           " rows, pathlab_grid_at() gives a floor's cells)";
  }
  return std::nullopt;
}

}  // namespace

extern "C" {

int pathlab_abi_version(void) {
  return PATHLAB_ABI_VERSION;
}

const char* pathlab_last_error(void) {
  return last_error.c_str();
}

const char* pathlab_algorithms(void) {
  static const std::string names = [] {
    std::string s;
    for (const auto& a : search::algorithms()) s.append(a.name).push_back('\n');
    return s;
  }();
  return names.c_str();
}

pathlab_status pathlab_grid_load(const char* path, pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_load", "out");
  *out = nullptr;
  if (path == nullptr) return null_argument("pathlab_grid_load", "path");
  return guarded([&] {
    pathlab::io::Map map = pathlab::io::load_map(path);
    *out = new pathlab_grid{std::move(map.grid)};
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_parse(const char* text, size_t len, const char* format,
                                  pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_parse", "out");
  *out = nullptr;
  if (text == nullptr) return null_argument("pathlab_grid_parse", "text");
  pathlab::io::MapOptions options;
  if (format != nullptr) {
    const auto f = pathlab::io::parse_map_format(format);
    if (!f) {
      return fail(PATHLAB_INVALID,
                  "unknown map format '" + std::string(format) +
                      "' (auto, text, ascii, movingai, image, tmx, tmj or layered)");
    }
    options.format = *f;
  }
  return guarded([&] {
    pathlab::io::Map map = pathlab::io::parse_map(std::string_view(text, len), "<text>", options);
    *out = new pathlab_grid{std::move(map.grid)};
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_from_classes(int32_t width, int32_t height, const char* classes,
                                         pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_from_classes", "out");
  *out = nullptr;
  if (classes == nullptr) return null_argument("pathlab_grid_from_classes", "classes");
  if (width < 1 || height < 1 || std::int64_t{width} * height > grid::Grid::max_cells) {
    return fail(PATHLAB_INVALID, "a grid is 1x1 to 2^28 cells, not " + std::to_string(width) + "x" +
                                     std::to_string(height));
  }
  return guarded([&] {
    auto g = std::make_unique<pathlab_grid>(pathlab_grid{grid::Grid(width, height)});
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const char c = grid::canonical_class(classes[std::size_t(y) * width + x]);
        if (!grid::valid_class(c)) {
          return fail(PATHLAB_INVALID, "the class of cell " + cell_text({x, y}) +
                                           " is not a printable character other than space");
        }
        if (c != grid::kGroundClass) g->grid.set_class(x, y, c);
      }
    }
    *out = g.release();
    return PATHLAB_OK;
  });
}

void pathlab_grid_free(pathlab_grid* grid) {
  delete grid;
}

int32_t pathlab_grid_width(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.width();
}

int32_t pathlab_grid_height(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.height();
}

pathlab_status pathlab_grid_edit(pathlab_grid* grid, const char* edit) {
  if (grid == nullptr) return null_argument("pathlab_grid_edit", "grid");
  if (edit == nullptr) return null_argument("pathlab_grid_edit", "edit");
  return guarded([&] {
    grid::Edit e;
    if (auto bad = grid::parse_edit(edit, e, &grid->grid))
      return fail(PATHLAB_INVALID, std::string(edit) + ": " + *bad);
    if (auto bad = grid->grid.apply(e))
      return fail(PATHLAB_INVALID, std::string(edit) + ": " + *bad);
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_finder_new(const pathlab_grid* grid, const pathlab_options* options,
                                  pathlab_finder** out) {
  if (out == nullptr) return null_argument("pathlab_finder_new", "out");
  *out = nullptr;
  if (grid == nullptr) return null_argument("pathlab_finder_new", "grid");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    *out = new pathlab_finder(search::Pathfinder(grid->grid, o));
    return PATHLAB_OK;
  });
}

void pathlab_finder_free(pathlab_finder* finder) {
  delete finder;
}

pathlab_status pathlab_find(pathlab_finder* finder, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                            pathlab_result* out) {
  if (finder == nullptr) return null_argument("pathlab_find", "finder");
  if (out == nullptr) return null_argument("pathlab_find", "out");
  *out = pathlab_result{};
  return guarded([&] {
    const Cell goal{gx, gy};
    const pathlab_status s = to_status(finder->finder.find({sx, sy}, goal, finder->result));
    if (s == PATHLAB_INVALID) return refused_query(*finder, {sx, sy}, {&goal, 1});
    return answer(*finder, s, out);
  });
}

pathlab_status pathlab_find_many(const pathlab_grid* grid, const pathlab_options* options, size_t n,
                                 const int32_t* starts, const int32_t* goals, double* costs,
                                 int threads) {
  if (grid == nullptr) return null_argument("pathlab_find_many", "grid");
  if (n > 0 && (starts == nullptr || goals == nullptr || costs == nullptr)) {
    return null_argument("pathlab_find_many", starts == nullptr  ? "starts"
                                              : goals == nullptr ? "goals"
                                                                 : "costs");
  }
  if (threads < 0) return fail(PATHLAB_INVALID, "pathlab_find_many: threads must be >= 0");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    std::vector<search::Query> queries(n);
    for (size_t i = 0; i < n; ++i) {
      queries[i] = {{starts[2 * i], starts[2 * i + 1]}, {goals[2 * i], goals[2 * i + 1]}};
      for (const pathlab::Cell c : {queries[i].start, queries[i].goal}) {
        if (!grid->grid.in_bounds(c)) {
          return fail(PATHLAB_INVALID, "query " + std::to_string(i) + ": cell " + cell_text(c) +
                                           " is outside the " + std::to_string(grid->grid.width()) +
                                           "x" + std::to_string(grid->grid.height()) + " map");
        }
      }
    }
    std::vector<search::Result> results(n);
    search::find_batch(grid->grid, o, queries, results, threads);
    for (size_t i = 0; i < n; ++i) {
      costs[i] = results[i].status == pathlab::Status::found
                     ? results[i].cost
                     : std::numeric_limits<double>::quiet_NaN();
    }
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_field_build(const pathlab_grid* grid, const pathlab_options* options,
                                   size_t goals_n, const int32_t* goals, pathlab_field** out) {
  if (out == nullptr) return null_argument("pathlab_field_build", "out");
  *out = nullptr;
  if (grid == nullptr) return null_argument("pathlab_field_build", "grid");
  if (goals_n > 0 && goals == nullptr) return null_argument("pathlab_field_build", "goals");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    pathlab::flow::Options fo;
    fo.moves = o.moves;
    fo.unit = o.unit;
    std::vector<pathlab::Cell> cells(goals_n);
    for (size_t i = 0; i < goals_n; ++i) cells[i] = {goals[2 * i], goals[2 * i + 1]};
    auto f = std::make_unique<pathlab_field>();
    if (auto bad = f->field.build(grid->grid, cells, fo)) return fail(PATHLAB_INVALID, *bad);
    const int w = grid->grid.width(), h = grid->grid.height();
    f->distance.resize(std::size_t(w) * h);
    f->direction.resize(std::size_t(w) * h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        f->distance[std::size_t(y) * w + x] = f->field.distance({x, y});
        f->direction[std::size_t(y) * w + x] = f->field.direction({x, y});
      }
    }
    *out = f.release();
    return PATHLAB_OK;
  });
}

const double* pathlab_field_distance(const pathlab_field* field) {
  return field == nullptr ? nullptr : field->distance.data();
}

const int8_t* pathlab_field_direction(const pathlab_field* field) {
  return field == nullptr ? nullptr : field->direction.data();
}

void pathlab_field_free(pathlab_field* field) {
  delete field;
}

// ---- Query shapes.

pathlab_status pathlab_find_partial(pathlab_finder* finder, int32_t sx, int32_t sy, int32_t gx,
                                    int32_t gy, pathlab_result* out, pathlab_partial* partial) {
  if (finder == nullptr) return null_argument("pathlab_find_partial", "finder");
  if (out == nullptr) return null_argument("pathlab_find_partial", "out");
  if (partial == nullptr) return null_argument("pathlab_find_partial", "partial");
  *out = pathlab_result{};
  *partial = pathlab_partial{};
  return guarded([&] {
    finder->goals.assign(1, Cell{gx, gy});
    return find_goals(*finder, {sx, sy}, out, partial);
  });
}

pathlab_status pathlab_find_nearest(pathlab_finder* finder, int32_t sx, int32_t sy, size_t goals_n,
                                    const int32_t* goals, pathlab_result* out,
                                    pathlab_partial* partial) {
  if (finder == nullptr) return null_argument("pathlab_find_nearest", "finder");
  if (out == nullptr) return null_argument("pathlab_find_nearest", "out");
  *out = pathlab_result{};
  if (partial != nullptr) *partial = pathlab_partial{};
  if (goals_n == 0) return fail(PATHLAB_INVALID, "pathlab_find_nearest: no goal given");
  if (goals == nullptr) return null_argument("pathlab_find_nearest", "goals");
  return guarded([&] {
    finder->goals.resize(goals_n);
    for (size_t i = 0; i < goals_n; ++i) finder->goals[i] = {goals[2 * i], goals[2 * i + 1]};
    return find_goals(*finder, {sx, sy}, out, partial);
  });
}

pathlab_status pathlab_reach(pathlab_finder* finder, int32_t sx, int32_t sy, double budget,
                             pathlab_range* out) {
  if (finder == nullptr) return null_argument("pathlab_reach", "finder");
  if (out == nullptr) return null_argument("pathlab_reach", "out");
  *out = pathlab_range{};
  if (!(budget >= 0)) {
    return fail(PATHLAB_INVALID,
                "pathlab_reach: the budget must be a number >= 0, not " + std::to_string(budget));
  }
  return guarded([&] {
    const Cell start{sx, sy};
    const pathlab::Status st = finder->finder.reach(start, budget, finder->reach);
    if (st == pathlab::Status::invalid_input) {
      if (auto bad = footing_problem(finder->finder.grid(), finder->finder.options().unit, start,
                                     "start")) {
        return fail(PATHLAB_INVALID, *bad);
      }
      return fail(PATHLAB_OUT_OF_MEMORY, "out of memory");
    }
    finder->reach_cells.clear();
    finder->reach_costs.clear();
    for (const search::ReachCell& c : finder->reach) {
      finder->reach_cells.push_back(c.cell.x);
      finder->reach_cells.push_back(c.cell.y);
      finder->reach_costs.push_back(c.cost);
    }
    out->cells = finder->reach_cells.data();
    out->costs = finder->reach_costs.data();
    out->count = finder->reach.size();
    return st == pathlab::Status::node_limit ? PATHLAB_NODE_LIMIT : PATHLAB_OK;
  });
}

pathlab_status pathlab_slice_start(pathlab_finder* finder, int32_t sx, int32_t sy, int32_t gx,
                                   int32_t gy) {
  if (finder == nullptr) return null_argument("pathlab_slice_start", "finder");
  return guarded([&] {
    const Cell goal{gx, gy};
    if (finder->finder.start_sliced({sx, sy}, goal)) return PATHLAB_OK;
    return refused_query(*finder, {sx, sy}, {&goal, 1});
  });
}

pathlab_status pathlab_slice_run(pathlab_finder* finder, uint64_t max_expansions,
                                 pathlab_result* out) {
  if (finder == nullptr) return null_argument("pathlab_slice_run", "finder");
  if (out == nullptr) return null_argument("pathlab_slice_run", "out");
  *out = pathlab_result{};
  if (max_expansions == 0) {
    return fail(PATHLAB_INVALID, "pathlab_slice_run: max_expansions must be at least 1");
  }
  if (!finder->finder.sliced_active()) {
    return fail(PATHLAB_INVALID, "pathlab_slice_run: no sliced search is running");
  }
  return guarded([&] {
    search::Result& r = finder->result;
    if (!finder->finder.run_slice(max_expansions, r)) {
      out->expanded = r.stats.expanded;
      out->time_us = r.stats.time_us;
      return PATHLAB_IN_PROGRESS;
    }
    const pathlab_status s = to_status(r.status);
    if (s == PATHLAB_INVALID) {
      return fail(s,
                  "the grid was edited between slices and the sliced search's start or goal "
                  "is no longer usable");
    }
    return answer(*finder, s, out);
  });
}

int pathlab_slice_active(const pathlab_finder* finder) {
  return finder != nullptr && finder->finder.sliced_active() ? 1 : 0;
}

void pathlab_slice_cancel(pathlab_finder* finder) {
  if (finder != nullptr) finder->finder.cancel_sliced();
}

pathlab_status pathlab_line_of_sight(const pathlab_finder* finder, int32_t ax, int32_t ay,
                                     int32_t bx, int32_t by, int* visible) {
  if (finder == nullptr) return null_argument("pathlab_line_of_sight", "finder");
  if (visible == nullptr) return null_argument("pathlab_line_of_sight", "visible");
  *visible = 0;
  return guarded([&] {
    const grid::Grid& map = finder->finder.grid();
    const Cell a{ax, ay}, b{bx, by};
    for (const Cell c : {a, b}) {
      if (!map.in_bounds(c)) return fail(PATHLAB_INVALID, outside_map(map, c, "cell"));
    }
    const grid::Grid* g = finder->finder.searched_grid();
    if (g == nullptr) return no_searched_grid(*finder);
    *visible = grid::line_of_sight(*g, finder->finder.options().moves.diagonal, a, b) ? 1 : 0;
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_smooth(pathlab_finder* finder, size_t path_cells, const int32_t* path,
                              const char* method, pathlab_smoothed* out) {
  if (finder == nullptr) return null_argument("pathlab_smooth", "finder");
  if (out == nullptr) return null_argument("pathlab_smooth", "out");
  if (path_cells > 0 && path == nullptr) return null_argument("pathlab_smooth", "path");
  *out = pathlab_smoothed{};
  pathlab::post::Smoothing m = pathlab::post::Smoothing::refined;
  if (method != nullptr) {
    const auto parsed = pathlab::post::parse_smoothing(method);
    if (!parsed) {
      return fail(PATHLAB_INVALID,
                  "unknown smoothing method '" + std::string(method) + "' (greedy or refined)");
    }
    m = *parsed;
  }
  return guarded([&] {
    // The input is copied first: it may be this finder's own last path.
    std::vector<Cell>& cells = finder->to_smooth;
    cells.resize(path_cells);
    for (size_t i = 0; i < path_cells; ++i) cells[i] = {path[2 * i], path[2 * i + 1]};
    const grid::Grid* g = finder->finder.searched_grid();
    if (g == nullptr) return no_searched_grid(*finder);
    const grid::Moves& moves = finder->finder.options().moves;
    for (size_t i = 0; i < path_cells; ++i) {
      const std::string what = "path cell " + std::to_string(i);
      if (!g->in_bounds(cells[i])) return fail(PATHLAB_INVALID, outside_map(*g, cells[i], what));
      if (!g->passable(cells[i])) {
        return fail(PATHLAB_INVALID,
                    what + " " + cell_text(cells[i]) + " is not usable by the unit");
      }
      if (i > 0 && !grid::line_of_sight(*g, moves.diagonal, cells[i - 1], cells[i])) {
        return fail(PATHLAB_INVALID, "path cells " + cell_text(cells[i - 1]) + " and " +
                                         cell_text(cells[i]) + " (" + std::to_string(i - 1) +
                                         " and " + std::to_string(i) +
                                         ") do not see each other under the finder's rule");
      }
    }
    const std::vector<Cell> waypoints = pathlab::post::smooth(*g, moves.diagonal, cells, m);
    flatten(waypoints, finder->smoothed);
    out->cost = pathlab::post::length(waypoints) * moves.straight_cost();
    out->path = finder->smoothed.data();
    out->path_cells = waypoints.size();
    return PATHLAB_OK;
  });
}

// ---- The simulation.

pathlab_status pathlab_world_new(const pathlab_grid* grid, const pathlab_world_options* options,
                                 size_t agents_n, const pathlab_agent* agents,
                                 pathlab_world** out) {
  if (out == nullptr) return null_argument("pathlab_world_new", "out");
  *out = nullptr;
  if (grid == nullptr) return null_argument("pathlab_world_new", "grid");
  if (agents_n > 0 && agents == nullptr) return null_argument("pathlab_world_new", "agents");
  return guarded([&] {
    agents::WorldSpec spec;
    spec.grid = grid->grid;
    if (options != nullptr) {
      if (options->dt != 0) spec.dt = options->dt;
      if (options->time_limit != 0) spec.time_limit = options->time_limit;
      if (options->diagonal != nullptr) {
        const auto d = grid::parse_diagonal_rule(options->diagonal);
        if (!d) {
          return fail(PATHLAB_INVALID, "unknown diagonal rule '" + std::string(options->diagonal) +
                                           "' (never, no-corner-cut, one-corner or always)");
        }
        spec.moves.diagonal = *d;
      }
    }
    spec.agents.reserve(agents_n);
    for (size_t i = 0; i < agents_n; ++i) {
      const pathlab_agent& in = agents[i];
      agents::AgentSpec a;
      a.id = in.id != 0 ? in.id : static_cast<int>(i + 1);
      const std::string who = "agent " + std::to_string(a.id) + ": ";
      for (const double v :
           {in.start_x, in.start_y, in.goal_x, in.goal_y, in.radius, in.max_speed, in.max_accel}) {
        if (!std::isfinite(v)) return fail(PATHLAB_INVALID, who + "every number must be finite");
      }
      for (const auto& [x, y, what] : {std::tuple{in.start_x, in.start_y, "start"},
                                       std::tuple{in.goal_x, in.goal_y, "goal"}}) {
        if (!on_map(spec.grid, x, y)) {
          return fail(PATHLAB_INVALID, who + what + " " + point_text(x, y) + " is outside the " +
                                           std::to_string(spec.grid.width()) + "x" +
                                           std::to_string(spec.grid.height()) + " map");
        }
      }
      a.start = {in.start_x, in.start_y};
      a.goal = {in.goal_x, in.goal_y};
      if (in.radius != 0) a.radius = in.radius;
      if (in.max_speed != 0) a.max_speed = in.max_speed;
      if (in.max_accel != 0) a.max_accel = in.max_accel;
      if (in.planner != nullptr) {
        if (auto bad = planner_named(in.planner, a.planner))
          return fail(PATHLAB_INVALID, who + *bad);
      }
      spec.agents.push_back(a);
    }
    return new_world(std::move(spec), "", out);
  });
}

pathlab_status pathlab_world_load(const char* path, const char* planner, pathlab_world** out) {
  if (path == nullptr) {
    if (out != nullptr) *out = nullptr;
    return null_argument("pathlab_world_load", "path");
  }
  return world_from_scenario("pathlab_world_load", planner, out,
                             [&] { return agents::load_scenario(path); });
}

pathlab_status pathlab_world_parse(const char* text, size_t len, const char* path,
                                   const char* planner, pathlab_world** out) {
  if (text == nullptr) {
    if (out != nullptr) *out = nullptr;
    return null_argument("pathlab_world_parse", "text");
  }
  return world_from_scenario("pathlab_world_parse", planner, out, [&] {
    return agents::parse_scenario(std::string_view(text, len),
                                  path != nullptr ? path : "<scenario>");
  });
}

void pathlab_world_free(pathlab_world* world) {
  delete world;
}

pathlab_status pathlab_world_step(pathlab_world* world, uint32_t ticks) {
  if (world == nullptr) return null_argument("pathlab_world_step", "world");
  return guarded([&] {
    for (uint32_t k = 0; k < ticks && !world->world.finished(); ++k) world->world.step();
    refresh(*world);
    return PATHLAB_OK;
  });
}

int pathlab_world_finished(const pathlab_world* world) {
  return world == nullptr || world->world.finished() ? 1 : 0;
}

double pathlab_world_time(const pathlab_world* world) {
  return world == nullptr ? 0 : world->world.time();
}

uint64_t pathlab_world_ticks(const pathlab_world* world) {
  return world == nullptr ? 0 : world->world.ticks();
}

pathlab_status pathlab_world_grid(const pathlab_world* world, pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_world_grid", "out");
  *out = nullptr;
  if (world == nullptr) return null_argument("pathlab_world_grid", "world");
  return guarded([&] {
    *out = new pathlab_grid{world->world.spec().grid};
    return PATHLAB_OK;
  });
}

size_t pathlab_world_agent_count(const pathlab_world* world) {
  return world == nullptr ? 0 : world->states.size();
}

const pathlab_agent_state* pathlab_world_agents(const pathlab_world* world) {
  return world == nullptr ? nullptr : world->states.data();
}

const pathlab_agent_metrics* pathlab_world_metrics(const pathlab_world* world) {
  return world == nullptr ? nullptr : world->metrics.data();
}

pathlab_status pathlab_world_add_obstacle(pathlab_world* world, const pathlab_obstacle* obstacle) {
  if (world == nullptr) return null_argument("pathlab_world_add_obstacle", "world");
  if (obstacle == nullptr) return null_argument("pathlab_world_add_obstacle", "obstacle");
  if (obstacle->points_n > 0 && obstacle->points == nullptr)
    return null_argument("pathlab_world_add_obstacle", "obstacle->points");
  return guarded([&] {
    const pathlab_obstacle& in = *obstacle;
    const grid::Grid& g = world->world.spec().grid;
    agents::Obstacle o;
    int largest = 0;
    for (const agents::Obstacle& other : world->world.spec().obstacles)
      largest = std::max(largest, other.id);
    o.id = in.id != 0 ? in.id : largest + 1;
    const std::string who = "obstacle " + std::to_string(o.id) + ": ";
    for (const double v : {in.x, in.y, in.vx, in.vy, in.radius, in.appear}) {
      if (!std::isfinite(v)) return fail(PATHLAB_INVALID, who + "every number must be finite");
    }
    if (!on_map(g, in.x, in.y)) {
      return fail(PATHLAB_INVALID, who + "position " + point_text(in.x, in.y) + " is outside the " +
                                       std::to_string(g.width()) + "x" +
                                       std::to_string(g.height()) + " map");
    }
    if (std::hypot(in.vx, in.vy) > 1000) {
      return fail(PATHLAB_INVALID, who + "a speed above 1000 cells/s");
    }
    if (in.points_n == 1) {
      return fail(PATHLAB_INVALID, who + "a segment needs 2 points, a polygon 3 or more");
    }
    o.shape.kind = in.points_n == 0   ? agents::ShapeKind::disc
                   : in.points_n == 2 ? agents::ShapeKind::segment
                                      : agents::ShapeKind::polygon;
    o.shape.radius = in.radius;
    for (size_t i = 0; i < in.points_n; ++i) {
      const agents::Vec2 p{in.points[2 * i], in.points[2 * i + 1]};
      if (!(std::abs(p.x) <= g.width() + g.height() && std::abs(p.y) <= g.width() + g.height())) {
        return fail(PATHLAB_INVALID, who + "point " + point_text(p.x, p.y) +
                                         " is further from its position than the map is wide "
                                         "and high");
      }
      o.shape.points.push_back(p);
    }
    o.motion.start = {in.x, in.y};
    o.motion.velocity = {in.vx, in.vy};
    o.appear = std::max(in.appear, world->world.time());
    o.disappear = in.disappear == 0 ? std::numeric_limits<double>::infinity() : in.disappear;
    world->world.add_obstacle(std::move(o));
    refresh(*world);
    return PATHLAB_OK;
  });
}

size_t pathlab_world_obstacle_count(const pathlab_world* world) {
  return world == nullptr ? 0 : world->obstacles.size();
}

const pathlab_obstacle_state* pathlab_world_obstacles(const pathlab_world* world) {
  return world == nullptr ? nullptr : world->obstacles.data();
}

// ---- The Link game.

pathlab_status pathlab_board_parse(const char* text, size_t len, pathlab_board** out) {
  if (out == nullptr) return null_argument("pathlab_board_parse", "out");
  *out = nullptr;
  if (text == nullptr) return null_argument("pathlab_board_parse", "text");
  return guarded([&] { return new_board(link::parse_board(std::string_view(text, len)), out); });
}

pathlab_status pathlab_board_load(const char* path, pathlab_board** out) {
  if (out == nullptr) return null_argument("pathlab_board_load", "out");
  *out = nullptr;
  if (path == nullptr) return null_argument("pathlab_board_load", "path");
  return guarded([&] { return new_board(link::load_board(path), out); });
}

pathlab_status pathlab_board_from_cells(int32_t width, int32_t height, const char* cells,
                                        pathlab_board** out) {
  if (out == nullptr) return null_argument("pathlab_board_from_cells", "out");
  *out = nullptr;
  if (cells == nullptr) return null_argument("pathlab_board_from_cells", "cells");
  if (width < 1 || height < 1 || width > link::kMaxSide || height > link::kMaxSide) {
    return fail(PATHLAB_INVALID, "a board is 1x1 to " + std::to_string(link::kMaxSide) + "x" +
                                     std::to_string(link::kMaxSide) + " cells, not " +
                                     std::to_string(width) + "x" + std::to_string(height));
  }
  return guarded([&] {
    return new_board(
        link::Board(width, height, std::string(cells, std::size_t(width) * std::size_t(height))),
        out);
  });
}

pathlab_status pathlab_board_generate(int32_t width, int32_t height, int32_t kinds, uint64_t seed,
                                      pathlab_board** out) {
  if (out == nullptr) return null_argument("pathlab_board_generate", "out");
  *out = nullptr;
  return guarded([&] { return new_board(link::generate(width, height, kinds, seed), out); });
}

void pathlab_board_free(pathlab_board* board) {
  delete board;
}

int32_t pathlab_board_width(const pathlab_board* board) {
  return board == nullptr ? 0 : board->board.width();
}

int32_t pathlab_board_height(const pathlab_board* board) {
  return board == nullptr ? 0 : board->board.height();
}

const char* pathlab_board_cells(const pathlab_board* board) {
  return board == nullptr ? nullptr : board->board.cells().c_str();
}

pathlab_status pathlab_board_connect(pathlab_board* board, int32_t ax, int32_t ay, int32_t bx,
                                     int32_t by, pathlab_link_line* out) {
  if (board == nullptr) return null_argument("pathlab_board_connect", "board");
  if (out == nullptr) return null_argument("pathlab_board_connect", "out");
  *out = pathlab_link_line{};
  return guarded([&] {
    const link::Board& b = board->board;
    const Cell p{ax, ay}, q{bx, by};
    if (auto bad = pair_problem(b, p, q)) return fail(PATHLAB_INVALID, *bad);
    const link::Connection line = link::connect(b, p, q);
    if (!line) return fail(PATHLAB_NO_PATH, link_refusal(b, p, q));
    return put_line(*board, line, out);
  });
}

pathlab_status pathlab_board_hint(pathlab_board* board, pathlab_link_line* out) {
  if (board == nullptr) return null_argument("pathlab_board_hint", "board");
  if (out == nullptr) return null_argument("pathlab_board_hint", "out");
  *out = pathlab_link_line{};
  return guarded([&] {
    const link::Board& b = board->board;
    const std::optional<link::Move> h = link::hint(b);
    if (!h) {
      return fail(PATHLAB_NO_PATH,
                  b.tiles() == 0 ? "the board is empty" : "deadlocked: no two tiles connect");
    }
    return put_line(*board, link::connect(b, h->a, h->b), out);
  });
}

pathlab_status pathlab_board_moves(pathlab_board* board, pathlab_link_moves* out) {
  if (board == nullptr) return null_argument("pathlab_board_moves", "board");
  if (out == nullptr) return null_argument("pathlab_board_moves", "out");
  *out = pathlab_link_moves{};
  return guarded([&] {
    put_moves(*board, link::moves(board->board), out);
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_board_play(pathlab_board* board, int32_t ax, int32_t ay, int32_t bx,
                                  int32_t by, const char* gravity) {
  if (board == nullptr) return null_argument("pathlab_board_play", "board");
  link::Gravity g{};
  if (auto bad = gravity_named(gravity, g)) return fail(PATHLAB_INVALID, *bad);
  return guarded([&] {
    link::Board& b = board->board;
    const Cell p{ax, ay}, q{bx, by};
    if (auto bad = pair_problem(b, p, q)) return fail(PATHLAB_INVALID, *bad);
    if (!link::play(b, {p, q}, g)) return fail(PATHLAB_NO_PATH, link_refusal(b, p, q));
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_board_shuffle(pathlab_board* board, uint64_t seed) {
  if (board == nullptr) return null_argument("pathlab_board_shuffle", "board");
  return guarded([&] {
    link::Board& b = board->board;
    if (b.tiles() == 0) return fail(PATHLAB_NO_PATH, "the board has no tile to shuffle");
    if (!link::shuffle(b, seed)) {
      return fail(PATHLAB_NO_PATH, "no arrangement tried has a move: the board is unchanged");
    }
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_board_solve(pathlab_board* board, const char* gravity, uint64_t node_limit,
                                   pathlab_link_moves* out) {
  if (board == nullptr) return null_argument("pathlab_board_solve", "board");
  if (out == nullptr) return null_argument("pathlab_board_solve", "out");
  *out = pathlab_link_moves{};
  link::SolveOptions o;
  if (auto bad = gravity_named(gravity, o.gravity)) return fail(PATHLAB_INVALID, *bad);
  if (node_limit != 0) o.node_limit = node_limit;
  return guarded([&] {
    const link::SolveResult r = link::solve(board->board, o);
    out->nodes = r.nodes;
    switch (r.status) {
      case link::SolveResult::Status::solved:
        put_moves(*board, r.moves, out);
        out->nodes = r.nodes;
        return PATHLAB_OK;
      case link::SolveResult::Status::unsolvable:
        return PATHLAB_NO_PATH;
      case link::SolveResult::Status::node_limit:
        break;
    }
    return PATHLAB_NODE_LIMIT;
  });
}

// ---- Map kinds.

pathlab_status pathlab_grid_from_layers(int32_t width, int32_t height, int32_t layers,
                                        const char* classes, pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_from_layers", "out");
  *out = nullptr;
  if (classes == nullptr) return null_argument("pathlab_grid_from_layers", "classes");
  if (layers < 1) {
    return fail(PATHLAB_INVALID,
                "pathlab_grid_from_layers: a layered map has 1 or more floors, not " +
                    std::to_string(layers));
  }
  if (width < 1 || height < 1 || std::int64_t{width} * height * layers > grid::Grid::max_cells) {
    return fail(PATHLAB_INVALID, "pathlab_grid_from_layers: " + std::to_string(layers) +
                                     " floors of " + std::to_string(width) + "x" +
                                     std::to_string(height) +
                                     " cells: each floor is 1x1 or more, 2^28 cells in all");
  }
  return guarded([&] {
    auto g =
        std::make_unique<pathlab_grid>(pathlab_grid{grid::Grid::layered(width, height, layers)});
    std::size_t i = 0;
    for (int l = 0; l < layers; ++l) {
      for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x, ++i) {
          const char c = grid::canonical_class(classes[i]);
          if (!grid::valid_class(c)) {
            return fail(PATHLAB_INVALID, "the class of cell " + cell_text({x, y}) + " of floor " +
                                             std::to_string(l) +
                                             " is not a printable character other than space");
          }
          const Cell at = g->grid.at(l, x, y);
          if (c != grid::kGroundClass) g->grid.set_class(at.x, at.y, c);
        }
      }
    }
    *out = g.release();
    return PATHLAB_OK;
  });
}

int32_t pathlab_grid_layers(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.layers();
}

int32_t pathlab_grid_layer_height(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.layer_height();
}

pathlab_status pathlab_grid_at(const pathlab_grid* grid, int32_t layer, int32_t x, int32_t y,
                               int32_t* grid_x, int32_t* grid_y) {
  if (grid == nullptr) return null_argument("pathlab_grid_at", "grid");
  if (grid_x == nullptr || grid_y == nullptr)
    return null_argument("pathlab_grid_at", grid_x == nullptr ? "grid_x" : "grid_y");
  const grid::Grid& g = grid->grid;
  if (layer < 0 || layer >= g.layers()) {
    return fail(PATHLAB_INVALID, "pathlab_grid_at: floor " + std::to_string(layer) +
                                     " is not one of the map's " + std::to_string(g.layers()) +
                                     " (0 to " + std::to_string(g.layers() - 1) + ")");
  }
  if (x < 0 || y < 0 || x >= g.width() || y >= g.layer_height()) {
    return fail(PATHLAB_INVALID, "pathlab_grid_at: cell " + cell_text({x, y}) +
                                     " is outside floor " + std::to_string(layer) + " (" +
                                     std::to_string(g.width()) + "x" +
                                     std::to_string(g.layer_height()) + ")");
  }
  const Cell c = g.at(layer, x, y);
  *grid_x = c.x;
  *grid_y = c.y;
  return PATHLAB_OK;
}

pathlab_status pathlab_grid_locate(const pathlab_grid* grid, int32_t grid_x, int32_t grid_y,
                                   int32_t* layer, int32_t* x, int32_t* y) {
  if (grid == nullptr) return null_argument("pathlab_grid_locate", "grid");
  if (layer == nullptr || x == nullptr || y == nullptr) {
    return null_argument("pathlab_grid_locate", layer == nullptr ? "layer"
                                                : x == nullptr   ? "x"
                                                                 : "y");
  }
  const grid::Grid& g = grid->grid;
  if (auto bad = not_map_cell(g, {grid_x, grid_y}, "pathlab_grid_locate: cell"))
    return fail(PATHLAB_INVALID, *bad);
  *layer = g.layer_of(grid_y);
  *x = grid_x;
  *y = g.local_y(grid_y);
  return PATHLAB_OK;
}

const char* pathlab_grid_layout(const pathlab_grid* grid) {
  // to_string() views string literals: NUL-terminated, static.
  return grid == nullptr ? nullptr : grid::to_string(grid->grid.layout()).data();
}

pathlab_status pathlab_grid_set_layout(pathlab_grid* grid, const char* layout) {
  if (grid == nullptr) return null_argument("pathlab_grid_set_layout", "grid");
  if (layout == nullptr) return null_argument("pathlab_grid_set_layout", "layout");
  const auto l = grid::parse_layout(layout);
  if (!l) {
    return fail(PATHLAB_INVALID, "unknown layout '" + std::string(layout) +
                                     "' (square, pointy-odd-r, pointy-even-r, flat-odd-q, "
                                     "flat-even-q)");
  }
  if (grid::is_hex(*l) != grid::is_hex(grid->grid.layout()) && grid->grid.edge_wall_count() > 0) {
    return fail(PATHLAB_INVALID, "cannot read the map as " + std::string(layout) +
                                     ": it has walls on cell edges, and a square layout's sides "
                                     "are not a hex's");
  }
  return guarded([&] {
    grid->grid.set_layout(*l);
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_edge_wall(const pathlab_grid* grid, int32_t x, int32_t y,
                                      pathlab_side side, int* blocked) {
  if (grid == nullptr) return null_argument("pathlab_grid_edge_wall", "grid");
  if (blocked == nullptr) return null_argument("pathlab_grid_edge_wall", "blocked");
  *blocked = 0;
  const grid::Grid& g = grid->grid;
  const bool hex = grid::is_hex(g.layout());
  const auto s = side_of(side);
  if (hex ? !hex_side_of(side) : !s) return unknown_side("pathlab_grid_edge_wall", side, hex);
  if (!g.in_bounds(x, y))
    return fail(PATHLAB_INVALID, outside_map(g, {x, y}, "pathlab_grid_edge_wall: cell"));
  *blocked = (hex ? g.hex_edge_wall(x, y, *hex_side_of(side)) : g.edge_wall(x, y, *s)) ? 1 : 0;
  return PATHLAB_OK;
}

pathlab_status pathlab_grid_set_edge_wall(pathlab_grid* grid, int32_t x, int32_t y,
                                          pathlab_side side, int blocked) {
  if (grid == nullptr) return null_argument("pathlab_grid_set_edge_wall", "grid");
  grid::Grid& g = grid->grid;
  const bool hex = grid::is_hex(g.layout());
  const auto s = side_of(side);
  const auto d = hex_side_of(side);
  if (hex ? !d : !s) return unknown_side("pathlab_grid_set_edge_wall", side, hex);
  if (auto bad = not_map_cell(g, {x, y}, "pathlab_grid_set_edge_wall: cell"))
    return fail(PATHLAB_INVALID, *bad);
  return guarded([&] {
    if (hex) {
      g.set_hex_edge_wall(x, y, *d, blocked != 0);
    } else {
      g.set_edge_wall(x, y, *s, blocked != 0);
    }
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_add_link(pathlab_grid* grid, const pathlab_map_link* link) {
  if (grid == nullptr) return null_argument("pathlab_grid_add_link", "grid");
  if (link == nullptr) return null_argument("pathlab_grid_add_link", "link");
  const double cost = link->cost == 0 ? 1.0 : link->cost;
  if (!(cost > 0) || !std::isfinite(cost) ||
      cost > static_cast<double>(std::numeric_limits<float>::max())) {
    return fail(PATHLAB_INVALID,
                "pathlab_grid_add_link: the cost must be a finite number > 0 "
                "(0: 1), not " +
                    std::to_string(link->cost));
  }
  grid::Link l;
  l.from = {link->from_x, link->from_y};
  l.to = {link->to_x, link->to_y};
  l.cost = static_cast<float>(cost);
  l.oneway = link->oneway != 0;
  return guarded([&] {
    if (auto bad = grid->grid.add_link(l))
      return fail(PATHLAB_INVALID, "pathlab_grid_add_link: " + *bad);
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_remove_links(pathlab_grid* grid, int32_t from_x, int32_t from_y,
                                         int32_t to_x, int32_t to_y, size_t* removed) {
  if (removed != nullptr) *removed = 0;
  if (grid == nullptr) return null_argument("pathlab_grid_remove_links", "grid");
  return guarded([&] {
    const std::size_t n = grid->grid.remove_links({from_x, from_y}, {to_x, to_y});
    if (removed != nullptr) *removed = n;
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_clear_links(pathlab_grid* grid) {
  if (grid == nullptr) return null_argument("pathlab_grid_clear_links", "grid");
  return guarded([&] {
    grid->grid.clear_links();
    return PATHLAB_OK;
  });
}

size_t pathlab_grid_link_count(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.links().size();
}

pathlab_status pathlab_grid_link(const pathlab_grid* grid, size_t index, pathlab_map_link* out) {
  if (grid == nullptr) return null_argument("pathlab_grid_link", "grid");
  if (out == nullptr) return null_argument("pathlab_grid_link", "out");
  *out = pathlab_map_link{};
  const std::span<const grid::Link> links = grid->grid.links();
  if (index >= links.size()) {
    return fail(PATHLAB_INVALID, "pathlab_grid_link: link " + std::to_string(index) +
                                     " of a map with " + std::to_string(links.size()) + " links");
  }
  const grid::Link& l = links[index];
  *out = {l.from.x, l.from.y, l.to.x, l.to.y, static_cast<double>(l.cost), l.oneway ? 1 : 0, 0};
  return PATHLAB_OK;
}

pathlab_status pathlab_field_next(const pathlab_field* field, int32_t x, int32_t y, int32_t* next_x,
                                  int32_t* next_y) {
  if (field == nullptr) return null_argument("pathlab_field_next", "field");
  if (next_x == nullptr || next_y == nullptr)
    return null_argument("pathlab_field_next", next_x == nullptr ? "next_x" : "next_y");
  const pathlab::flow::Field& f = field->field;
  if (!f.in_bounds({x, y})) {
    return fail(PATHLAB_INVALID, "pathlab_field_next: cell " + cell_text({x, y}) +
                                     " is outside the " + std::to_string(f.width()) + "x" +
                                     std::to_string(f.height()) + " map");
  }
  const std::optional<Cell> n = f.next({x, y});
  if (!n) {
    return fail(PATHLAB_NO_PATH, "pathlab_field_next: cell " + cell_text({x, y}) +
                                     " has no first move (a goal, a wall or a cell that reaches "
                                     "no goal)");
  }
  *next_x = n->x;
  *next_y = n->y;
  return PATHLAB_OK;
}

}  // extern "C"
