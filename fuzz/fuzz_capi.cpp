// Fuzz target for the C ABI (pathlab/pathlab.h): options as text (algorithm, diagonal rule,
// class costs, an edit, a smoothing method, a planner, a gravity), a map format name and map
// bytes, then searches, a batch and a field with cells from the input (many outside the map or
// on walls); partial paths, nearest goals, movement ranges, sliced searches, line of sight and
// smoothing (of found paths and of paths made of input bytes); on small maps a simulation with
// agents and an obstacle from the input, and a Link board made of input bytes. Map kinds: the
// ninth field of line 1 names a layout given to the parsed grid; walls on cell edges and links
// from the input are put on it (many refused), cells are converted between floors and the grid,
// links listed and removed, flow fields followed by pathlab_field_next; and a layered grid of
// input bytes (up to 3 floors, hex or square, with edge walls and links) gets every search the
// parsed grid gets. Every call must answer with one of its statuses and, when it fails, a
// message; every path found must run from its start to its goal in steps to a neighbour or over
// a link; nothing may crash, leak or trip a sanitizer.
#include <pathlab/pathlab.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string_view take_line(std::string_view& in) {
  const std::size_t nl = in.find('\n');
  const std::string_view line = in.substr(0, nl);
  in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
  return line;
}

void failed_with_message(pathlab_status s) {
  if (s != PATHLAB_OK && pathlab_last_error()[0] == '\0') __builtin_trap();
}

// A status that is a search's answer or a refusal, never anything else.
void search_status(pathlab_status s) {
  if (s == PATHLAB_INVALID || s == PATHLAB_OUT_OF_MEMORY) failed_with_message(s);
  if (s > PATHLAB_INVALID && s != PATHLAB_OUT_OF_MEMORY) __builtin_trap();
}

// The grid the current input searches: a step of a path may take one of its links.
const pathlab_grid* searched = nullptr;

// Whether a step from (ax, ay) to (bx, by) takes a link of the searched grid.
bool over_link(int ax, int ay, int bx, int by) {
  const std::size_t n = pathlab_grid_link_count(searched);
  for (std::size_t i = 0; i < n; ++i) {
    pathlab_map_link l;
    if (pathlab_grid_link(searched, i, &l) != PATHLAB_OK) __builtin_trap();
    if (l.from_x == ax && l.from_y == ay && l.to_x == bx && l.to_y == by) return true;
    if (!l.oneway && l.to_x == ax && l.to_y == ay && l.from_x == bx && l.from_y == by) return true;
  }
  return false;
}

// A path of n cells from (sx, sy) whose consecutive cells are at most one step apart (or joined
// by a link).
void check_path(const std::int32_t* path, std::size_t n, int sx, int sy) {
  if (n == 0) return;
  if (path == nullptr || path[0] != sx || path[1] != sy) __builtin_trap();
  for (std::size_t i = 1; i < n; ++i) {
    if ((std::abs(path[2 * i] - path[2 * i - 2]) > 1 ||
         std::abs(path[2 * i + 1] - path[2 * i - 1]) > 1) &&
        !over_link(path[2 * i - 2], path[2 * i - 1], path[2 * i], path[2 * i + 1]))
      __builtin_trap();
  }
}

// Partial paths, nearest goals, ranges, slices, line of sight and smoothing on one finder.
template <class Byte>
void query_shapes(pathlab_finder* f, const std::int32_t* cells, Byte&& byte, const char* method) {
  pathlab_result r;
  pathlab_partial partial;
  pathlab_status s = pathlab_find_partial(f, cells[0], cells[1], cells[2], cells[3], &r, &partial);
  search_status(s);
  if (s == PATHLAB_OK && partial.path_cells != 0) __builtin_trap();
  if ((s == PATHLAB_NO_PATH || s == PATHLAB_NODE_LIMIT) && partial.path_cells > 0) {
    check_path(partial.path, partial.path_cells, cells[0], cells[1]);
    if (partial.path[2 * partial.path_cells - 2] != partial.reached_x ||
        partial.path[2 * partial.path_cells - 1] != partial.reached_y)
      __builtin_trap();
  }
  s = pathlab_find_nearest(f, cells[0], cells[1], 3, cells + 2, &r,
                           byte(11) % 2 ? &partial : nullptr);
  search_status(s);

  pathlab_range range;
  const double budget = byte(12) == 255 ? -1.0 : byte(12) / 8.0;
  s = pathlab_reach(f, cells[0], cells[1], budget, &range);
  failed_with_message(s);
  if (s == PATHLAB_OK || s == PATHLAB_NODE_LIMIT) {
    for (std::size_t i = 0; i < range.count; ++i) {
      if (!(range.costs[i] >= 0) || range.costs[i] > budget * (1 + 1e-9) + 1e-9) __builtin_trap();
    }
    if (s == PATHLAB_OK && (range.count == 0 || range.cells[0] < 0)) __builtin_trap();
  } else if (s != PATHLAB_INVALID && s != PATHLAB_OUT_OF_MEMORY) {
    __builtin_trap();
  }

  // A sliced search, run to its end in slices of 1 to 16 expansions.
  s = pathlab_slice_start(f, cells[4], cells[5], cells[6], cells[7]);
  failed_with_message(s);
  if (s == PATHLAB_OK) {
    const std::uint64_t step = 1 + byte(13) % 16;
    int slices = 0;
    while ((s = pathlab_slice_run(f, step, &r)) == PATHLAB_IN_PROGRESS && slices < 100000) {
      ++slices;
      if (pathlab_slice_active(f) != 1) __builtin_trap();
    }
    search_status(s);
    if (s == PATHLAB_IN_PROGRESS) pathlab_slice_cancel(f);
    if (pathlab_slice_active(f) != 0) __builtin_trap();
  } else if (s != PATHLAB_INVALID) {
    __builtin_trap();
  }

  int visible = -1;
  s = pathlab_line_of_sight(f, cells[0], cells[1], cells[6], cells[7], &visible);
  failed_with_message(s);
  if (s == PATHLAB_OK && visible != 0 && visible != 1) __builtin_trap();

  // Smoothing a found path must keep its ends; a path of input bytes may be refused.
  s = pathlab_find(f, cells[0], cells[1], cells[2], cells[3], &r);
  if (s == PATHLAB_OK) {
    pathlab_smoothed sm;
    const pathlab_status t = pathlab_smooth(f, r.path_cells, r.path, method, &sm);
    failed_with_message(t);
    if (t == PATHLAB_OK &&
        (sm.path_cells < 1 || sm.path[0] != cells[0] || sm.path[1] != cells[1] ||
         sm.path[2 * sm.path_cells - 2] != cells[2] || sm.path[2 * sm.path_cells - 1] != cells[3]))
      __builtin_trap();
    if (t != PATHLAB_OK && t != PATHLAB_INVALID) __builtin_trap();
  }
  std::int32_t made[8];
  for (int i = 0; i < 8; ++i) made[i] = cells[i] + static_cast<int>(byte(14 + i) % 3) - 1;
  pathlab_smoothed sm;
  s = pathlab_smooth(f, 4, made, method, &sm);
  failed_with_message(s);
  if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
}

// A short simulation on the grid: two agents at cells of the input, an obstacle dropped in.
template <class Byte>
void simulate(const pathlab_grid* g, const std::int32_t* cells, Byte&& byte, const char* planner) {
  pathlab_agent agents[2];
  std::memset(agents, 0, sizeof agents);
  for (int i = 0; i < 2; ++i) {
    agents[i].start_x = cells[4 * i] + byte(22 + i) / 256.0;
    agents[i].start_y = cells[4 * i + 1] + 0.5;
    agents[i].goal_x = cells[4 * i + 2] + 0.5;
    agents[i].goal_y = cells[4 * i + 3] + byte(24 + i) / 256.0;
    agents[i].radius = (byte(26 + i) % 8) * 0.1;
    agents[i].planner = i == 0 ? planner : nullptr;
  }
  pathlab_world_options wo;
  std::memset(&wo, 0, sizeof wo);
  wo.dt = byte(28) % 4 * 0.05;
  pathlab_world* world = nullptr;
  const pathlab_status s = pathlab_world_new(g, &wo, 1 + byte(29) % 2, agents, &world);
  failed_with_message(s);
  if (s != PATHLAB_OK) {
    if (world != nullptr || s != PATHLAB_INVALID) __builtin_trap();
    return;
  }
  pathlab_obstacle o;
  std::memset(&o, 0, sizeof o);
  o.x = cells[6] + 0.5;
  o.y = cells[7] + 0.5;
  o.vx = byte(30) % 5 - 2.0;
  o.radius = byte(31) % 4 * 0.25;
  const double points[6] = {0, 0, 1.5, 0, 1.5, byte(32) % 3 - 1.0};
  if (byte(33) % 3 != 0) {
    o.points = points;
    o.points_n = 1 + byte(33) % 3;
  }
  failed_with_message(pathlab_world_add_obstacle(world, &o));
  for (int k = 0; k < 3; ++k) {
    if (pathlab_world_step(world, 1 + byte(34 + k) % 8) != PATHLAB_OK) __builtin_trap();
    const pathlab_agent_state* a = pathlab_world_agents(world);
    for (std::size_t i = 0; i < pathlab_world_agent_count(world); ++i) {
      if (!std::isfinite(a[i].x) || !std::isfinite(a[i].y)) __builtin_trap();
    }
    const pathlab_obstacle_state* os = pathlab_world_obstacles(world);
    for (std::size_t i = 0; i < pathlab_world_obstacle_count(world); ++i) {
      if (os[i].points_n > 0 && os[i].points == nullptr) __builtin_trap();
    }
  }
  if (pathlab_world_metrics(world) == nullptr && pathlab_world_agent_count(world) > 0)
    __builtin_trap();
  pathlab_world_free(world);
}

// A Link board made of the map bytes (up to 12x12; '.' and up to five kinds).
template <class Byte>
void link_game(std::string_view in, Byte&& byte, const char* gravity) {
  const int w = 1 + byte(40) % 12, h = 1 + byte(41) % 12;
  std::string cells(static_cast<std::size_t>(w * h), '.');
  for (std::size_t i = 0; i < cells.size() && i < in.size(); ++i) {
    const int v = static_cast<std::uint8_t>(in[i]) % 7;
    cells[i] = v < 2 ? '.' : static_cast<char>('A' + v - 2);
  }
  pathlab_board* b = nullptr;
  pathlab_status s = pathlab_board_from_cells(w, h, cells.c_str(), &b);
  if (s != PATHLAB_OK) __builtin_trap();
  pathlab_link_line line;
  s = pathlab_board_connect(b, byte(42) % (w + 2) - 1, byte(43) % (h + 2) - 1,
                            byte(44) % (w + 2) - 1, byte(45) % (h + 2) - 1, &line);
  failed_with_message(s);
  if (s == PATHLAB_OK && (line.points_n < 2 || line.points_n > 4)) __builtin_trap();
  s = pathlab_board_hint(b, &line);
  failed_with_message(s);
  if (s == PATHLAB_OK) {
    const std::int32_t a[4] = {line.points[0], line.points[1], line.points[2 * line.points_n - 2],
                               line.points[2 * line.points_n - 1]};
    if (pathlab_board_play(b, a[0], a[1], a[2], a[3], gravity) == PATHLAB_NO_PATH)
      __builtin_trap();  // a hint always plays (or the gravity is refused)
  }
  pathlab_link_moves moves;
  if (pathlab_board_moves(b, &moves) != PATHLAB_OK) __builtin_trap();
  failed_with_message(pathlab_board_shuffle(b, byte(46)));
  s = pathlab_board_solve(b, gravity, 1 + byte(47) * 20u, &moves);
  if (s == PATHLAB_INVALID) failed_with_message(s);
  if (s == PATHLAB_OK && 2 * moves.count > static_cast<std::size_t>(w * h)) __builtin_trap();
  if (std::strlen(pathlab_board_cells(b)) != static_cast<std::size_t>(w * h)) __builtin_trap();
  pathlab_board_free(b);
}

// Walls on cell edges, links and floor/grid conversions on g, from input bytes 48..79 (cells
// often outside the map, sides and costs often invalid).
template <class Byte>
void map_kinds(pathlab_grid* g, Byte&& byte) {
  const int w = pathlab_grid_width(g), h = pathlab_grid_height(g);
  auto cell = [&](std::size_t i, int side) { return static_cast<int>(byte(i)) % (side + 2) - 1; };
  for (std::size_t k = 0; k < 3; ++k) {
    const int x = cell(48 + 3 * k, w), y = cell(49 + 3 * k, h);
    // Sides 0..3 only: a C++ caller may not make a pathlab_side of another value (capi_test, in
    // C, passes unknown sides).
    const auto side = static_cast<pathlab_side>(byte(50 + 3 * k) % 4);
    const int up = byte(50 + 3 * k) & 8 ? 0 : 1;
    pathlab_status s = pathlab_grid_set_edge_wall(g, x, y, side, up);
    failed_with_message(s);
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
    int blocked = -1;
    const pathlab_status t = pathlab_grid_edge_wall(g, x, y, side, &blocked);
    failed_with_message(t);
    if (s == PATHLAB_OK && (t != PATHLAB_OK || blocked != up)) __builtin_trap();
  }
  const std::size_t before = pathlab_grid_link_count(g);
  std::size_t added = 0;
  for (std::size_t k = 0; k < 2; ++k) {
    pathlab_map_link l;
    std::memset(&l, 0, sizeof l);
    l.from_x = cell(57 + 6 * k, w);
    l.from_y = cell(58 + 6 * k, h);
    l.to_x = cell(59 + 6 * k, w);
    l.to_y = cell(60 + 6 * k, h);
    const int c = byte(61 + 6 * k);
    l.cost = c == 255 ? -1.0 : c == 254 ? NAN : c / 16.0;
    l.oneway = byte(62 + 6 * k) % 2;
    const pathlab_status s = pathlab_grid_add_link(g, &l);
    failed_with_message(s);
    if (s == PATHLAB_OK) {
      ++added;
    } else if (s != PATHLAB_INVALID) {
      __builtin_trap();
    }
  }
  if (pathlab_grid_link_count(g) != before + added) __builtin_trap();
  for (std::size_t i = 0; i < pathlab_grid_link_count(g); ++i) {
    pathlab_map_link l;
    if (pathlab_grid_link(g, i, &l) != PATHLAB_OK || !(l.cost > 0)) __builtin_trap();
    std::int32_t layer, x, y, gx, gy;
    if (pathlab_grid_locate(g, l.to_x, l.to_y, &layer, &x, &y) != PATHLAB_OK ||
        pathlab_grid_at(g, layer, x, y, &gx, &gy) != PATHLAB_OK || gx != l.to_x || gy != l.to_y)
      __builtin_trap();  // a link's ends are cells of a floor
  }
  pathlab_map_link past;
  if (pathlab_grid_link(g, pathlab_grid_link_count(g), &past) != PATHLAB_INVALID) __builtin_trap();
  // A cell of the input to a floor and back, and a floor's cell of the input to the grid.
  std::int32_t layer = -1, x = -1, y = -1, gx = -1, gy = -1;
  pathlab_status s = pathlab_grid_locate(g, cell(69, w), cell(70, h), &layer, &x, &y);
  failed_with_message(s);
  if (s == PATHLAB_OK && (pathlab_grid_at(g, layer, x, y, &gx, &gy) != PATHLAB_OK ||
                          gx != cell(69, w) || gy != cell(70, h)))
    __builtin_trap();
  s = pathlab_grid_at(g, byte(71) % 5 - 1, cell(72, w), cell(73, pathlab_grid_layer_height(g)), &gx,
                      &gy);
  failed_with_message(s);
  if (s == PATHLAB_OK && (gx < 0 || gy < 0 || gx >= w || gy >= h)) __builtin_trap();
  if (byte(74) % 4 == 0) {
    std::size_t removed = 99;
    pathlab_map_link l;
    if (pathlab_grid_link_count(g) > 0 && pathlab_grid_link(g, 0, &l) == PATHLAB_OK &&
        (pathlab_grid_remove_links(g, l.from_x, l.from_y, l.to_x, l.to_y, &removed) != PATHLAB_OK ||
         removed == 0))
      __builtin_trap();
  }
}

// A layered grid of input bytes: 1 to 3 floors of up to 12x8 cells, its layout from the input.
template <class Byte>
pathlab_grid* layered_grid(std::string_view in, Byte&& byte) {
  const int w = 1 + byte(75) % 12, h = 1 + byte(76) % 8, layers = 1 + byte(77) % 3;
  std::string classes(static_cast<std::size_t>(w * h * layers), '.');
  static constexpr char kClasses[] = "..@.S.T.";
  for (std::size_t i = 0; i < classes.size() && i < in.size(); ++i)
    classes[i] = kClasses[static_cast<std::uint8_t>(in[i]) % 8];
  if (byte(78) == 1) classes[0] = ' ';  // refused
  pathlab_grid* g = nullptr;
  const pathlab_status s = pathlab_grid_from_layers(w, h, layers, classes.c_str(), &g);
  failed_with_message(s);
  if (s != PATHLAB_OK) {
    if (g != nullptr || s != PATHLAB_INVALID) __builtin_trap();
    return nullptr;
  }
  if (pathlab_grid_layers(g) != layers || pathlab_grid_layer_height(g) != h ||
      pathlab_grid_width(g) != w || pathlab_grid_height(g) < layers * h)
    __builtin_trap();
  static const char* const kLayouts[] = {"square", "pointy-odd-r", "flat-even-q", "hexagonal"};
  const pathlab_status t = pathlab_grid_set_layout(g, kLayouts[byte(79) % 4]);
  failed_with_message(t);
  if ((t == PATHLAB_OK) != (byte(79) % 4 != 3)) __builtin_trap();
  return g;
}

// Searches, a batch, query shapes, a field (followed by pathlab_field_next) and, on small maps,
// a simulation on g with the options o and cells of the input.
template <class Byte, class Text>
void exercise(pathlab_grid* g, const pathlab_options& o, Byte&& byte, Text&& text) {
  searched = g;
  const int w = pathlab_grid_width(g), h = pathlab_grid_height(g);
  if (w < 1 || h < 1) __builtin_trap();
  // Cells from the input: some outside the map.
  auto cell = [&](std::size_t i, int side) { return static_cast<int>(byte(i)) % (side + 2) - 1; };
  std::int32_t cells[8];
  for (int i = 0; i < 8; ++i) cells[i] = cell(3 + i, i % 2 == 0 ? w : h);

  pathlab_finder* f = nullptr;
  const pathlab_status made = pathlab_finder_new(g, &o, &f);
  failed_with_message(made);
  if (made == PATHLAB_OK) {
    for (int q = 0; q < 2; ++q) {
      pathlab_result r;
      const std::int32_t* c = cells + 4 * q;
      const pathlab_status s = pathlab_find(f, c[0], c[1], c[2], c[3], &r);
      failed_with_message(s);
      if (s > PATHLAB_INVALID) __builtin_trap();
      if (s == PATHLAB_OK && (r.path_cells < 1 || r.path[0] != c[0] || r.path[1] != c[1] ||
                              r.path[2 * r.path_cells - 2] != c[2] ||
                              r.path[2 * r.path_cells - 1] != c[3] || !(r.cost >= 0))) {
        __builtin_trap();
      }
    }
    std::vector<double> costs(2);
    const pathlab_status s = pathlab_find_many(g, &o, 2, cells, cells + 4, costs.data(), 1);
    failed_with_message(s);
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
    query_shapes(f, cells, byte, text(5));
  } else if (f != nullptr || made != PATHLAB_INVALID) {
    __builtin_trap();
  }
  pathlab_finder_free(f);

  pathlab_field* field = nullptr;
  const pathlab_status built = pathlab_field_build(g, &o, 2, cells, &field);
  failed_with_message(built);
  if (built == PATHLAB_OK) {
    const double* d = pathlab_field_distance(field);
    const std::int8_t* dir = pathlab_field_direction(field);
    if (d == nullptr || dir == nullptr || d[cells[1] * w + cells[0]] != 0) __builtin_trap();
    // Down the field from a cell of the input: each next cell is nearer a goal, until one.
    std::int32_t x = cells[4], y = cells[5];
    for (int steps = 0; steps < 4 * (w + h); ++steps) {
      std::int32_t nx = -1, ny = -1;
      const pathlab_status s = pathlab_field_next(field, x, y, &nx, &ny);
      failed_with_message(s);
      if (s != PATHLAB_OK) {
        if (s == PATHLAB_NO_PATH && std::isfinite(d[y * w + x]) && d[y * w + x] != 0)
          __builtin_trap();  // a reachable cell that is not a goal has a next cell
        if (s != PATHLAB_NO_PATH && s != PATHLAB_INVALID) __builtin_trap();
        break;
      }
      if (nx < 0 || ny < 0 || nx >= w || ny >= h || !(d[ny * w + nx] < d[y * w + x]))
        __builtin_trap();
      x = nx;
      y = ny;
    }
  } else if (field != nullptr) {
    __builtin_trap();
  }
  pathlab_field_free(field);
  if (std::int64_t{w} * h <= 64 * 64) simulate(g, cells, byte, text(6));
  searched = nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // Line 1: ALGORITHM|DIAGONAL|CLASS_COSTS|EDIT|NUMBERS|SMOOTHING|PLANNER|GRAVITY|LAYOUT (empty
  // fields: NULL).
  std::string fields[9];
  {
    std::string_view line = take_line(in);
    for (int i = 0; i < 9; ++i) {
      const std::size_t bar = line.find('|');
      fields[i] = std::string(line.substr(0, bar));
      line = bar == std::string_view::npos ? std::string_view{} : line.substr(bar + 1);
    }
  }
  const std::string format(take_line(in));  // line 2: the format name ("" = detect)
  auto byte = [&fields](std::size_t i) -> std::uint8_t {
    return i < fields[4].size() ? static_cast<std::uint8_t>(fields[4][i]) : 0;
  };
  auto text = [&fields](int i) { return fields[i].empty() ? nullptr : fields[i].c_str(); };
  pathlab_options o;
  std::memset(&o, 0, sizeof o);
  o.algorithm = fields[0].empty() ? nullptr : fields[0].c_str();
  o.diagonal = fields[1].empty() ? nullptr : fields[1].c_str();
  o.class_costs = fields[2].empty() ? nullptr : fields[2].c_str();
  o.weight = byte(0) % 5 == 4 ? -1.0 : (byte(0) % 5) * 0.75;
  o.radius = byte(1) % 7 == 6 ? NAN : (byte(1) % 7) * 0.5;
  o.node_limit = 1 + byte(2) * 100u;

  pathlab_grid* g = nullptr;
  const pathlab_status parsed =
      pathlab_grid_parse(in.data(), in.size(), format.empty() ? nullptr : format.c_str(), &g);
  failed_with_message(parsed);
  if (parsed != PATHLAB_OK) {
    if (g != nullptr || (parsed != PATHLAB_PARSE_ERROR && parsed != PATHLAB_INVALID))
      __builtin_trap();
    return 0;
  }
  if (!fields[3].empty()) {
    const pathlab_status s = pathlab_grid_edit(g, fields[3].c_str());
    failed_with_message(s);
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
  }
  if (!fields[8].empty()) {
    const pathlab_status s = pathlab_grid_set_layout(g, fields[8].c_str());
    failed_with_message(s);
    // (The C API reads the field as a C string: up to its first NUL byte.)
    if (s == PATHLAB_OK && std::string_view(text(8)) != pathlab_grid_layout(g)) __builtin_trap();
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
  }
  map_kinds(g, byte);
  exercise(g, o, byte, text);
  pathlab_grid_free(g);

  // A layered grid of the map bytes, with edge walls and links of the input.
  if (pathlab_grid* layered = layered_grid(in, byte)) {
    map_kinds(layered, byte);
    exercise(layered, o, byte, text);
    pathlab_grid_free(layered);
  }
  link_game(in, byte, text(7));
  return 0;
}
