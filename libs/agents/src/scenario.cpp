// Simulation scenario files: JSON (json_reader.hpp) checked key by key into a WorldSpec.
// Everything that does not need the map is checked first, then the map is loaded and the
// agents' "S"/"G" markers and positions are checked against it.
#include <pathlab/agents/scenario.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <pathlab/io/map.hpp>

#include "json_reader.hpp"

namespace pathlab::agents {

namespace {

using json::Member;
using json::Node;
using json::Type;

constexpr std::size_t max_scenario_bytes = std::size_t{16} << 20;
constexpr double max_time_limit = 1e6;
constexpr double max_radius = 8;
constexpr double max_seed = 9007199254740992.0;  // 2^53: larger integers are not exact
constexpr int max_count = 1'000'000;             // stall counts (ticks, cells, reversals)

/// A number for messages: integers in full, others as %g (enough to recognise the value).
std::string num(double v) {
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e16) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v);
  }
  return buf;
}

/// "hybrid, apf, replan": every name parse_planner() accepts back.
std::string planner_names() {
  std::string out;
  for (int i = 0; i < 32; ++i) {
    const auto k = static_cast<PlannerKind>(i);
    const std::string_view name = to_string(k);
    if (parse_planner(name) != k) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string point_text(Vec2 p) {
  // Built with append(): g++ 12 gives a false -Wrestrict on chained operator+ here.
  std::string s = "(";
  s.append(num(p.x)).append(", ").append(num(p.y)).append(")");
  return s;
}

/// A position given as [x, y] or as the map's "S" / "G" marker (resolved once the map is known).
struct PositionRef {
  Vec2 at;
  std::optional<char> marker;  // 'S' or 'G'
  int line = 0;
};

struct PendingAgent {
  PositionRef start, goal;
  int line = 0;
};

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw ParseError(file_, line, message);
  }

  /// Every key of object `n` must be one of `allowed`; `where` names the object ("in agent 2").
  void check_keys(const Node& n, std::initializer_list<std::string_view> allowed,
                  const std::string& where) const {
    for (const Member& m : n.members) {
      bool ok = false;
      for (std::string_view a : allowed) ok = ok || m.key == a;
      if (ok) continue;
      std::string list;
      for (std::string_view a : allowed) {
        if (!list.empty()) list += ", ";
        list += a;
      }
      fail(m.line, "unknown key '" + printable(m.key) + "' " + where + "; expected one of " + list);
    }
  }

  void expect(const Node& v, Type t, const std::string& what) const {
    if (!v.is(t)) {
      fail(v.line, what + " must be " + std::string(json::describe(t)) + ", not " +
                       std::string(json::describe(v.type)));
    }
  }

  double number(const Node& v, const std::string& what) const {
    expect(v, Type::number, what);
    return v.number;  // the reader refuses non-finite numbers
  }

  /// A number with `ok(value)`, else "`what` must be `rule` (got x)".
  template <class Pred>
  double number(const Node& v, const std::string& what, const char* rule, Pred ok) const {
    const double x = number(v, what);
    if (!ok(x)) fail(v.line, what + " must be " + rule + " (got " + num(x) + ")");
    return x;
  }

  /// An integer in [lo, hi].
  double integer(const Node& v, const std::string& what, double lo, double hi) const {
    const double x = number(v, what);
    if (x != std::floor(x) || x < lo || x > hi) {
      fail(v.line,
           what + " must be an integer in [" + num(lo) + ", " + num(hi) + "] (got " + num(x) + ")");
    }
    return x;
  }

  const std::string& string(const Node& v, const std::string& what) const {
    expect(v, Type::string, what);
    return v.string;
  }

  /// [x, y]: an array of exactly two numbers.
  Vec2 point(const Node& v, const std::string& what) const {
    if (!v.is(Type::array) || v.items.size() != 2 || !v.items[0].is(Type::number) ||
        !v.items[1].is(Type::number)) {
      fail(v.line, what + " must be an array of two numbers [x, y]");
    }
    return {v.items[0].number, v.items[1].number};
  }

  std::vector<Vec2> points(const Node& v, const std::string& what) const {
    expect(v, Type::array, what);
    std::vector<Vec2> out;
    out.reserve(v.items.size());
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      out.push_back(point(v.items[i], what + " point " + std::to_string(i + 1)));
    }
    return out;
  }

  /// Keys are echoed in messages: control characters and non-ASCII bytes become '?'.
  static std::string printable(std::string_view s) {
    std::string out(s.substr(0, 64));
    for (char& c : out) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7f) c = '?';
    }
    if (s.size() > 64) out += "...";
    return out;
  }

  const std::string& file() const noexcept { return file_; }

 private:
  const std::string& file_;
};

constexpr auto positive = [](double x) { return x > 0; };
constexpr auto nonneg = [](double x) { return x >= 0; };

void read_stall(const Reader& r, const Node& n, StallParams& s) {
  r.expect(n, Type::object, "'stall'");
  r.check_keys(n,
               {"window", "epsilon", "v_threshold", "slow_ticks", "revisit_cells", "reversals",
                "reversal_cos", "force_epsilon", "cooldown", "goal_radius", "cell_hysteresis"},
               "in params.stall");
  for (const Member& m : n.members) {
    const std::string what = "stall." + m.key;
    const Node& v = m.value;
    if (m.key == "window") s.window = static_cast<int>(r.integer(v, what, 1, max_count));
    if (m.key == "slow_ticks") s.slow_ticks = static_cast<int>(r.integer(v, what, 1, max_count));
    if (m.key == "revisit_cells") {
      s.revisit_cells = static_cast<int>(r.integer(v, what, 1, max_count));
    }
    if (m.key == "reversals") s.reversals = static_cast<int>(r.integer(v, what, 1, max_count));
    if (m.key == "cooldown") s.cooldown = static_cast<int>(r.integer(v, what, 0, max_count));
    if (m.key == "epsilon") s.epsilon = r.number(v, what, ">= 0", nonneg);
    if (m.key == "v_threshold") s.v_threshold = r.number(v, what, ">= 0", nonneg);
    if (m.key == "force_epsilon") s.force_epsilon = r.number(v, what, ">= 0", nonneg);
    if (m.key == "goal_radius") s.goal_radius = r.number(v, what, ">= 0", nonneg);
    if (m.key == "cell_hysteresis") s.cell_hysteresis = r.number(v, what, ">= 0", nonneg);
    if (m.key == "reversal_cos") {
      s.reversal_cos = r.number(v, what, "in [-1, 1]", [](double x) { return x >= -1 && x <= 1; });
    }
  }
}

void read_params(const Reader& r, const Node& n, PlannerParams& p) {
  r.expect(n, Type::object, "'params'");
  r.check_keys(n,
               {"k",
                "eta",
                "rho0",
                "n",
                "beta",
                "min_rho",
                "subgoal_reach",
                "goal_reach",
                "skip_margin",
                "plans_per_tick",
                "avoid_horizon",
                "memory",
                "wall_rho0",
                "global_replan_factor",
                "stall",
                "lookahead",
                "sight",
                "agent_rho0",
                "max_neighbours",
                "neighbour_range",
                "arrive_gap",
                "take_turns"},
               "in params");
  for (const Member& m : n.members) {
    const std::string what = "params." + m.key;
    const Node& v = m.value;
    if (m.key == "k") p.field.k = r.number(v, what, "> 0", positive);
    if (m.key == "eta") p.field.eta = r.number(v, what, ">= 0", nonneg);
    if (m.key == "rho0") p.field.rho0 = r.number(v, what, "> 0", positive);
    if (m.key == "n") p.field.n = r.number(v, what, ">= 0", nonneg);
    if (m.key == "beta") p.field.beta = r.number(v, what, ">= 1", [](double x) { return x >= 1; });
    if (m.key == "min_rho") p.field.min_rho = r.number(v, what, "> 0", positive);
    if (m.key == "subgoal_reach") p.subgoal_reach = r.number(v, what, "> 0", positive);
    if (m.key == "goal_reach") p.goal_reach = r.number(v, what, "> 0", positive);
    if (m.key == "skip_margin") p.skip_margin = r.number(v, what, ">= 0", nonneg);
    if (m.key == "avoid_horizon") p.avoid_horizon = r.number(v, what, ">= 0", nonneg);
    if (m.key == "memory") p.memory = r.number(v, what, ">= 0", nonneg);
    if (m.key == "lookahead") p.lookahead = r.number(v, what, ">= 0", nonneg);
    if (m.key == "sight") p.sight = r.number(v, what, ">= 0", nonneg);
    if (m.key == "wall_rho0") p.wall_rho0 = r.number(v, what, "> 0", positive);
    if (m.key == "agent_rho0") p.agent_rho0 = r.number(v, what, "> 0", positive);
    if (m.key == "plans_per_tick") {
      p.plans_per_tick = static_cast<int>(r.integer(v, what, 1, max_count));
    }
    if (m.key == "global_replan_factor") {
      p.global_replan_factor = r.number(v, what, "> 0", positive);
    }
    if (m.key == "max_neighbours") {
      p.max_neighbours = static_cast<int>(r.integer(v, what, 1, max_count));
    }
    if (m.key == "neighbour_range") p.neighbour_range = r.number(v, what, "> 0", positive);
    if (m.key == "arrive_gap") p.arrive_gap = r.number(v, what, ">= 0", nonneg);
    if (m.key == "sector_from") p.sector_from = r.integer(v, what, 0, 268435456.0);
    if (m.key == "take_turns") {
      if (!v.is(Type::boolean)) r.fail(v.line, what + " must be true or false");
      p.take_turns = v.boolean;
    }
    if (m.key == "stall") {
      StallParams s;
      read_stall(r, v, s);
      p.stall = s;
    }
  }
}

PositionRef read_position(const Reader& r, const Node& v, const std::string& what) {
  PositionRef p;
  p.line = v.line;
  if (v.is(Type::string)) {
    if (v.string != "S" && v.string != "G") {
      r.fail(v.line, what + " must be [x, y], \"S\" (the map's start) or \"G\" (its goal), not \"" +
                         Reader::printable(v.string) + "\"");
    }
    p.marker = v.string[0];
    return p;
  }
  if (!v.is(Type::array)) {
    r.fail(v.line, what + " must be [x, y], \"S\" (the map's start) or \"G\" (its goal)");
  }
  p.at = r.point(v, what);
  return p;
}

/// An id: an explicit integer or the 1-based index; unique among `seen`.
int read_id(const Reader& r, const Node& obj, std::size_t index, const char* kind,
            std::set<int>& seen) {
  int id = static_cast<int>(index + 1);
  int line = obj.line;
  if (const Member* m = obj.find("id")) {
    id = static_cast<int>(
        r.integer(m->value, std::string(kind) + " id", -2147483648.0, 2147483647.0));
    line = m->value.line;
  }
  if (!seen.insert(id).second) {
    r.fail(line, std::string("duplicate ") + kind + " id " + std::to_string(id) +
                     (obj.find("id") ? "" : " (the default: its position in the list)"));
  }
  return id;
}

/// One key of a motion ("at", "velocity", "route", "speed", "mode"), shared by obstacles and
/// chased targets; false for any other key. `route` tells whether the object has a route.
bool read_motion_key(const Reader& r, const Member& m, const std::string& who, bool route,
                     Motion& motion) {
  const Node& v = m.value;
  const std::string what = who + ": '" + m.key + "'";
  if (m.key == "at") {
    if (route) {
      r.fail(m.line, who + ": 'at' and 'route' are exclusive (a route starts at its first point)");
    }
    motion.start = r.point(v, what);
  } else if (m.key == "velocity") {
    if (route) r.fail(m.line, who + ": 'velocity' and 'route' are exclusive");
    motion.velocity = r.point(v, what);
  } else if (m.key == "route") {
    motion.route = r.points(v, what);
    if (motion.route.empty()) r.fail(v.line, what + " needs at least one point");
    motion.start = motion.route.front();
  } else if (m.key == "speed") {
    if (!route) r.fail(m.line, who + ": 'speed' needs a 'route' (use 'velocity' otherwise)");
    motion.speed = r.number(v, what, "> 0", positive);
  } else if (m.key == "mode") {
    if (!route) r.fail(m.line, who + ": 'mode' needs a 'route'");
    const auto mode = parse_route_mode(r.string(v, what));
    if (!mode) {
      r.fail(v.line, what + " must be once, loop or ping-pong, not \"" +
                         Reader::printable(v.string) + "\"");
    }
    motion.mode = *mode;
  } else {
    return false;
  }
  return true;
}

/// A chased target's motion: {"at", "velocity"} or {"route", "speed", "mode"}.
Motion read_target(const Reader& r, const Node& n, const std::string& who) {
  const std::string what = who + ": 'target'";
  r.expect(n, Type::object, what);
  r.check_keys(n, {"at", "velocity", "route", "speed", "mode"}, "in " + what);
  if (!n.find("route") && !n.find("at")) r.fail(n.line, what + " needs 'at' or 'route'");
  Motion m;
  for (const Member& k : n.members) read_motion_key(r, k, what, n.find("route") != nullptr, m);
  return m;
}

PendingAgent read_agent(const Reader& r, const Node& n, std::size_t index, PlannerKind planner,
                        std::set<int>& ids, AgentSpec& a) {
  r.expect(n, Type::object, "agent " + std::to_string(index + 1));
  a.id = read_id(r, n, index, "agent", ids);
  const std::string who = "agent " + std::to_string(a.id);
  r.check_keys(n, {"id", "start", "goal", "radius", "speed", "accel", "planner", "target"},
               "in " + who);
  a.planner = planner;
  PendingAgent p;
  p.line = n.line;
  bool has_start = false, has_goal = false;
  for (const Member& m : n.members) {
    const Node& v = m.value;
    const std::string what = who + ": '" + m.key + "'";
    if (m.key == "start") {
      p.start = read_position(r, v, what);
      has_start = true;
    } else if (m.key == "goal") {
      p.goal = read_position(r, v, what);
      has_goal = true;
    } else if (m.key == "radius") {
      a.radius = r.number(v, what, "in (0, 8)", [](double x) { return x > 0 && x < max_radius; });
    } else if (m.key == "speed") {
      a.max_speed = r.number(v, what, "> 0", positive);
    } else if (m.key == "accel") {
      a.max_accel = r.number(v, what, "> 0", positive);
    } else if (m.key == "planner") {
      const auto k = parse_planner(r.string(v, what));
      if (!k) {
        r.fail(v.line, what + " must be one of " + planner_names() + ", not \"" +
                           Reader::printable(v.string) + "\"");
      }
      a.planner = *k;
    } else if (m.key == "target") {
      if (has_goal) r.fail(m.line, who + ": 'goal' and 'target' are exclusive (a target moves)");
      a.target = read_target(r, v, who);
    }
  }
  if (!has_start) r.fail(n.line, who + ": missing key 'start'");
  if (has_goal && a.target) r.fail(n.line, who + ": 'goal' and 'target' are exclusive");
  if (!has_goal && !a.target) r.fail(n.line, who + ": missing key 'goal' (or a 'target' to chase)");
  if (a.target) {
    // The goal check below looks at the target's starting point.
    p.goal = PositionRef{};
    p.goal.at = a.target->start;
    p.goal.line = n.find("target")->line;
  }
  return p;
}

Obstacle read_obstacle(const Reader& r, const Node& n, std::size_t index, std::set<int>& ids) {
  r.expect(n, Type::object, "obstacle " + std::to_string(index + 1));
  Obstacle o;
  o.id = read_id(r, n, index, "obstacle", ids);
  const std::string who = "obstacle " + std::to_string(o.id);
  r.check_keys(n,
               {"id", "shape", "radius", "points", "at", "velocity", "route", "speed", "mode",
                "appear", "disappear"},
               "in " + who);
  const Member* shape = n.find("shape");
  if (!shape) r.fail(n.line, who + ": missing key 'shape' (disc, segment or polygon)");
  const std::string& kind = r.string(shape->value, who + ": 'shape'");
  if (kind == "disc") {
    o.shape.kind = ShapeKind::disc;
  } else if (kind == "segment") {
    o.shape.kind = ShapeKind::segment;
  } else if (kind == "polygon") {
    o.shape.kind = ShapeKind::polygon;
  } else {
    r.fail(shape->value.line, who + ": 'shape' must be disc, segment or polygon, not \"" +
                                  Reader::printable(kind) + "\"");
  }
  const bool disc = o.shape.kind == ShapeKind::disc;
  const Member* route = n.find("route");
  for (const Member& m : n.members) {
    const Node& v = m.value;
    const std::string what = who + ": '" + m.key + "'";
    if (m.key == "radius") {
      if (!disc) r.fail(m.line, who + ": 'radius' is only for a disc (use 'points')");
      o.shape.radius = r.number(v, what, "> 0", positive);
    } else if (m.key == "points") {
      if (disc) r.fail(m.line, who + ": 'points' is not for a disc (use 'radius')");
      o.shape.points = r.points(v, what);
    } else if (read_motion_key(r, m, who, route != nullptr, o.motion)) {
      // at, velocity, route, speed, mode
    } else if (m.key == "appear") {
      o.appear = r.number(v, what, ">= 0", nonneg);
    } else if (m.key == "disappear") {
      o.disappear = r.number(v, what);
    }
  }
  if (!disc && !n.find("points")) r.fail(n.line, who + ": missing key 'points'");
  if (const auto e = o.validate()) r.fail(n.line, *e);
  return o;
}

/// Resolves a marker and checks the position lies on a free cell of the map.
Vec2 resolve(const Reader& r, const PositionRef& p, const io::Map& map, const std::string& who,
             const char* what, const std::string& map_path) {
  Vec2 at = p.at;
  if (p.marker) {
    const std::optional<Cell>& c = *p.marker == 'S' ? map.start : map.goal;
    if (!c) {
      r.fail(p.line, who + ": " + what + " \"" + *p.marker + "\" but the map '" + map_path +
                         "' has no " + (*p.marker == 'S' ? "start" : "goal") + " marker");
    }
    at = {c->x + 0.5, c->y + 0.5};
  }
  const grid::Grid& g = map.grid;
  if (!(at.x >= 0 && at.y >= 0 && at.x < g.width() && at.y < g.height())) {
    r.fail(p.line, who + ": " + what + " " + point_text(at) + " is outside the map (" +
                       std::to_string(g.width()) + "x" + std::to_string(g.height()) + ")");
  }
  const int cx = static_cast<int>(std::floor(at.x)), cy = static_cast<int>(std::floor(at.y));
  if (!g.passable(cx, cy)) {
    r.fail(p.line, who + ": " + what + " " + point_text(at) + " is on a wall (cell " +
                       std::to_string(cx) + ", " + std::to_string(cy) + ")");
  }
  return at;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& path) {
  return parse_scenario(
      text, path, [](const std::string& map_path, std::string& problem) -> std::optional<io::Map> {
        std::error_code ec;
        const auto status = std::filesystem::status(map_path, ec);
        if (!std::filesystem::exists(status)) {
          problem = "map file '" + map_path + "' not found";
          return std::nullopt;
        }
        if (!std::filesystem::is_regular_file(status)) {
          problem = "map '" + map_path + "' is not a regular file";
          return std::nullopt;
        }
        return io::load_map(map_path);  // a bad map names itself
      });
}

Scenario parse_scenario(std::string_view text, const std::string& path, const MapReader& read_map) {
  const Reader r(path);
  const Node root = json::parse(text, path);
  if (!root.is(Type::object)) {
    r.fail(root.line,
           "a scenario must be a JSON object, not " + std::string(json::describe(root.type)));
  }
  r.check_keys(root,
               {"name", "map", "diagonal", "dt", "time_limit", "seed", "planner", "params",
                "agents", "obstacles"},
               "at the top level");

  Scenario sc;
  sc.path = path;
  sc.name = std::filesystem::path(path).stem().string();
  WorldSpec& w = sc.world;
  PlannerKind planner = PlannerKind::hybrid;
  const Member* map_key = nullptr;
  std::string map_name;
  for (const Member& m : root.members) {
    const Node& v = m.value;
    const std::string what = "'" + m.key + "'";
    if (m.key == "name") {
      sc.name = r.string(v, what);
    } else if (m.key == "map") {
      map_key = &m;
      map_name = r.string(v, what);
      if (map_name.empty()) r.fail(v.line, "'map' must not be empty");
      if (map_name.find('\0') != std::string::npos) {
        r.fail(v.line, "'map' must not contain a NUL character");
      }
    } else if (m.key == "diagonal") {
      const auto d = grid::parse_diagonal_rule(r.string(v, what));
      if (!d) {
        r.fail(v.line, "'diagonal' must be never, no-corner-cut, one-corner or always, not \"" +
                           Reader::printable(v.string) + "\"");
      }
      w.moves.diagonal = *d;
    } else if (m.key == "dt") {
      w.dt = r.number(v, what, "> 0", positive);
    } else if (m.key == "time_limit") {
      w.time_limit =
          r.number(v, what, "in (0, 1e6]", [](double x) { return x > 0 && x <= max_time_limit; });
    } else if (m.key == "seed") {
      sc.seed = static_cast<std::uint64_t>(r.integer(v, what, 0, max_seed));
    } else if (m.key == "planner") {
      const auto k = parse_planner(r.string(v, what));
      if (!k) {
        r.fail(v.line, "'planner' must be one of " + planner_names() + ", not \"" +
                           Reader::printable(v.string) + "\"");
      }
      planner = *k;
    } else if (m.key == "params") {
      read_params(r, v, w.params);
    }
  }

  // Agents after the top level (for the default planner); positions are resolved below.
  std::vector<PendingAgent> pending;
  const Member* agents = root.find("agents");
  if (agents) {
    r.expect(agents->value, Type::array, "'agents'");
    if (agents->value.items.empty()) {
      r.fail(agents->value.line, "'agents' needs at least one agent");
    }
    std::set<int> ids;
    for (std::size_t i = 0; i < agents->value.items.size(); ++i) {
      AgentSpec a;
      pending.push_back(read_agent(r, agents->value.items[i], i, planner, ids, a));
      w.agents.push_back(a);
    }
  }
  if (const Member* obstacles = root.find("obstacles")) {
    r.expect(obstacles->value, Type::array, "'obstacles'");
    std::set<int> ids;
    for (std::size_t i = 0; i < obstacles->value.items.size(); ++i) {
      w.obstacles.push_back(read_obstacle(r, obstacles->value.items[i], i, ids));
    }
  }
  if (!map_key) r.fail(root.line, "missing key 'map' (the map file, relative to the scenario)");
  if (!agents) r.fail(root.line, "missing key 'agents' (an array of at least one agent)");

  // The map, relative to the scenario's folder.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  sc.map_path = (folder / std::filesystem::path(map_name)).string();
  std::string problem;
  std::optional<io::Map> read = read_map(sc.map_path, problem);
  if (!read) {
    r.fail(map_key->value.line,
           problem.empty() ? "map file '" + sc.map_path + "' not found" : problem);
  }
  const io::Map& map = *read;
  for (std::size_t i = 0; i < w.agents.size(); ++i) {
    AgentSpec& a = w.agents[i];
    const std::string who = "agent " + std::to_string(a.id);
    a.start = resolve(r, pending[i].start, map, who, "start", sc.map_path);
    a.goal = resolve(r, pending[i].goal, map, who, "goal", sc.map_path);
  }
  w.grid = map.grid;
  return sc;
}

Scenario load_scenario(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw ParseError(path, 0, "file not found");
  if (std::filesystem::is_directory(status)) throw ParseError(path, 0, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file");
  std::string text;
  char buffer[65536];
  while (in) {
    in.read(buffer, sizeof buffer);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (text.size() + got > max_scenario_bytes) throw ParseError(path, 0, "file too large");
    text.append(buffer, got);
  }
  if (in.bad() || !in.eof()) throw ParseError(path, 0, "cannot read file");
  return parse_scenario(text, path);
}

}  // namespace pathlab::agents
