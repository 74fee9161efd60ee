/* The C ABI (pathlab/pathlab.h) from C99: every entry point with good and bad arguments, paths
 * checked for legality and cost, batches against single queries, flow fields against searches,
 * edits, movement ranges against Dijkstra, partial paths, nearest goals, sliced searches, line
 * of sight and smoothing, the simulation, the Link game, hex grids, walls on cell edges,
 * layered maps and links, and the Moving AI optimum on shared maps. Compiled with warnings as
 * errors.
 *
 *   capi_test SOURCE_DIR SHARED_DIR                   the checks; last line "capi: N passed, N
 *                                                     failed"
 *   capi_test solve MAP ALGO SX SY GX GY [GX GY ...]  one search (several goals: the nearest)
 *   capi_test partial MAP ALGO SX SY GX GY EDIT       a search with its partial path, after EDIT
 *   capi_test reach MAP SX SY BUDGET                  a movement range
 *   capi_test kinds SPEC solve ALGO SL SX SY GL GX GY one search on a grid made from a spec
 *                                                     (spec_grid: layers, layout, edge walls,
 *                                                     links), cells as (floor, x, y)
 *   capi_test kinds SPEC reach SL SX SY BUDGET        a movement range there
 * The last five print one JSON object, for tests/capi/compare_cli.py. */
#include <pathlab/pathlab.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

static void check(int ok, const char* what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    printf("FAIL %s (last error: %s)\n", what, pathlab_last_error());
  }
}

/* A failed call: the expected status and a message for this thread. */
static void refused(pathlab_status got, pathlab_status want, const char* what) {
  char line[512];
  snprintf(line, sizeof line, "%s: status %d, want %d, with a message", what, (int)got, (int)want);
  check(got == want && pathlab_last_error()[0] != '\0', line);
}

static const char* names[] = {"bfs",       "dfs",           "iddfs",   "bibfs",      "dijkstra",
                              "greedy",    "astar",         "wastar",  "biastar",    "idastar",
                              "jps",       "jps+",          "subgoal", "subgoal-ch", "theta",
                              "lazytheta", "anyangle-exact", "anyangle-labels"};
static const int any_angle[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
static const int optimal[] = {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
#define ALGORITHMS ((int)(sizeof names / sizeof names[0]))

/* Whether the path runs from start to goal in legal 8-neighbour steps (no corner cutting) over
 * cells a "." grid allows, and its cost (straight 1, diagonal sqrt 2). */
static int legal_path(const pathlab_grid* g, const char* classes, const pathlab_result* r, int sx,
                      int sy, int gx, int gy, double* cost) {
  int w = pathlab_grid_width(g);
  size_t i;
  *cost = 0;
  if (r->path_cells == 0 || r->path[0] != sx || r->path[1] != sy) return 0;
  if (r->path[2 * (r->path_cells - 1)] != gx || r->path[2 * (r->path_cells - 1) + 1] != gy)
    return 0;
  for (i = 0; i < r->path_cells; ++i) {
    if (classes[r->path[2 * i + 1] * w + r->path[2 * i]] != '.') return 0;
  }
  for (i = 1; i < r->path_cells; ++i) {
    int x0 = r->path[2 * i - 2], y0 = r->path[2 * i - 1], x1 = r->path[2 * i],
        y1 = r->path[2 * i + 1];
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    if (dx > 1 || dy > 1 || dx + dy == 0) return 0;
    if (dx + dy == 2) {
      if (classes[y0 * w + x1] != '.' || classes[y1 * w + x0] != '.') return 0;
      *cost += sqrt(2.0);
    } else {
      *cost += 1.0;
    }
  }
  return 1;
}

static void bad_input(void) {
  pathlab_grid* g = NULL;
  pathlab_finder* f = NULL;
  pathlab_field* field = NULL;
  pathlab_options o;
  pathlab_result r;
  int32_t cells[4] = {0, 0, 1, 1};
  double costs[2];
  const char* broken = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";

  memset(&o, 0, sizeof o);
  refused(pathlab_grid_load(NULL, &g), PATHLAB_INVALID, "grid_load(NULL path)");
  refused(pathlab_grid_load("maps/seed_maze.txt", NULL), PATHLAB_INVALID, "grid_load(NULL out)");
  refused(pathlab_grid_load("no/such/map.txt", &g), PATHLAB_PARSE_ERROR, "grid_load(missing file)");
  check(g == NULL, "a failed load leaves *out NULL");
  refused(pathlab_grid_parse(NULL, 3, NULL, &g), PATHLAB_INVALID, "grid_parse(NULL text)");
  refused(pathlab_grid_parse("...", 3, "hexagons", &g), PATHLAB_INVALID,
          "grid_parse(unknown format)");
  refused(pathlab_grid_parse(broken, strlen(broken), "movingai", &g), PATHLAB_PARSE_ERROR,
          "grid_parse(a short row)");
  check(strstr(pathlab_last_error(), "<text>:") != NULL, "a parse error names its place");
  refused(pathlab_grid_from_classes(0, 5, ".....", &g), PATHLAB_INVALID, "from_classes(width 0)");
  refused(pathlab_grid_from_classes(-3, -5, ".", &g), PATHLAB_INVALID, "from_classes(negative)");
  refused(pathlab_grid_from_classes(1 << 20, 1 << 20, ".", &g), PATHLAB_INVALID,
          "from_classes(2^40 cells)");
  refused(pathlab_grid_from_classes(2, 1, ". ", &g), PATHLAB_INVALID, "from_classes(a space)");
  refused(pathlab_grid_from_classes(2, 1, NULL, &g), PATHLAB_INVALID, "from_classes(NULL)");
  refused(pathlab_grid_edit(NULL, "wall:1,1"), PATHLAB_INVALID, "grid_edit(NULL grid)");
  check(pathlab_grid_width(NULL) == 0 && pathlab_grid_height(NULL) == 0, "NULL grid is 0x0");
  pathlab_grid_free(NULL);
  pathlab_finder_free(NULL);
  pathlab_field_free(NULL);
  check(pathlab_field_distance(NULL) == NULL && pathlab_field_direction(NULL) == NULL,
        "NULL field");

  if (pathlab_grid_from_classes(4, 3, "....\n.@..\n....", &g) == PATHLAB_OK) {
    check(0, "from_classes refuses a newline as a class");
    pathlab_grid_free(g);
  }
  check(pathlab_grid_from_classes(4, 3, "......@.....", &g) == PATHLAB_OK, "from_classes 4x3");
  refused(pathlab_grid_edit(g, NULL), PATHLAB_INVALID, "grid_edit(NULL text)");
  refused(pathlab_grid_edit(g, "wall:9,9"), PATHLAB_INVALID, "grid_edit(outside)");
  refused(pathlab_grid_edit(g, "paint:1,1"), PATHLAB_INVALID, "grid_edit(unknown kind)");
  refused(pathlab_finder_new(NULL, &o, &f), PATHLAB_INVALID, "finder_new(NULL grid)");
  refused(pathlab_finder_new(g, &o, NULL), PATHLAB_INVALID, "finder_new(NULL out)");
  o.algorithm = "teleport";
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(unknown algorithm)");
  check(strstr(pathlab_last_error(), "teleport") != NULL, "the message names the bad algorithm");
  o.algorithm = NULL;
  o.diagonal = "sideways";
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(unknown diagonal rule)");
  o.diagonal = NULL;
  o.weight = -1;
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(weight -1)");
  o.weight = 0;
  o.radius = 40;
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(radius 40)");
  o.radius = NAN;
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(radius NaN)");
  o.radius = 0;
  o.class_costs = "T=0.5";
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(class cost below 1)");
  o.class_costs = "T";
  refused(pathlab_finder_new(g, &o, &f), PATHLAB_INVALID, "finder_new(class cost without =)");
  o.class_costs = NULL;
  check(f == NULL, "refused finders leave *out NULL");
  check(pathlab_finder_new(g, NULL, &f) == PATHLAB_OK, "finder_new(NULL options: defaults)");
  refused(pathlab_find(NULL, 0, 0, 1, 1, &r), PATHLAB_INVALID, "find(NULL finder)");
  refused(pathlab_find(f, 0, 0, 1, 1, NULL), PATHLAB_INVALID, "find(NULL result)");
  refused(pathlab_find(f, -1, 0, 1, 1, &r), PATHLAB_INVALID, "find(start outside)");
  refused(pathlab_find(f, 0, 0, 4, 0, &r), PATHLAB_INVALID, "find(goal outside)");
  refused(pathlab_find(f, 0, 0, 2, 1, &r), PATHLAB_INVALID, "find(goal on a wall)");
  check(strstr(pathlab_last_error(), "2,1") != NULL, "the message names the cell");
  refused(pathlab_find_many(NULL, NULL, 1, cells, cells, costs, 0), PATHLAB_INVALID,
          "find_many(NULL grid)");
  refused(pathlab_find_many(g, NULL, 1, NULL, cells, costs, 0), PATHLAB_INVALID,
          "find_many(NULL starts)");
  refused(pathlab_find_many(g, NULL, 1, cells, cells, NULL, 0), PATHLAB_INVALID,
          "find_many(NULL costs)");
  refused(pathlab_find_many(g, NULL, 1, cells, cells, costs, -2), PATHLAB_INVALID,
          "find_many(-2 threads)");
  cells[2] = 7;
  costs[0] = costs[1] = 42;
  refused(pathlab_find_many(g, NULL, 2, cells, cells, costs, 0), PATHLAB_INVALID,
          "find_many(outside)");
  check(costs[0] == 42 && costs[1] == 42, "a refused batch computes nothing");
  check(pathlab_find_many(g, NULL, 0, NULL, NULL, NULL, 0) == PATHLAB_OK, "an empty batch");
  refused(pathlab_field_build(NULL, NULL, 1, cells, &field), PATHLAB_INVALID,
          "field_build(NULL grid)");
  refused(pathlab_field_build(g, NULL, 1, NULL, &field), PATHLAB_INVALID,
          "field_build(NULL goals)");
  refused(pathlab_field_build(g, NULL, 0, cells, &field), PATHLAB_INVALID, "field_build(no goal)");
  cells[0] = 2;
  cells[1] = 1;
  refused(pathlab_field_build(g, NULL, 1, cells, &field), PATHLAB_INVALID,
          "field_build(goal on a wall)");
  refused(pathlab_field_build(g, NULL, 1, cells, NULL), PATHLAB_INVALID, "field_build(NULL out)");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
}

/* The text of a Moving AI map as row-major classes (ground '.', everything else kept). */
static char* map_classes(const char* path, int* w, int* h) {
  FILE* in = fopen(path, "rb");
  char line[8192];
  char* classes;
  int y = 0;
  if (in == NULL) return NULL;
  if (fscanf(in, "type octile\nheight %d\nwidth %d\nmap\n", h, w) != 2) {
    fclose(in);
    return NULL;
  }
  classes = malloc((size_t)*w * (size_t)*h);
  while (classes != NULL && y < *h && fgets(line, sizeof line, in) != NULL) {
    int x;
    for (x = 0; x < *w; ++x) classes[y * *w + x] = line[x] == 'G' ? '.' : line[x];
    ++y;
  }
  fclose(in);
  return classes;
}

static void searches_on(const pathlab_grid* g, const char* classes, int sx, int sy, int gx,
                        int gy) {
  double best = -1;
  int i;
  for (i = 0; i < ALGORITHMS; ++i) {
    pathlab_options o;
    pathlab_finder* f = NULL;
    pathlab_result r;
    double steps;
    char what[128];
    memset(&o, 0, sizeof o);
    o.algorithm = names[i];
    snprintf(what, sizeof what, "%s finds a path", names[i]);
    if (pathlab_finder_new(g, &o, &f) != PATHLAB_OK) {
      check(0, what);
      continue;
    }
    check(pathlab_find(f, sx, sy, gx, gy, &r) == PATHLAB_OK, what);
    if (!any_angle[i]) {
      snprintf(what, sizeof what, "%s: a legal path whose cost is its steps'", names[i]);
      check(legal_path(g, classes, &r, sx, sy, gx, gy, &steps) && fabs(steps - r.cost) < 1e-6,
            what);
    }
    if (optimal[i] && !any_angle[i]) {
      if (best < 0) best = r.cost;
      snprintf(what, sizeof what, "%s costs as much as dijkstra", names[i]);
      check(fabs(best - r.cost) < 1e-6, what);
    }
    pathlab_finder_free(f);
  }
}

static void on_seed_maze(const char* source) {
  char path[4096];
  pathlab_grid* g = NULL;
  pathlab_finder* before = NULL;
  pathlab_finder* after = NULL;
  pathlab_field* field = NULL;
  pathlab_result r;
  pathlab_options o;
  char* classes;
  int32_t starts[6] = {7, 2, 0, 1, 27, 17};
  int32_t goals[6] = {9, 9, 28, 18, 7, 2};
  int32_t goal[2] = {9, 9};
  double costs[3];
  int i, w, h;
  double cost_before;

  snprintf(path, sizeof path, "%s/maps/seed_maze.txt", source);
  check(pathlab_grid_load(path, &g) == PATHLAB_OK, "grid_load(seed_maze.txt)");
  if (g == NULL) return;
  w = pathlab_grid_width(g);
  h = pathlab_grid_height(g);
  check(w == 30 && h == 20, "seed_maze is 30x20");
  /* Its classes, read back through single-cell searches is too slow: derive them from a field. */
  memset(&o, 0, sizeof o);
  check(pathlab_field_build(g, &o, 1, goal, &field) == PATHLAB_OK, "field_build on seed_maze");
  classes = malloc((size_t)w * (size_t)h);
  if (field != NULL && classes != NULL) {
    const double* d = pathlab_field_distance(field);
    const int8_t* dir = pathlab_field_direction(field);
    pathlab_finder* f = NULL;
    int reachable = 0, agree = 1;
    for (i = 0; i < w * h; ++i) classes[i] = isinf(d[i]) ? '@' : '.';
    check(d[9 * w + 9] == 0 && dir[9 * w + 9] == -1, "the goal's distance is 0, no direction");
    pathlab_finder_new(g, &o, &f);
    for (i = 0; i < w * h; i += 7) {
      if (isinf(d[i])) continue;
      ++reachable;
      if (pathlab_find(f, i % w, i / w, 9, 9, &r) != PATHLAB_OK || fabs(r.cost - d[i]) > 1e-6)
        agree = 0;
    }
    check(reachable > 20 && agree,
          "every 7th reachable cell's distance is its A* cost to the goal");
    pathlab_finder_free(f);
    searches_on(g, classes, 7, 2, 9, 9);
  }
  pathlab_field_free(field);

  /* A batch answers as single queries do, NaN where there is no path. */
  check(pathlab_find_many(g, NULL, 3, starts, goals, costs, 2) == PATHLAB_OK,
        "find_many on 2 threads");
  pathlab_finder_new(g, NULL, &before);
  for (i = 0; i < 3; ++i) {
    pathlab_status s =
        pathlab_find(before, starts[2 * i], starts[2 * i + 1], goals[2 * i], goals[2 * i + 1], &r);
    if (s == PATHLAB_INVALID) {
      check(isnan(costs[i]), "find_many: NaN for a query on a wall");
    } else {
      check(s == PATHLAB_OK ? fabs(costs[i] - r.cost) < 1e-9 : isnan(costs[i]),
            "find_many equals find");
    }
  }

  /* An edit: a finder made before it answers as one made after it. */
  check(pathlab_find(before, 7, 2, 9, 9, &r) == PATHLAB_OK, "before the edit");
  cost_before = r.cost;
  check(pathlab_grid_edit(g, "wall:0,4:28,4") == PATHLAB_OK, "grid_edit(a wall row)");
  pathlab_finder_new(g, NULL, &after);
  {
    pathlab_status s1 = pathlab_find(before, 7, 2, 9, 9, &r);
    double c1 = r.cost;
    pathlab_status s2 = pathlab_find(after, 7, 2, 9, 9, &r);
    check(s1 == s2 && (s1 != PATHLAB_OK || fabs(c1 - r.cost) < 1e-9),
          "the old finder answers for the edited grid");
    check(s1 != PATHLAB_OK || c1 > cost_before, "the edit made the way longer");
  }
  check(pathlab_grid_edit(g, "free:0,4:28,4") == PATHLAB_OK, "grid_edit(free it again)");
  check(pathlab_find(after, 7, 2, 9, 9, &r) == PATHLAB_OK && r.cost <= cost_before + 1e-9,
        "freed: as short as before or shorter");
  pathlab_finder_free(before);
  pathlab_finder_free(after);
  free(classes);
  pathlab_grid_free(g);
}

/* The Moving AI optimum on a shared map: the scenario file's first 50 queries. */
static void on_den520d(const char* shared) {
  char path[4096], line[1024];
  pathlab_grid* g = NULL;
  pathlab_finder* f = NULL;
  pathlab_options o;
  FILE* scen;
  int checked = 0, right = 0, w, h;
  char* classes;
  snprintf(path, sizeof path, "%s/benchmarks/movingai/den520d.map", shared);
  classes = map_classes(path, &w, &h);
  if (classes == NULL) {
    printf("SKIP: %s not found: the Moving AI checks need ../shared\n", path);
    return;
  }
  check(pathlab_grid_load(path, &g) == PATHLAB_OK, "grid_load(den520d.map)");
  memset(&o, 0, sizeof o);
  o.algorithm = "jps+";
  pathlab_finder_new(g, &o, &f);
  strncat(path, ".scen", sizeof path - strlen(path) - 1);
  scen = fopen(path, "r");
  while (scen != NULL && f != NULL && checked < 50 && fgets(line, sizeof line, scen) != NULL) {
    int bucket, mw, mh, sx, sy, gx, gy;
    double optimum, steps;
    char name[256];
    pathlab_result r;
    if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, name, &mw, &mh, &sx, &sy, &gx, &gy,
               &optimum) != 9) {
      continue;
    }
    ++checked;
    if (pathlab_find(f, sx, sy, gx, gy, &r) == PATHLAB_OK &&
        fabs(r.cost - optimum) <= 0.005 + 1e-5 * optimum &&
        legal_path(g, classes, &r, sx, sy, gx, gy, &steps)) {
      ++right;
    }
  }
  if (scen != NULL) fclose(scen);
  check(checked == 50 && right == checked,
        "jps+ gives the Moving AI optimum on 50 den520d queries");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  free(classes);
}

/* ---- The rest of the runtime: query shapes, the simulation, the Link game. */

/* Every new entry point with NULL arguments, bad sizes and bad names: a status and a message,
 * never a crash. */
static void bad_input_more(void) {
  pathlab_grid* g = NULL;
  pathlab_grid* copy = (pathlab_grid*)&copy; /* not NULL: a refusal must set it NULL */
  pathlab_finder* f = NULL;
  pathlab_world* world = NULL;
  pathlab_board* board = NULL;
  pathlab_options o;
  pathlab_result r;
  pathlab_partial partial;
  pathlab_range range;
  pathlab_smoothed smoothed;
  pathlab_world_options wo;
  pathlab_agent agent;
  pathlab_obstacle obstacle;
  pathlab_link_line line;
  pathlab_link_moves moves;
  int32_t goals[4] = {0, 0, 3, 2};
  int32_t jump[4] = {0, 0, 3, 0};
  double points[2] = {0, 0};
  int visible = 7;
  const char* ragged = "AB\nABC\n";

  memset(&o, 0, sizeof o);
  memset(&wo, 0, sizeof wo);
  memset(&agent, 0, sizeof agent);
  memset(&obstacle, 0, sizeof obstacle);
  /* 4x3, one wall: "....", "..@.", "....". */
  if (pathlab_grid_from_classes(4, 3, "......@.....", &g) != PATHLAB_OK ||
      pathlab_finder_new(g, &o, &f) != PATHLAB_OK) {
    check(0, "a 4x3 grid and its finder");
    pathlab_grid_free(g);
    return;
  }
  /* Query shapes. */
  refused(pathlab_find_partial(NULL, 0, 0, 3, 2, &r, &partial), PATHLAB_INVALID,
          "find_partial(NULL finder)");
  refused(pathlab_find_partial(f, 0, 0, 3, 2, NULL, &partial), PATHLAB_INVALID,
          "find_partial(NULL result)");
  refused(pathlab_find_partial(f, 0, 0, 3, 2, &r, NULL), PATHLAB_INVALID,
          "find_partial(NULL partial)");
  refused(pathlab_find_partial(f, 0, 0, 2, 1, &r, &partial), PATHLAB_INVALID,
          "find_partial(goal on a wall)");
  check(strstr(pathlab_last_error(), "2,1") != NULL, "find_partial names the wall");
  refused(pathlab_find_partial(f, 9, 0, 1, 0, &r, &partial), PATHLAB_INVALID,
          "find_partial(start outside)");
  refused(pathlab_find_nearest(NULL, 0, 0, 2, goals, &r, NULL), PATHLAB_INVALID,
          "find_nearest(NULL finder)");
  refused(pathlab_find_nearest(f, 0, 0, 2, NULL, &r, NULL), PATHLAB_INVALID,
          "find_nearest(NULL goals)");
  refused(pathlab_find_nearest(f, 0, 0, 0, goals, &r, NULL), PATHLAB_INVALID,
          "find_nearest(no goal)");
  refused(pathlab_find_nearest(f, 0, 0, 2, goals, NULL, NULL), PATHLAB_INVALID,
          "find_nearest(NULL result)");
  goals[2] = 2;
  goals[3] = 1;
  refused(pathlab_find_nearest(f, 0, 0, 2, goals, &r, NULL), PATHLAB_INVALID,
          "find_nearest(a goal on a wall)");
  check(strstr(pathlab_last_error(), "goal 2,1") != NULL, "find_nearest names the bad goal");
  goals[2] = -5;
  refused(pathlab_find_nearest(f, 0, 0, 2, goals, &r, &partial), PATHLAB_INVALID,
          "find_nearest(a goal outside)");
  refused(pathlab_reach(NULL, 0, 0, 3, &range), PATHLAB_INVALID, "reach(NULL finder)");
  refused(pathlab_reach(f, 0, 0, 3, NULL), PATHLAB_INVALID, "reach(NULL range)");
  refused(pathlab_reach(f, 0, 0, -1, &range), PATHLAB_INVALID, "reach(budget -1)");
  refused(pathlab_reach(f, 0, 0, NAN, &range), PATHLAB_INVALID, "reach(budget NaN)");
  refused(pathlab_reach(f, 2, 1, 3, &range), PATHLAB_INVALID, "reach(start on a wall)");
  refused(pathlab_reach(f, 0, 3, 3, &range), PATHLAB_INVALID, "reach(start outside)");
  check(range.count == 0 && range.cells == NULL, "a refused range is empty");
  refused(pathlab_slice_start(NULL, 0, 0, 3, 2), PATHLAB_INVALID, "slice_start(NULL finder)");
  refused(pathlab_slice_start(f, 0, 0, 2, 1), PATHLAB_INVALID, "slice_start(goal on a wall)");
  check(pathlab_slice_active(f) == 0 && pathlab_slice_active(NULL) == 0,
        "a refused slice_start starts nothing");
  refused(pathlab_slice_run(f, 10, &r), PATHLAB_INVALID, "slice_run(nothing started)");
  refused(pathlab_slice_run(NULL, 10, &r), PATHLAB_INVALID, "slice_run(NULL finder)");
  check(pathlab_slice_start(f, 0, 0, 3, 2) == PATHLAB_OK, "slice_start");
  refused(pathlab_slice_run(f, 0, &r), PATHLAB_INVALID, "slice_run(0 expansions)");
  refused(pathlab_slice_run(f, 10, NULL), PATHLAB_INVALID, "slice_run(NULL result)");
  pathlab_slice_cancel(f);
  pathlab_slice_cancel(NULL);
  check(pathlab_slice_active(f) == 0, "slice_cancel ends it");
  refused(pathlab_line_of_sight(NULL, 0, 0, 3, 0, &visible), PATHLAB_INVALID,
          "line_of_sight(NULL finder)");
  refused(pathlab_line_of_sight(f, 0, 0, 3, 0, NULL), PATHLAB_INVALID,
          "line_of_sight(NULL visible)");
  refused(pathlab_line_of_sight(f, 0, 0, 4, 0, &visible), PATHLAB_INVALID,
          "line_of_sight(outside)");
  check(visible == 0, "a refused line of sight says 0");
  check(pathlab_line_of_sight(f, 0, 0, 2, 1, &visible) == PATHLAB_OK && visible == 0,
        "no line of sight to a wall");
  refused(pathlab_smooth(NULL, 2, jump, NULL, &smoothed), PATHLAB_INVALID, "smooth(NULL finder)");
  refused(pathlab_smooth(f, 2, NULL, NULL, &smoothed), PATHLAB_INVALID, "smooth(NULL path)");
  refused(pathlab_smooth(f, 2, jump, NULL, NULL), PATHLAB_INVALID, "smooth(NULL out)");
  refused(pathlab_smooth(f, 2, jump, "wiggle", &smoothed), PATHLAB_INVALID,
          "smooth(unknown method)");
  check(strstr(pathlab_last_error(), "wiggle") != NULL, "the message names the method");
  jump[2] = 2;
  jump[3] = 2;
  refused(pathlab_smooth(f, 2, jump, NULL, &smoothed), PATHLAB_INVALID,
          "smooth(cells that do not see each other)");
  jump[2] = 2;
  jump[3] = 1;
  refused(pathlab_smooth(f, 2, jump, NULL, &smoothed), PATHLAB_INVALID, "smooth(a wall)");
  jump[2] = 4;
  refused(pathlab_smooth(f, 2, jump, "greedy", &smoothed), PATHLAB_INVALID, "smooth(outside)");
  check(pathlab_smooth(f, 0, NULL, NULL, &smoothed) == PATHLAB_OK && smoothed.path_cells == 0,
        "smoothing no path gives no path");

  /* The simulation. */
  refused(pathlab_world_new(NULL, NULL, 0, NULL, &world), PATHLAB_INVALID, "world_new(NULL grid)");
  refused(pathlab_world_new(g, NULL, 0, NULL, NULL), PATHLAB_INVALID, "world_new(NULL out)");
  refused(pathlab_world_new(g, NULL, 1, NULL, &world), PATHLAB_INVALID, "world_new(NULL agents)");
  agent.start_x = 0.5;
  agent.start_y = 0.5;
  agent.goal_x = 3.5;
  agent.goal_y = 2.5;
  wo.dt = -1;
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID, "world_new(dt -1)");
  wo.dt = 0;
  wo.diagonal = "sideways";
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID,
          "world_new(unknown diagonal rule)");
  wo.diagonal = NULL;
  agent.planner = "teleport";
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID,
          "world_new(unknown planner)");
  check(strstr(pathlab_last_error(), "teleport") != NULL, "the message names the planner");
  agent.planner = NULL;
  agent.goal_x = 2.5;
  agent.goal_y = 1.5;
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID,
          "world_new(a goal in a wall)");
  check(strstr(pathlab_last_error(), "agent 1") != NULL, "the message names the agent");
  agent.goal_x = NAN;
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID, "world_new(NaN goal)");
  agent.goal_x = 1e300;
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID,
          "world_new(a goal far outside)");
  agent.goal_x = 3.5;
  agent.goal_y = 2.5;
  agent.radius = -1;
  refused(pathlab_world_new(g, &wo, 1, &agent, &world), PATHLAB_INVALID, "world_new(radius -1)");
  agent.radius = 0;
  check(world == NULL, "refused worlds leave *out NULL");
  refused(pathlab_world_load(NULL, NULL, &world), PATHLAB_INVALID, "world_load(NULL path)");
  refused(pathlab_world_load("scenarios/x.json", NULL, NULL), PATHLAB_INVALID,
          "world_load(NULL out)");
  refused(pathlab_world_load("no/such/scenario.json", NULL, &world), PATHLAB_PARSE_ERROR,
          "world_load(missing file)");
  refused(pathlab_world_load("no/such/scenario.json", "teleport", &world), PATHLAB_INVALID,
          "world_load(unknown planner)");
  refused(pathlab_world_parse(NULL, 3, NULL, NULL, &world), PATHLAB_INVALID,
          "world_parse(NULL text)");
  refused(pathlab_world_parse("{\"map\": 3", 9, NULL, NULL, &world), PATHLAB_PARSE_ERROR,
          "world_parse(broken JSON)");
  check(strstr(pathlab_last_error(), "<scenario>:") != NULL, "a scenario error names its place");
  refused(pathlab_world_step(NULL, 1), PATHLAB_INVALID, "world_step(NULL)");
  refused(pathlab_world_grid(NULL, &copy), PATHLAB_INVALID, "world_grid(NULL world)");
  check(copy == NULL, "a refused world_grid leaves *out NULL");
  refused(pathlab_world_grid(world, NULL), PATHLAB_INVALID, "world_grid(NULL out)");
  check(pathlab_world_finished(NULL) == 1 && pathlab_world_time(NULL) == 0 &&
            pathlab_world_ticks(NULL) == 0 && pathlab_world_agent_count(NULL) == 0 &&
            pathlab_world_agents(NULL) == NULL && pathlab_world_metrics(NULL) == NULL &&
            pathlab_world_obstacle_count(NULL) == 0 && pathlab_world_obstacles(NULL) == NULL,
        "a NULL world answers its defaults");
  pathlab_world_free(NULL);
  check(pathlab_world_new(g, NULL, 1, &agent, &world) == PATHLAB_OK, "world_new(one agent)");
  refused(pathlab_world_add_obstacle(NULL, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(NULL world)");
  refused(pathlab_world_add_obstacle(world, NULL), PATHLAB_INVALID,
          "world_add_obstacle(NULL obstacle)");
  obstacle.x = 2;
  obstacle.y = 2;
  obstacle.radius = 0;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(radius 0)");
  obstacle.radius = 0.4;
  obstacle.x = 40;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(outside)");
  obstacle.x = 2;
  obstacle.vx = INFINITY;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(infinite speed)");
  obstacle.vx = 0;
  obstacle.points_n = 1;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(NULL points)");
  obstacle.points = points;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(one point)");
  obstacle.points = NULL;
  obstacle.points_n = 0;
  obstacle.disappear = -3;
  refused(pathlab_world_add_obstacle(world, &obstacle), PATHLAB_INVALID,
          "world_add_obstacle(gone before it comes)");
  check(pathlab_world_obstacle_count(world) == 0, "refused obstacles are not added");
  pathlab_world_free(world);

  /* The Link game. */
  refused(pathlab_board_parse(NULL, 3, &board), PATHLAB_INVALID, "board_parse(NULL text)");
  refused(pathlab_board_parse("AA", 2, NULL), PATHLAB_INVALID, "board_parse(NULL out)");
  refused(pathlab_board_parse(ragged, strlen(ragged), &board), PATHLAB_PARSE_ERROR,
          "board_parse(ragged rows)");
  check(strstr(pathlab_last_error(), "<board>:") != NULL, "a board error names its place");
  refused(pathlab_board_load(NULL, &board), PATHLAB_INVALID, "board_load(NULL path)");
  refused(pathlab_board_load("no/such/board.txt", &board), PATHLAB_PARSE_ERROR,
          "board_load(missing file)");
  refused(pathlab_board_from_cells(0, 2, "AA", &board), PATHLAB_INVALID, "board_from_cells(0x2)");
  refused(pathlab_board_from_cells(300, 1, "AA", &board), PATHLAB_INVALID,
          "board_from_cells(300 wide)");
  refused(pathlab_board_from_cells(2, 1, NULL, &board), PATHLAB_INVALID,
          "board_from_cells(NULL cells)");
  refused(pathlab_board_from_cells(2, 1, "A ", &board), PATHLAB_INVALID,
          "board_from_cells(a space)");
  refused(pathlab_board_generate(3, 3, 2, 1, &board), PATHLAB_INVALID,
          "board_generate(an odd area)");
  refused(pathlab_board_generate(4, 4, 0, 1, &board), PATHLAB_INVALID, "board_generate(0 kinds)");
  refused(pathlab_board_generate(4, 4, 9, 1, &board), PATHLAB_INVALID,
          "board_generate(more kinds than pairs)");
  refused(pathlab_board_generate(4, 4, 2, 1, NULL), PATHLAB_INVALID, "board_generate(NULL out)");
  check(board == NULL, "refused boards leave *out NULL");
  check(pathlab_board_width(NULL) == 0 && pathlab_board_height(NULL) == 0 &&
            pathlab_board_cells(NULL) == NULL,
        "a NULL board is 0x0");
  pathlab_board_free(NULL);
  refused(pathlab_board_connect(NULL, 0, 0, 1, 0, &line), PATHLAB_INVALID,
          "board_connect(NULL board)");
  refused(pathlab_board_hint(NULL, &line), PATHLAB_INVALID, "board_hint(NULL board)");
  refused(pathlab_board_moves(NULL, &moves), PATHLAB_INVALID, "board_moves(NULL board)");
  refused(pathlab_board_play(NULL, 0, 0, 1, 0, NULL), PATHLAB_INVALID, "board_play(NULL board)");
  refused(pathlab_board_shuffle(NULL, 1), PATHLAB_INVALID, "board_shuffle(NULL board)");
  refused(pathlab_board_solve(NULL, NULL, 0, &moves), PATHLAB_INVALID, "board_solve(NULL board)");
  /* "AB.", "..B", ".A." */
  if (pathlab_board_from_cells(3, 3, "AB...B.A.", &board) == PATHLAB_OK) {
    refused(pathlab_board_connect(board, 0, 0, 1, 0, NULL), PATHLAB_INVALID,
            "board_connect(NULL out)");
    refused(pathlab_board_connect(board, 0, 0, 3, 0, &line), PATHLAB_INVALID,
            "board_connect(outside)");
    refused(pathlab_board_connect(board, 0, 0, 0, 0, &line), PATHLAB_INVALID,
            "board_connect(the same cell)");
    refused(pathlab_board_connect(board, 0, 0, 1, 0, &line), PATHLAB_NO_PATH,
            "board_connect(different kinds)");
    check(strcmp(pathlab_last_error(), "different kinds") == 0, "the CLI's reason");
    refused(pathlab_board_connect(board, 0, 0, 2, 0, &line), PATHLAB_NO_PATH,
            "board_connect(an empty cell)");
    refused(pathlab_board_hint(board, NULL), PATHLAB_INVALID, "board_hint(NULL out)");
    refused(pathlab_board_moves(board, NULL), PATHLAB_INVALID, "board_moves(NULL out)");
    refused(pathlab_board_play(board, 0, 0, 1, 2, "sideways"), PATHLAB_INVALID,
            "board_play(unknown gravity)");
    refused(pathlab_board_play(board, 0, 0, 1, 0, NULL), PATHLAB_NO_PATH,
            "board_play(a pair that does not connect)");
    refused(pathlab_board_play(board, -1, 0, 1, 0, NULL), PATHLAB_INVALID, "board_play(outside)");
    check(strcmp(pathlab_board_cells(board), "AB...B.A.") == 0, "refused plays change nothing");
    refused(pathlab_board_solve(board, "sideways", 0, &moves), PATHLAB_INVALID,
            "board_solve(unknown gravity)");
    refused(pathlab_board_solve(board, NULL, 0, NULL), PATHLAB_INVALID, "board_solve(NULL out)");
    pathlab_board_free(board);
  } else {
    check(0, "board_from_cells 3x3");
  }
  check(pathlab_board_from_cells(2, 2, "....", &board) == PATHLAB_OK, "an empty board");
  refused(pathlab_board_hint(board, &line), PATHLAB_NO_PATH, "board_hint(no tile)");
  refused(pathlab_board_shuffle(board, 1), PATHLAB_NO_PATH, "board_shuffle(no tile)");
  check(pathlab_board_solve(board, NULL, 0, &moves) == PATHLAB_OK && moves.count == 0,
        "an empty board is solved by no move");
  pathlab_board_free(board);

  pathlab_finder_free(f);
  pathlab_grid_free(g);
}

/* The grid's usable cells as '.' and the others as '@', from lines of sight of cells to
 * themselves (a cell sees itself iff the unit may stand on it). */
static char* usable_cells(const pathlab_finder* f, int w, int h) {
  char* classes = malloc((size_t)w * (size_t)h);
  int x, y;
  for (y = 0; classes != NULL && y < h; ++y) {
    for (x = 0; x < w; ++x) {
      int visible = 0;
      pathlab_line_of_sight(f, x, y, x, y, &visible);
      classes[y * w + x] = visible ? '.' : '@';
    }
  }
  return classes;
}

static double octile(int x0, int y0, int x1, int y1) {
  int dx = abs(x1 - x0), dy = abs(y1 - y0);
  int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (hi - lo) + sqrt(2.0) * lo;
}

/* A path (x, y pairs) given as a pathlab_result, for legal_path(). */
static pathlab_result as_result(const int32_t* path, size_t cells) {
  pathlab_result r;
  memset(&r, 0, sizeof r);
  r.path = path;
  r.path_cells = cells;
  return r;
}

/* Movement ranges against Dijkstra, partial paths, nearest goals, sliced searches, line of
 * sight and smoothing on the seed maze. */
static void query_shapes(const char* source) {
  char path[4096];
  pathlab_grid* g = NULL;
  pathlab_finder* dijkstra = NULL;
  pathlab_finder* astar = NULL;
  pathlab_field* from_start = NULL;
  pathlab_options o;
  pathlab_result r;
  pathlab_partial partial;
  pathlab_range range;
  char* classes;
  int32_t start[2] = {7, 2};
  int w, h, i;
  const double budget = 9.5;

  snprintf(path, sizeof path, "%s/maps/seed_maze.txt", source);
  if (pathlab_grid_load(path, &g) != PATHLAB_OK) {
    check(0, "grid_load(seed_maze.txt) for the query shapes");
    return;
  }
  w = pathlab_grid_width(g);
  h = pathlab_grid_height(g);
  memset(&o, 0, sizeof o);
  o.algorithm = "dijkstra";
  pathlab_finder_new(g, &o, &dijkstra);
  o.algorithm = "astar";
  pathlab_finder_new(g, &o, &astar);
  classes = usable_cells(astar, w, h);
  /* Costs are symmetric here (no terrain): a field to the start gives every cost from it. */
  pathlab_field_build(g, NULL, 1, start, &from_start);
  if (dijkstra == NULL || astar == NULL || classes == NULL || from_start == NULL) {
    check(0, "finders, the usable cells and a field on seed_maze");
  } else {
    const double* d = pathlab_field_distance(from_start);
    int within = 0, agree = 1, ordered = 1, free_agree = 1;
    for (i = 0; i < w * h; ++i) {
      if (d[i] <= budget * (1 + 1e-9)) ++within;
      if (!isinf(d[i]) && classes[i] != '.') free_agree = 0;
    }
    check(free_agree, "every cell the field reaches sees itself (is usable)");

    /* The movement range: every cell within the budget, its cost Dijkstra's. */
    check(pathlab_reach(astar, 7, 2, budget, &range) == PATHLAB_OK, "reach on seed_maze");
    check((int)range.count == within, "reach: as many cells as the field has within the budget");
    for (i = 0; (size_t)i < range.count; ++i) {
      int x = range.cells[2 * i], y = range.cells[2 * i + 1];
      double cost = range.costs[i];
      pathlab_result single;
      if (i > 0 && range.cells[2 * i - 1] * w + range.cells[2 * i - 2] >= y * w + x) ordered = 0;
      if (cost > budget * (1 + 1e-9) || fabs(cost - d[y * w + x]) > 1e-9) agree = 0;
      if (pathlab_find(dijkstra, 7, 2, x, y, &single) != PATHLAB_OK ||
          fabs(single.cost - cost) > 1e-9) {
        agree = 0;
      }
    }
    check(agree, "reach: every cost is Dijkstra's least cost, within the budget");
    check(ordered, "reach: cells in row-major order");
    check(pathlab_reach(astar, 7, 2, 0, &range) == PATHLAB_OK && range.count == 1 &&
              range.cells[0] == 7 && range.cells[1] == 2 && range.costs[0] == 0,
          "reach with budget 0: the start alone");

    /* The nearest of several goals: the least of the single-goal costs. */
    {
      int32_t goals[8] = {27, 17, 9, 9, 2, 18, 25, 1};
      const char* algos[] = {"dijkstra", "astar", "jps", "jps+", "subgoal-ch", "biastar"};
      int a, k;
      double best = INFINITY;
      for (k = 0; k < 4; ++k) {
        if (pathlab_find(dijkstra, 7, 2, goals[2 * k], goals[2 * k + 1], &r) == PATHLAB_OK &&
            r.cost < best)
          best = r.cost;
      }
      for (a = 0; a < (int)(sizeof algos / sizeof algos[0]); ++a) {
        pathlab_finder* f = NULL;
        char what[160];
        o.algorithm = algos[a];
        pathlab_finder_new(g, &o, &f);
        snprintf(what, sizeof what,
                 "%s: the nearest goal's cost is the least of the single-goal costs", algos[a]);
        if (f != NULL && pathlab_find_nearest(f, 7, 2, 4, goals, &r, NULL) == PATHLAB_OK) {
          double steps;
          int gx = r.path[2 * r.path_cells - 2], gy = r.path[2 * r.path_cells - 1], is_goal = 0;
          for (k = 0; k < 4; ++k) is_goal |= goals[2 * k] == gx && goals[2 * k + 1] == gy;
          check(fabs(r.cost - best) < 1e-9 && is_goal &&
                    legal_path(g, classes, &r, 7, 2, gx, gy, &steps) && fabs(steps - r.cost) < 1e-9,
                what);
        } else {
          check(0, what);
        }
        pathlab_finder_free(f);
      }
      o.algorithm = "astar";
    }

    /* Sliced searches: the cost and the expansions of one pathlab_find. */
    {
      const char* algos[] = {"dijkstra", "astar", "wastar", "greedy",
                             "jps",      "jps+",  "theta",  "bfs"};
      int a;
      for (a = 0; a < (int)(sizeof algos / sizeof algos[0]); ++a) {
        pathlab_finder* f = NULL;
        pathlab_result whole, sliced;
        pathlab_status s = PATHLAB_INVALID;
        int slices = 0;
        char what[160];
        o.algorithm = algos[a];
        pathlab_finder_new(g, &o, &f);
        snprintf(what, sizeof what, "%s: a sliced search answers as pathlab_find", algos[a]);
        if (f == NULL || pathlab_find(f, 7, 2, 27, 17, &whole) != PATHLAB_OK ||
            pathlab_slice_start(f, 7, 2, 27, 17) != PATHLAB_OK) {
          check(0, what);
          pathlab_finder_free(f);
          continue;
        }
        check(pathlab_slice_active(f) == 1, "slice_active after slice_start");
        while (slices < 100000 && (s = pathlab_slice_run(f, 7, &sliced)) == PATHLAB_IN_PROGRESS) {
          ++slices;
          if (sliced.path_cells != 0 || sliced.expanded > (uint64_t)slices * 7) s = PATHLAB_INVALID;
        }
        check(s == PATHLAB_OK && fabs(sliced.cost - whole.cost) < 1e-9 &&
                  sliced.path_cells == whole.path_cells &&
                  (strcmp(algos[a], "theta") == 0 || strcmp(algos[a], "bfs") == 0 ||
                   (sliced.expanded == whole.expanded && (slices > 0 || whole.expanded <= 7))),
              what);
        check(pathlab_slice_active(f) == 0, "slice_active is 0 once finished");
        refused(pathlab_slice_run(f, 7, &sliced), PATHLAB_INVALID, "slice_run after the end");
        pathlab_finder_free(f);
      }
      o.algorithm = "astar";
    }
    /* A search between slices cancels the sliced one. */
    check(pathlab_slice_start(astar, 7, 2, 27, 17) == PATHLAB_OK &&
              pathlab_slice_run(astar, 3, &r) == PATHLAB_IN_PROGRESS &&
              pathlab_find(astar, 7, 2, 9, 9, &r) == PATHLAB_OK && pathlab_slice_active(astar) == 0,
          "a find between slices cancels the sliced search");

    /* Line of sight between 8-adjacent cells is the legality of that move. */
    {
      int x, y, dx, dy, legal_agree = 1, symmetric = 1;
      for (y = 0; y < h; ++y) {
        for (x = 0; x < w; ++x) {
          for (dy = -1; dy <= 1; ++dy) {
            for (dx = -1; dx <= 1; ++dx) {
              int nx = x + dx, ny = y + dy, visible = -1, legal;
              if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
              legal = classes[y * w + x] == '.' && classes[ny * w + nx] == '.' &&
                      (dx == 0 || dy == 0 ||
                       (classes[y * w + nx] == '.' && classes[ny * w + x] == '.'));
              if (pathlab_line_of_sight(astar, x, y, nx, ny, &visible) != PATHLAB_OK ||
                  visible != legal)
                legal_agree = 0;
            }
          }
          {
            int tx = (x * 7 + 3) % w, ty = (y * 5 + 11) % h, there = -1, back = -2;
            pathlab_line_of_sight(astar, x, y, tx, ty, &there);
            pathlab_line_of_sight(astar, tx, ty, x, y, &back);
            if (there != back) symmetric = 0;
          }
        }
      }
      check(legal_agree, "line of sight to a neighbour is that move's legality (no-corner-cut)");
      check(symmetric, "line of sight is symmetric");
    }

    /* Smoothing: consecutive waypoints see each other, never longer than the path. */
    if (pathlab_find(astar, 7, 2, 27, 17, &r) == PATHLAB_OK) {
      const char* methods[] = {"greedy", "refined"};
      double grid_cost = r.cost, greedy = 0;
      int m;
      for (m = 0; m < 2; ++m) {
        pathlab_smoothed s;
        int32_t waypoints[512];
        size_t n, k;
        int sees = 1;
        char what[128];
        /* The finder's own path, passed straight back. */
        pathlab_find(astar, 7, 2, 27, 17, &r);
        snprintf(what, sizeof what, "smooth(%s) of the finder's own path", methods[m]);
        if (pathlab_smooth(astar, r.path_cells, r.path, methods[m], &s) != PATHLAB_OK ||
            s.path_cells < 2 || s.path_cells > 256) {
          check(0, what);
          continue;
        }
        n = s.path_cells;
        memcpy(waypoints, s.path, 2 * n * sizeof waypoints[0]);
        for (k = 1; k < n; ++k) {
          int visible = 0;
          pathlab_line_of_sight(astar, waypoints[2 * k - 2], waypoints[2 * k - 1], waypoints[2 * k],
                                waypoints[2 * k + 1], &visible);
          sees &= visible;
        }
        check(sees && waypoints[0] == 7 && waypoints[1] == 2 && waypoints[2 * n - 2] == 27 &&
                  waypoints[2 * n - 1] == 17 && s.cost <= grid_cost + 1e-9 && n < r.path_cells,
              what);
        if (m == 0) greedy = s.cost;
        if (m == 1) check(s.cost <= greedy + 1e-9, "refined is never longer than greedy");
      }
    }

    /* Partial paths: the goal walled in (its room's door at 9,11 closed). */
    check(pathlab_grid_edit(g, "wall:9,11") == PATHLAB_OK, "grid_edit(close the room)");
    classes[11 * w + 9] = '@';
    check(pathlab_find_partial(astar, 7, 2, 9, 9, &r, &partial) == PATHLAB_NO_PATH,
          "find_partial: no path into the closed room");
    if (partial.path_cells > 0) {
      pathlab_result p = as_result(partial.path, partial.path_cells);
      double steps, least = INFINITY, cost_there = partial.cost;
      int rx = partial.reached_x, ry = partial.reached_y;
      pathlab_field* field = NULL;
      check(legal_path(g, classes, &p, 7, 2, rx, ry, &steps) && fabs(steps - partial.cost) < 1e-9,
            "the partial path is legal, ends at the reached cell and costs its steps");
      /* The reached cell is the closest to the goal of every cell the start reaches. */
      pathlab_field_build(g, NULL, 1, start, &field);
      if (field != NULL) {
        const double* dd = pathlab_field_distance(field);
        for (i = 0; i < w * h; ++i) {
          if (!isinf(dd[i]) && octile(i % w, i / w, 9, 9) < least)
            least = octile(i % w, i / w, 9, 9);
        }
      }
      pathlab_field_free(field);
      check(fabs(octile(rx, ry, 9, 9) - least) < 1e-9,
            "the reached cell is the closest to the goal the start reaches");
      check(pathlab_find(dijkstra, 7, 2, rx, ry, &r) == PATHLAB_OK &&
                fabs(r.cost - cost_there) < 1e-9,
            "A*'s partial path is a least-cost path to the reached cell");
    } else {
      check(0, "find_partial gives a partial path");
    }
    check(pathlab_find_partial(astar, 7, 2, 27, 17, &r, &partial) == PATHLAB_OK &&
              partial.path_cells == 0 && r.path_cells > 0,
          "find_partial with a path found: no partial path");
    {
      int32_t goals[4] = {9, 9, 10, 10};
      check(pathlab_find_nearest(astar, 7, 2, 2, goals, &r, &partial) == PATHLAB_NO_PATH &&
                partial.path_cells > 0,
            "find_nearest: the partial path when no goal is reached");
      check(pathlab_find_nearest(astar, 7, 2, 2, goals, &r, NULL) == PATHLAB_NO_PATH,
            "find_nearest without a partial path");
    }
    {
      pathlab_finder* limited = NULL;
      o.node_limit = 20;
      pathlab_finder_new(g, &o, &limited);
      o.node_limit = 0;
      if (limited != NULL &&
          pathlab_find_partial(limited, 7, 2, 27, 17, &r, &partial) == PATHLAB_NODE_LIMIT &&
          partial.path_cells > 0) {
        pathlab_result p = as_result(partial.path, partial.path_cells);
        double steps;
        check(legal_path(g, classes, &p, 7, 2, partial.reached_x, partial.reached_y, &steps),
              "find_partial at the node limit: a legal partial path");
      } else {
        check(0, "find_partial at the node limit");
      }
      check(limited != NULL && pathlab_find(limited, 7, 2, 27, 17, &r) == PATHLAB_NODE_LIMIT &&
                r.path_cells == 0,
            "pathlab_find still finds no partial path");
      pathlab_finder_free(limited);
    }
    check(pathlab_grid_edit(g, "free:9,11") == PATHLAB_OK, "grid_edit(open the room)");
    classes[11 * w + 9] = '.';

    /* An edit between slices restarts the sliced search on the edited map. */
    {
      pathlab_result fresh;
      pathlab_status s;
      int guard = 0;
      check(pathlab_slice_start(astar, 7, 2, 9, 9) == PATHLAB_OK &&
                pathlab_slice_run(astar, 5, &r) == PATHLAB_IN_PROGRESS,
            "a sliced search under way");
      pathlab_grid_edit(g, "wall:0,4:18,4"); /* the way round is longer */
      while ((s = pathlab_slice_run(astar, 5, &r)) == PATHLAB_IN_PROGRESS && guard < 100000)
        ++guard;
      check(s == PATHLAB_OK && pathlab_find(dijkstra, 7, 2, 9, 9, &fresh) == PATHLAB_OK &&
                fabs(fresh.cost - r.cost) < 1e-9,
            "after an edit between slices: the edited map's least cost");
      pathlab_grid_edit(g, "free:0,4:18,4");
    }
  }
  pathlab_field_free(from_start);
  free(classes);
  pathlab_finder_free(dijkstra);
  pathlab_finder_free(astar);
  pathlab_grid_free(g);
}

/* The simulation: a world from a grid and from a scenario file, stepped. */
static void simulation(const char* source) {
  char path[4096];
  pathlab_grid* g = NULL;
  pathlab_grid* copy = NULL;
  pathlab_world* world = NULL;
  pathlab_agent agents[2];
  pathlab_obstacle obstacle;
  const pathlab_agent_state* states;
  const pathlab_agent_metrics* metrics;
  int k;

  snprintf(path, sizeof path, "%s/maps/seed_maze.txt", source);
  memset(agents, 0, sizeof agents);
  agents[0].start_x = 7.5;
  agents[0].start_y = 2.5;
  agents[0].goal_x = 16.5;
  agents[0].goal_y = 2.5;
  agents[1].start_x = 3.5;
  agents[1].start_y = 8.5;
  agents[1].goal_x = 3.5;
  agents[1].goal_y = 1.5;
  agents[1].planner = "dstar";
  agents[1].id = 42;
  if (pathlab_grid_load(path, &g) != PATHLAB_OK ||
      pathlab_world_new(g, NULL, 2, agents, &world) != PATHLAB_OK) {
    check(0, "world_new on seed_maze with two agents");
    pathlab_grid_free(g);
    return;
  }
  pathlab_grid_free(g); /* the world keeps its own copy */
  states = pathlab_world_agents(world);
  check(pathlab_world_agent_count(world) == 2 && states[0].id == 1 && states[1].id == 42 &&
            states[0].x == 7.5 && states[0].y == 2.5 && fabs(states[0].radius - 0.3) < 1e-12 &&
            pathlab_world_ticks(world) == 0 && pathlab_world_finished(world) == 0,
        "a new world: agents at their starts, ids kept or numbered, default radius");
  check(pathlab_world_step(world, 40) == PATHLAB_OK, "world_step(40)");
  states = pathlab_world_agents(world);
  check(pathlab_world_ticks(world) == 40 && fabs(pathlab_world_time(world) - 2.0) < 1e-9,
        "40 ticks of 0.05 s");
  check(hypot(states[0].x - 7.5, states[0].y - 2.5) > 1 &&
            hypot(states[1].x - 3.5, states[1].y - 8.5) > 1,
        "stepping moves the agents");
  for (k = 0; k < 100 && !pathlab_world_finished(world); ++k) pathlab_world_step(world, 50);
  states = pathlab_world_agents(world);
  metrics = pathlab_world_metrics(world);
  check(pathlab_world_finished(world) && states[0].arrived && states[1].arrived &&
            metrics[0].arrived && metrics[1].id == 42 && metrics[0].path_length >= 9 - 0.5 &&
            metrics[1].optimal_length > 0 && metrics[0].collisions == 0,
        "both agents arrive; metrics say how");
  check(hypot(states[0].x - 16.5, states[0].y - 2.5) < 0.6, "the first stands at its goal");
  {
    uint64_t ticks = pathlab_world_ticks(world);
    check(pathlab_world_step(world, 5) == PATHLAB_OK && pathlab_world_ticks(world) == ticks,
          "a finished world steps no more");
  }
  check(pathlab_world_grid(world, &copy) == PATHLAB_OK && pathlab_grid_width(copy) == 30 &&
            pathlab_grid_height(copy) == 20,
        "world_grid: a copy of its map");
  pathlab_grid_free(copy);
  pathlab_world_free(world);
  world = NULL;

  /* A scenario file: the L-shaped trap of the users' documents; then an obstacle dropped in. */
  snprintf(path, sizeof path, "%s/scenarios/hybrid_l_trap.json", source);
  if (pathlab_world_load(path, NULL, &world) != PATHLAB_OK) {
    check(0, "world_load(hybrid_l_trap.json)");
    return;
  }
  check(pathlab_world_agent_count(world) == 1 && pathlab_world_obstacle_count(world) == 1,
        "the scenario's agent and obstacle");
  {
    const pathlab_obstacle_state* os = pathlab_world_obstacles(world);
    check(os[0].id == 1 && os[0].kind == 2 && os[0].points_n == 6 && os[0].present == 0 &&
              os[0].x == 12 && os[0].y == 13 && os[0].points[2] == 4 && os[0].points[3] == 0,
          "the L: a polygon of 6 points at (12, 13), not there before 1 s");
  }
  pathlab_world_step(world, 30);
  check(pathlab_world_obstacles(world)[0].present == 1, "the L is there after 1 s");
  memset(&obstacle, 0, sizeof obstacle);
  obstacle.x = 20;
  obstacle.y = 3;
  obstacle.radius = 0.5;
  obstacle.vx = 1;
  check(pathlab_world_add_obstacle(world, &obstacle) == PATHLAB_OK &&
            pathlab_world_obstacle_count(world) == 2,
        "world_add_obstacle: a moving disc");
  pathlab_world_step(world, 20);
  {
    const pathlab_obstacle_state* os = pathlab_world_obstacles(world);
    check(os[1].id == 2 && os[1].kind == 0 && os[1].present && fabs(os[1].x - 21) < 1e-9 &&
              os[1].vx == 1 && os[1].points == NULL,
          "the disc: id 2, moved 1 cell in 1 s");
  }
  for (k = 0; k < 100 && !pathlab_world_finished(world); ++k) pathlab_world_step(world, 50);
  metrics = pathlab_world_metrics(world);
  check(metrics[0].arrived && metrics[0].path_length >= metrics[0].optimal_length - 1e-9,
        "the hybrid agent gets out of the trap, no shorter than the optimum");
  pathlab_world_free(world);
  world = NULL;
  check(pathlab_world_load(path, "apf", &world) == PATHLAB_OK, "world_load(planner apf)");
  pathlab_world_free(world);
  world = NULL;
  {
    /* The same text, parsed: its map is resolved against the given path's folder. */
    const char* text =
        "{\"map\": \"../maps/hybrid_30x20.txt\", \"agents\": [{\"id\": 7, "
        "\"start\": \"S\", \"goal\": \"G\"}]}";
    check(pathlab_world_parse(text, strlen(text), path, "replan", &world) == PATHLAB_OK &&
              pathlab_world_agent_count(world) == 1 && pathlab_world_agents(world)[0].id == 7,
          "world_parse: scenario text");
    pathlab_world_free(world);
  }
}

/* The Link game on the bundled board and generated ones. */
static void link_game(const char* source) {
  char path[4096];
  pathlab_board* board = NULL;
  pathlab_link_line line;
  pathlab_link_moves moves;
  int32_t* list;
  size_t i, count;
  int w, h;

  snprintf(path, sizeof path, "%s/maps/link_8x10.txt", source);
  if (pathlab_board_load(path, &board) != PATHLAB_OK) {
    check(0, "board_load(link_8x10.txt)");
    return;
  }
  w = pathlab_board_width(board);
  h = pathlab_board_height(board);
  check(w == 10 && h == 8 && strlen(pathlab_board_cells(board)) == 80 &&
            strncmp(pathlab_board_cells(board), "AAFPHPODII", 10) == 0,
        "link_8x10 is 10x8, row-major");
  check(pathlab_board_connect(board, 0, 0, 1, 0, &line) == PATHLAB_OK && line.turns == 0 &&
            line.length == 1 && line.points_n == 2 && line.points[0] == 0 && line.points[2] == 1,
        "two neighbours connect in a straight line");
  check(pathlab_board_hint(board, &line) == PATHLAB_OK && line.points_n >= 2 &&
            line.points_n <= 4 && line.turns == (int32_t)line.points_n - 2,
        "a hint: a line of at most two turns");
  {
    const char* cells = pathlab_board_cells(board);
    int ax = line.points[0], ay = line.points[1];
    int bx = line.points[2 * line.points_n - 2], by = line.points[2 * line.points_n - 1];
    check(cells[ay * w + ax] == cells[by * w + bx] && cells[ay * w + ax] != '.',
          "the hint's tiles are of one kind");
  }
  check(pathlab_board_moves(board, &moves) == PATHLAB_OK && moves.count > 0, "board_moves");
  count = moves.count;
  list = malloc(4 * count * sizeof *list);
  if (list != NULL) {
    int all = 1;
    memcpy(list, moves.moves, 4 * count * sizeof *list);
    for (i = 0; i < count; ++i) {
      if (pathlab_board_connect(board, list[4 * i], list[4 * i + 1], list[4 * i + 2],
                                list[4 * i + 3], &line) != PATHLAB_OK)
        all = 0;
    }
    check(all, "every move of board_moves connects");
  }
  free(list);
  /* A solution, played out, clears the board. */
  check(pathlab_board_solve(board, NULL, 0, &moves) == PATHLAB_OK && moves.count == 40 &&
            moves.nodes > 0,
        "board_solve: 40 removals");
  count = moves.count;
  list = malloc(4 * count * sizeof *list);
  if (list != NULL) {
    int played = 1;
    const char* cells;
    memcpy(list, moves.moves, 4 * count * sizeof *list);
    for (i = 0; i < count; ++i) {
      if (pathlab_board_play(board, list[4 * i], list[4 * i + 1], list[4 * i + 2], list[4 * i + 3],
                             "none") != PATHLAB_OK)
        played = 0;
    }
    cells = pathlab_board_cells(board);
    for (i = 0; i < 80; ++i) played &= cells[i] == '.';
    check(played, "playing the solution clears the board");
  }
  free(list);
  pathlab_board_free(board);
  board = NULL;

  /* Generated boards are solvable, with gravity too when the solver says so. */
  if (pathlab_board_generate(8, 6, 6, 7, &board) == PATHLAB_OK) {
    char before[64];
    int same = 1;
    int counts[128] = {0};
    const char* cells = pathlab_board_cells(board);
    check(strlen(cells) == 48 && strchr(cells, '.') == NULL, "board_generate: a full 8x6 board");
    check(pathlab_board_solve(board, NULL, 0, &moves) == PATHLAB_OK && moves.count == 24,
          "a generated board can be cleared");
    strcpy(before, cells);
    check(pathlab_board_shuffle(board, 99) == PATHLAB_OK &&
              pathlab_board_hint(board, &line) == PATHLAB_OK,
          "a shuffled board has a move");
    cells = pathlab_board_cells(board);
    for (i = 0; i < 48; ++i) {
      ++counts[(unsigned char)before[i]];
      --counts[(unsigned char)cells[i]];
    }
    for (i = 0; i < 128; ++i) same &= counts[i] == 0;
    check(same, "a shuffle keeps every kind's count");
    check(pathlab_board_solve(board, "down", 2, &moves) == PATHLAB_NODE_LIMIT && moves.count == 0,
          "board_solve stopped by its node limit");
    pathlab_board_free(board);
  } else {
    check(0, "board_generate(8x6, 6 kinds)");
  }
  /* "AB", ".B", "A.": the B's connect; with gravity down the upper A falls onto the other. */
  if (pathlab_board_from_cells(2, 3, "AB.BA.", &board) == PATHLAB_OK) {
    check(pathlab_board_play(board, 1, 0, 1, 1, "down") == PATHLAB_OK &&
              strcmp(pathlab_board_cells(board), "..A.A.") == 0,
          "board_play with gravity down");
    pathlab_board_free(board);
  }
  {
    const char* text = "AB\nAB\n";
    check(pathlab_board_parse(text, strlen(text), &board) == PATHLAB_OK &&
              pathlab_board_solve(board, NULL, 0, &moves) == PATHLAB_OK && moves.count == 2,
          "board_parse and solve of a 2x2 board");
    pathlab_board_free(board);
  }
}

/* ---- Map kinds: hex layouts, walls on cell edges, layered maps and links. */

/* Whether b is one of a's six neighbours on a pointy-odd-r layout. */
static int hex_neighbours(int ax, int ay, int bx, int by) {
  int aq = ax - (ay - (ay & 1)) / 2, bq = bx - (by - (by & 1)) / 2;
  int dq = bq - aq, dr = by - ay;
  return (abs(dq) + abs(dr) + abs(dq + dr)) == 2;
}

static void map_kinds_bad_input(void) {
  pathlab_grid* g = NULL;
  pathlab_grid* made = (pathlab_grid*)&made; /* not NULL: a refusal must set it NULL */
  pathlab_field* field = NULL;
  pathlab_map_link link;
  int32_t a = -7, b = -7, c = -7, goal[2] = {0, 0};
  size_t removed = 99;
  int blocked = -1;

  refused(pathlab_grid_from_layers(2, 2, 2, "........", NULL), PATHLAB_INVALID,
          "from_layers(NULL out)");
  refused(pathlab_grid_from_layers(2, 2, 2, NULL, &made), PATHLAB_INVALID,
          "from_layers(NULL classes)");
  check(made == NULL, "a refused from_layers leaves *out NULL");
  refused(pathlab_grid_from_layers(2, 2, 0, "....", &g), PATHLAB_INVALID, "from_layers(0 floors)");
  check(strstr(pathlab_last_error(), "floors") != NULL, "the message says floors");
  refused(pathlab_grid_from_layers(0, 2, 2, "....", &g), PATHLAB_INVALID, "from_layers(width 0)");
  refused(pathlab_grid_from_layers(1 << 14, 1 << 14, 2, ".", &g), PATHLAB_INVALID,
          "from_layers(2^29 cells)");
  refused(pathlab_grid_from_layers(2, 1, 2, "... ", &g), PATHLAB_INVALID,
          "from_layers(a space on floor 1)");
  check(strstr(pathlab_last_error(), "floor 1") != NULL, "the message names the floor");
  check(pathlab_grid_layers(NULL) == 0 && pathlab_grid_layer_height(NULL) == 0 &&
            pathlab_grid_layout(NULL) == NULL && pathlab_grid_link_count(NULL) == 0,
        "NULL grid: no floors, no layout, no links");
  refused(pathlab_grid_at(NULL, 0, 0, 0, &a, &b), PATHLAB_INVALID, "grid_at(NULL grid)");
  refused(pathlab_grid_locate(NULL, 0, 0, &a, &b, &c), PATHLAB_INVALID, "grid_locate(NULL grid)");
  refused(pathlab_grid_set_layout(NULL, "square"), PATHLAB_INVALID, "set_layout(NULL grid)");
  refused(pathlab_grid_edge_wall(NULL, 0, 0, PATHLAB_NORTH, &blocked), PATHLAB_INVALID,
          "edge_wall(NULL grid)");
  refused(pathlab_grid_set_edge_wall(NULL, 0, 0, PATHLAB_NORTH, 1), PATHLAB_INVALID,
          "set_edge_wall(NULL grid)");
  refused(pathlab_grid_add_link(NULL, &link), PATHLAB_INVALID, "add_link(NULL grid)");
  refused(pathlab_grid_remove_links(NULL, 0, 0, 1, 1, &removed), PATHLAB_INVALID,
          "remove_links(NULL grid)");
  check(removed == 0, "a refused remove_links removed 0");
  refused(pathlab_grid_clear_links(NULL), PATHLAB_INVALID, "clear_links(NULL grid)");
  refused(pathlab_grid_link(NULL, 0, &link), PATHLAB_INVALID, "grid_link(NULL grid)");
  refused(pathlab_field_next(NULL, 0, 0, &a, &b), PATHLAB_INVALID, "field_next(NULL field)");

  /* Two floors of 3x2: ". . ." over "@ . ." each. */
  check(pathlab_grid_from_layers(3, 2, 2, "...@.....@..", &g) == PATHLAB_OK, "from_layers 3x2x2");
  if (g == NULL) return;
  refused(pathlab_grid_at(g, 0, 0, 0, NULL, &b), PATHLAB_INVALID, "grid_at(NULL grid_x)");
  refused(pathlab_grid_at(g, 2, 0, 0, &a, &b), PATHLAB_INVALID, "grid_at(floor 2 of 2)");
  check(strstr(pathlab_last_error(), "floor 2") != NULL, "the message names the floor");
  refused(pathlab_grid_at(g, -1, 0, 0, &a, &b), PATHLAB_INVALID, "grid_at(floor -1)");
  refused(pathlab_grid_at(g, 1, 0, 2, &a, &b), PATHLAB_INVALID, "grid_at(row 2 of a 2-row floor)");
  refused(pathlab_grid_at(g, 1, 3, 0, &a, &b), PATHLAB_INVALID, "grid_at(column 3 of 3)");
  refused(pathlab_grid_locate(g, 0, 2, &a, &b, &c), PATHLAB_INVALID,
          "grid_locate(a row between floors)");
  check(strstr(pathlab_last_error(), "between") != NULL, "the message says between floors");
  refused(pathlab_grid_locate(g, 0, 99, &a, &b, &c), PATHLAB_INVALID, "grid_locate(outside)");
  refused(pathlab_grid_locate(g, 0, 0, &a, NULL, &c), PATHLAB_INVALID, "grid_locate(NULL x)");
  refused(pathlab_grid_set_layout(g, NULL), PATHLAB_INVALID, "set_layout(NULL name)");
  refused(pathlab_grid_set_layout(g, "hexagonal"), PATHLAB_INVALID, "set_layout(unknown)");
  check(strstr(pathlab_last_error(), "hexagonal") != NULL, "the message names the layout");
  refused(pathlab_grid_edge_wall(g, 0, 0, (pathlab_side)7, &blocked), PATHLAB_INVALID,
          "edge_wall(side 7)");
  refused(pathlab_grid_edge_wall(g, 3, 0, PATHLAB_EAST, &blocked), PATHLAB_INVALID,
          "edge_wall(outside)");
  refused(pathlab_grid_edge_wall(g, 0, 0, PATHLAB_EAST, NULL), PATHLAB_INVALID,
          "edge_wall(NULL blocked)");
  refused(pathlab_grid_set_edge_wall(g, 0, 0, (pathlab_side)-1, 1), PATHLAB_INVALID,
          "set_edge_wall(side -1)");
  refused(pathlab_grid_set_edge_wall(g, 1, 2, PATHLAB_SOUTH, 1), PATHLAB_INVALID,
          "set_edge_wall(a row between floors)");
  refused(pathlab_grid_set_edge_wall(g, -1, 0, PATHLAB_SOUTH, 1), PATHLAB_INVALID,
          "set_edge_wall(outside)");
  check(pathlab_grid_set_edge_wall(g, 1, 0, PATHLAB_SOUTH, 1) == PATHLAB_OK,
        "set_edge_wall on floor 0");
  refused(pathlab_grid_set_layout(g, "pointy-odd-r"), PATHLAB_INVALID,
          "set_layout(hex on a grid with edge walls)");
  check(strcmp(pathlab_grid_layout(g), "square") == 0, "a refused layout changes nothing");
  check(pathlab_grid_set_edge_wall(g, 1, 0, PATHLAB_SOUTH, 0) == PATHLAB_OK,
        "take the edge wall down");
  check(pathlab_grid_set_layout(g, "flat-even-q") == PATHLAB_OK &&
            strcmp(pathlab_grid_layout(g), "flat-even-q") == 0,
        "hex once the edge walls are down");
  {
    /* On a hex map the side is the edge's direction 0..5: (1, 0) and its direction-0 neighbour
       (2, 0) name the same edge from either side (direction 3). */
    int on = 0;
    check(pathlab_grid_set_edge_wall(g, 1, 0, (pathlab_side)0, 1) == PATHLAB_OK,
          "set_edge_wall(direction 0) on a hex layout");
    check(pathlab_grid_edge_wall(g, 2, 0, (pathlab_side)3, &on) == PATHLAB_OK && on == 1,
          "the hex edge reads the same from its other hex (direction 3)");
    refused(pathlab_grid_set_edge_wall(g, 1, 0, (pathlab_side)6, 1), PATHLAB_INVALID,
            "set_edge_wall(direction 6) on a hex layout");
    check(strstr(pathlab_last_error(), "0..5") != NULL, "the message names the directions");
    refused(pathlab_grid_set_layout(g, "square"), PATHLAB_INVALID,
            "set_layout(square on a hex grid with edge walls)");
    check(pathlab_grid_edit(g, "open-3:2,0") == PATHLAB_OK &&
              pathlab_grid_edge_wall(g, 1, 0, (pathlab_side)0, &on) == PATHLAB_OK && on == 0,
          "the edit text takes it down by direction");
  }
  check(pathlab_grid_set_layout(g, "square") == PATHLAB_OK, "back to square");

  memset(&link, 0, sizeof link);
  link.to_y = 2;
  refused(pathlab_grid_add_link(g, NULL), PATHLAB_INVALID, "add_link(NULL link)");
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(an end between floors)");
  link.to_y = 3;
  link.to_x = 5;
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(an end outside)");
  check(strstr(pathlab_last_error(), "5,3") != NULL, "the message names the end");
  link.to_x = 1;
  link.cost = -1;
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(cost -1)");
  link.cost = NAN;
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(cost NaN)");
  link.cost = INFINITY;
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(cost infinite)");
  link.cost = 1e300;
  refused(pathlab_grid_add_link(g, &link), PATHLAB_INVALID, "add_link(cost past a float)");
  check(pathlab_grid_link_count(g) == 0, "refused links add nothing");
  refused(pathlab_grid_link(g, 0, &link), PATHLAB_INVALID, "grid_link(index 0 of none)");
  refused(pathlab_grid_link(g, 0, NULL), PATHLAB_INVALID, "grid_link(NULL out)");
  check(pathlab_grid_remove_links(g, 0, 0, 1, 3, NULL) == PATHLAB_OK,
        "remove_links with NULL removed");

  check(pathlab_field_build(g, NULL, 1, goal, &field) == PATHLAB_OK, "a field on floor 0");
  refused(pathlab_field_next(field, 3, 0, &a, &b), PATHLAB_INVALID, "field_next(outside)");
  refused(pathlab_field_next(field, 0, 0, NULL, &b), PATHLAB_INVALID, "field_next(NULL next_x)");
  refused(pathlab_field_next(field, 0, 0, &a, &b), PATHLAB_NO_PATH, "field_next(the goal)");
  refused(pathlab_field_next(field, 0, 3, &a, &b), PATHLAB_NO_PATH, "field_next(floor 1, no link)");
  pathlab_field_free(field);
  pathlab_grid_free(g);
}

/* Grids of every kind made through the ABI, searched. */
static void map_kinds(void) {
  pathlab_grid* g = NULL;
  pathlab_finder* f = NULL;
  pathlab_field* field = NULL;
  pathlab_result r;
  pathlab_map_link link;
  pathlab_options o;
  int32_t a, b, c, goal[2];
  int i, ok, blocked = -1;
  size_t removed = 0;

  map_kinds_bad_input();

  /* Floors and cells: (layer, x, y) <-> grid cells, both ways, for every cell of 3 floors. */
  check(pathlab_grid_from_layers(4, 3, 3, "....@....@.......T..........@.......", &g) == PATHLAB_OK,
        "from_layers 4x3x3");
  if (g == NULL) return;
  check(pathlab_grid_layers(g) == 3 && pathlab_grid_layer_height(g) == 3 &&
            pathlab_grid_width(g) == 4 && pathlab_grid_height(g) > 9,
        "three floors of 4x3, stacked with rows between them");
  ok = 1;
  for (i = 0; i < 36; ++i) {
    int l = i / 12, x = i % 4, y = i % 12 / 4;
    if (pathlab_grid_at(g, l, x, y, &a, &b) != PATHLAB_OK ||
        pathlab_grid_locate(g, a, b, &c, &goal[0], &goal[1]) != PATHLAB_OK || c != l ||
        goal[0] != x || goal[1] != y)
      ok = 0;
  }
  check(ok, "grid_locate(grid_at(l, x, y)) == (l, x, y) on every cell");
  check(strcmp(pathlab_grid_layout(g), "square") == 0, "a new grid is square");

  /* Floor 0 to floor 2: no way until linked; a one-way link only one way. */
  memset(&o, 0, sizeof o);
  o.algorithm = "dijkstra";
  check(pathlab_finder_new(g, &o, &f) == PATHLAB_OK, "a finder on the layered grid");
  pathlab_grid_at(g, 2, 3, 2, &goal[0], &goal[1]);
  check(pathlab_find(f, 0, 0, goal[0], goal[1], &r) == PATHLAB_NO_PATH, "no link: no path");
  memset(&link, 0, sizeof link);
  pathlab_grid_at(g, 0, 3, 2, &link.from_x, &link.from_y);
  link.to_x = goal[0];
  link.to_y = goal[1];
  link.oneway = 1;
  check(pathlab_grid_add_link(g, &link) == PATHLAB_OK, "add a one-way link, cost 0 (1)");
  check(pathlab_grid_link_count(g) == 1 && pathlab_grid_link(g, 0, &link) == PATHLAB_OK &&
            link.cost == 1 && link.oneway == 1 && link.to_x == goal[0] && link.to_y == goal[1],
        "the link reads back, its cost 1");
  {
    double to_stairs = -1;
    if (pathlab_find(f, 0, 0, link.from_x, link.from_y, &r) == PATHLAB_OK) to_stairs = r.cost;
    check(pathlab_find(f, 0, 0, goal[0], goal[1], &r) == PATHLAB_OK,
          "the finder made before the link takes it");
    check(to_stairs > 0 && fabs(r.cost - (to_stairs + 1)) < 1e-9 && r.path_cells >= 2 &&
              r.path[2 * r.path_cells - 4] == link.from_x &&
              r.path[2 * r.path_cells - 3] == link.from_y,
          "the way to the link's start, then the link (cost 1)");
  }
  check(pathlab_find(f, goal[0], goal[1], 0, 0, &r) == PATHLAB_NO_PATH, "a one-way link: not back");
  link.oneway = 0;
  link.cost = 2.5;
  link.from_x = 0;
  link.from_y = 0;
  check(pathlab_grid_add_link(g, &link) == PATHLAB_OK, "a two-way link of cost 2.5");
  check(pathlab_find(f, goal[0], goal[1], 0, 0, &r) == PATHLAB_OK && fabs(r.cost - 2.5) < 1e-9 &&
            r.path_cells == 2,
        "back over the two-way link");
  {
    int32_t starts[4] = {0, 0, 0, 0}, goals[4];
    double costs[2];
    goals[0] = goal[0];
    goals[1] = goal[1];
    pathlab_grid_at(g, 1, 0, 0, &goals[2], &goals[3]);
    check(pathlab_find_many(g, &o, 2, starts, goals, costs, 2) == PATHLAB_OK &&
              fabs(costs[0] - 2.5) < 1e-9 && isnan(costs[1]),
          "find_many across floors: 2.5, and NaN for floor 1");
  }
  /* The flow field leads down the link. */
  check(pathlab_field_build(g, NULL, 1, goal, &field) == PATHLAB_OK, "a field to floor 2");
  if (field != NULL) {
    int32_t x = 1, y = 1, steps = 0;
    const double* d = pathlab_field_distance(field);
    const int8_t* dir = pathlab_field_direction(field);
    int w = pathlab_grid_width(g);
    check(dir[0] == 8 && fabs(d[0] - 2.5) < 1e-9, "(0, 0): code 8, take the link (2.5)");
    ok = 1;
    while ((x != goal[0] || y != goal[1]) && steps < 50) {
      int32_t nx, ny;
      if (pathlab_field_next(field, x, y, &nx, &ny) != PATHLAB_OK ||
          !(d[ny * w + nx] < d[y * w + x]))
        ok = 0;
      if (!ok) break;
      x = nx;
      y = ny;
      ++steps;
    }
    check(ok && x == goal[0] && y == goal[1], "field_next leads from floor 0 to the goal");
  }
  pathlab_field_free(field);
  field = NULL;
  check(pathlab_grid_remove_links(g, goal[0], goal[1], 0, 0, &removed) == PATHLAB_OK &&
            removed == 1 && pathlab_grid_link_count(g) == 1,
        "remove_links the other way round removes the two-way link");
  check(pathlab_grid_clear_links(g) == PATHLAB_OK && pathlab_grid_link_count(g) == 0,
        "clear_links");
  check(pathlab_find(f, 0, 0, goal[0], goal[1], &r) == PATHLAB_NO_PATH,
        "no links: the finder made before sees none");
  pathlab_finder_free(f);
  f = NULL;
  pathlab_grid_free(g);
  g = NULL;

  /* Walls on cell edges: a 3x2 room split down the middle but for a gap. */
  check(pathlab_grid_from_classes(3, 2, "......", &g) == PATHLAB_OK, "a 3x2 room");
  if (g == NULL) return;
  check(pathlab_grid_set_edge_wall(g, 0, 0, PATHLAB_EAST, 1) == PATHLAB_OK &&
            pathlab_grid_set_edge_wall(g, 1, 1, PATHLAB_WEST, 1) == PATHLAB_OK,
        "two walls between columns 0 and 1");
  check(pathlab_grid_edge_wall(g, 1, 0, PATHLAB_WEST, &blocked) == PATHLAB_OK && blocked == 1,
        "a thin wall reads the same from the other side");
  check(pathlab_grid_edge_wall(g, 1, 0, PATHLAB_EAST, &blocked) == PATHLAB_OK && blocked == 0,
        "the other edges are open");
  check(pathlab_finder_new(g, NULL, &f) == PATHLAB_OK, "a finder on the walled room");
  check(pathlab_find(f, 0, 0, 2, 0, &r) == PATHLAB_NO_PATH, "column 0 is shut off");
  check(pathlab_grid_set_edge_wall(g, 0, 0, PATHLAB_SOUTH, 0) == PATHLAB_OK &&
            pathlab_grid_set_edge_wall(g, 0, 0, PATHLAB_EAST, 0) == PATHLAB_OK,
        "take one down");
  check(pathlab_find(f, 0, 1, 2, 1, &r) == PATHLAB_OK && r.path_cells == 4 &&
            fabs(r.cost - (2 + sqrt(2.0))) < 1e-9,
        "(0,1) -> (2,1) around the wall over the top row: up, right, then diagonally down");
  pathlab_finder_free(f);
  f = NULL;
  pathlab_grid_free(g);
  g = NULL;

  /* Hex: every algorithm finds a path of hex steps on a pointy-odd-r grid, the optimal ones
   * the hex distance. */
  check(pathlab_grid_from_classes(5, 5, ".........................", &g) == PATHLAB_OK &&
            pathlab_grid_set_layout(g, "pointy-odd-r") == PATHLAB_OK,
        "a 5x5 pointy-odd-r grid");
  if (g == NULL) return;
  for (i = 0; i < ALGORITHMS; ++i) {
    char what[160];
    size_t k;
    memset(&o, 0, sizeof o);
    o.algorithm = names[i];
    ok = pathlab_finder_new(g, &o, &f) == PATHLAB_OK &&
         pathlab_find(f, 0, 0, 4, 4, &r) == PATHLAB_OK;
    for (k = 1; ok && k < r.path_cells; ++k) {
      if (!hex_neighbours(r.path[2 * k - 2], r.path[2 * k - 1], r.path[2 * k], r.path[2 * k + 1]))
        ok = 0;
    }
    snprintf(what, sizeof what, "%s on hex: a path of hex steps, cost = steps", names[i]);
    check(ok && fabs(r.cost - (double)(r.path_cells - 1)) < 1e-9, what);
    if (optimal[i] || any_angle[i]) {
      snprintf(what, sizeof what, "%s on hex: the hex distance, 6", names[i]);
      check(ok && fabs(r.cost - 6) < 1e-9, what);
    }
    pathlab_finder_free(f);
    f = NULL;
  }
  pathlab_grid_free(g);
}

/* A grid and a finder for the command-line forms (NULL edit: none). */
static int open_finder(const char* map, const char* algorithm, const char* edit, pathlab_grid** g,
                       pathlab_finder** f) {
  pathlab_options o;
  memset(&o, 0, sizeof o);
  o.algorithm = algorithm;
  *g = NULL;
  *f = NULL;
  if (pathlab_grid_load(map, g) != PATHLAB_OK || (edit && pathlab_grid_edit(*g, edit)) ||
      pathlab_finder_new(*g, &o, f) != PATHLAB_OK) {
    fprintf(stderr, "capi_test: %s\n", pathlab_last_error());
    pathlab_grid_free(*g);
    return 0;
  }
  return 1;
}

static void print_cells(const int32_t* cells, size_t n) {
  size_t i;
  printf("[");
  for (i = 0; i < n; ++i) printf("%s[%d, %d]", i ? ", " : "", cells[2 * i], cells[2 * i + 1]);
  printf("]");
}

static void print_result(pathlab_status s, const pathlab_result* r) {
  printf("{\"status\": %d, \"cost\": %.17g, \"expanded\": %llu, \"path\": ", (int)s, r->cost,
         (unsigned long long)r->expanded);
  print_cells(r->path, r->path_cells);
}

/* solve MAP ALGO SX SY GX GY [GX GY ...]: one search, or the nearest of several goals. */
static int solve_one(int argc, char** argv) {
  pathlab_grid* g;
  pathlab_finder* f;
  pathlab_result r;
  pathlab_status s;
  int32_t goals[64];
  int i, n = (argc - 6) / 2;
  if (n < 1 || n > 32 || (argc - 6) % 2 != 0 || !open_finder(argv[2], argv[3], NULL, &g, &f))
    return 2;
  for (i = 0; i < 2 * n; ++i) goals[i] = atoi(argv[6 + i]);
  if (n == 1) {
    s = pathlab_find(f, atoi(argv[4]), atoi(argv[5]), goals[0], goals[1], &r);
  } else {
    s = pathlab_find_nearest(f, atoi(argv[4]), atoi(argv[5]), (size_t)n, goals, &r, NULL);
  }
  print_result(s, &r);
  printf("}\n");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return 0;
}

/* partial MAP ALGO SX SY GX GY EDIT: a search with its partial path, after an edit. */
static int partial_one(char** argv) {
  pathlab_grid* g;
  pathlab_finder* f;
  pathlab_result r;
  pathlab_partial p;
  pathlab_status s;
  if (!open_finder(argv[2], argv[3], argv[8], &g, &f)) return 2;
  s = pathlab_find_partial(f, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), &r, &p);
  print_result(s, &r);
  if (p.path_cells > 0) {
    printf(", \"partial\": {\"reached\": [%d, %d], \"cost\": %.17g, \"path\": ", p.reached_x,
           p.reached_y, p.cost);
    print_cells(p.path, p.path_cells);
    printf("}");
  }
  printf("}\n");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return 0;
}

/* reach MAP SX SY BUDGET: a movement range. */
static int reach_one(char** argv) {
  pathlab_grid* g;
  pathlab_finder* f;
  pathlab_range range;
  pathlab_status s;
  size_t i;
  if (!open_finder(argv[2], NULL, NULL, &g, &f)) return 2;
  s = pathlab_reach(f, atoi(argv[3]), atoi(argv[4]), atof(argv[5]), &range);
  printf("{\"status\": %d, \"cells\": [", (int)s);
  for (i = 0; i < range.count; ++i) {
    printf("%s[%d, %d, %.17g]", i ? ", " : "", range.cells[2 * i], range.cells[2 * i + 1],
           range.costs[i]);
  }
  printf("]}\n");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return 0;
}

/* A grid made through the ABI from a map-kinds spec (compare_cli.py writes it, beside the same
 * map as a Tiled .tmj for the command):
 *   grid W H LAYERS LAYOUT      then LAYERS * H rows of W class characters, floor 0's first,
 *   edge L X Y SIDE             a wall on side n, e, s or w of cell (X, Y) of floor L
 *   link L X Y L2 X2 Y2 COST ONEWAY
 * or one line "map PATH LAYOUT": a map file read by pathlab_grid_load, then given the layout.
 * NULL (and the reason on stderr) when it cannot be made. */
static pathlab_grid* spec_grid(const char* path) {
  FILE* in = fopen(path, "rb");
  char line[4096], file[4096], word[64], layout[64];
  pathlab_grid* g = NULL;
  int w, h, layers, ok = 1;
  if (in == NULL || fgets(line, sizeof line, in) == NULL) {
    fprintf(stderr, "capi_test: cannot read %s\n", path);
    if (in != NULL) fclose(in);
    return NULL;
  }
  if (sscanf(line, "map %4000s %63s", file, layout) == 2) {
    ok = pathlab_grid_load(file, &g) == PATHLAB_OK &&
         pathlab_grid_set_layout(g, layout) == PATHLAB_OK;
  } else if (sscanf(line, "grid %d %d %d %63s", &w, &h, &layers, layout) == 4 && w > 0 && h > 0 &&
             layers > 0 && (long)w * h * layers < 1000000) {
    char* classes = malloc((size_t)w * (size_t)h * (size_t)layers + 1);
    int row;
    for (row = 0; ok && classes != NULL && row < h * layers; ++row) {
      ok = fgets(line, sizeof line, in) != NULL && (int)strcspn(line, "\r\n") == w;
      if (ok) memcpy(classes + (size_t)row * (size_t)w, line, (size_t)w);
    }
    ok = ok && classes != NULL &&
         pathlab_grid_from_layers(w, h, layers, classes, &g) == PATHLAB_OK &&
         pathlab_grid_set_layout(g, layout) == PATHLAB_OK;
    free(classes);
    while (ok && fgets(line, sizeof line, in) != NULL) {
      int l, x, y, l2, x2, y2, oneway;
      double cost;
      char side;
      if (sscanf(line, "edge %d %d %d %c", &l, &x, &y, &side) == 4) {
        const char* sides = "nesw";
        const char* s = strchr(sides, side);
        ok = s != NULL && pathlab_grid_at(g, l, x, y, &x, &y) == PATHLAB_OK &&
             pathlab_grid_set_edge_wall(g, x, y, (pathlab_side)(s - sides), 1) == PATHLAB_OK;
      } else if (sscanf(line, "link %d %d %d %d %d %d %lf %d", &l, &x, &y, &l2, &x2, &y2, &cost,
                        &oneway) == 8) {
        pathlab_map_link link;
        memset(&link, 0, sizeof link);
        link.cost = cost;
        link.oneway = oneway;
        ok = pathlab_grid_at(g, l, x, y, &link.from_x, &link.from_y) == PATHLAB_OK &&
             pathlab_grid_at(g, l2, x2, y2, &link.to_x, &link.to_y) == PATHLAB_OK &&
             pathlab_grid_add_link(g, &link) == PATHLAB_OK;
      } else {
        ok = sscanf(line, "%63s", word) != 1; /* blank lines only */
      }
    }
  } else {
    ok = 0;
  }
  fclose(in);
  if (!ok) {
    fprintf(stderr, "capi_test: %s: cannot make the grid: %s\n", path, pathlab_last_error());
    pathlab_grid_free(g);
    return NULL;
  }
  return g;
}

/* Cells as the command writes them: [x, y], or [x, y, layer] on a layered map. */
static void print_map_cells(const pathlab_grid* g, const int32_t* cells, size_t n) {
  size_t i;
  printf("[");
  for (i = 0; i < n; ++i) {
    int32_t l = 0, x = cells[2 * i], y = cells[2 * i + 1];
    if (pathlab_grid_layers(g) > 1) {
      pathlab_grid_locate(g, x, y, &l, &x, &y);
      printf("%s[%d, %d, %d]", i ? ", " : "", x, y, l);
    } else {
      printf("%s[%d, %d]", i ? ", " : "", x, y);
    }
  }
  printf("]");
}

/* kinds SPEC solve ALGO L X Y L X Y | kinds SPEC reach L X Y BUDGET | kinds SPEC links:
 * a search, a movement range or the links, on a grid made from a spec. */
static int kinds_one(int argc, char** argv) {
  pathlab_grid* g = spec_grid(argv[2]);
  pathlab_finder* f = NULL;
  pathlab_options o;
  int32_t sx, sy, gx, gy;
  int solve = argc == 11 && strcmp(argv[3], "solve") == 0;
  int reach = argc == 8 && strcmp(argv[3], "reach") == 0;
  if (g == NULL) return 2;
  memset(&o, 0, sizeof o);
  o.algorithm = solve ? argv[4] : NULL;
  if ((!solve && !reach) || pathlab_finder_new(g, &o, &f) != PATHLAB_OK ||
      pathlab_grid_at(g, atoi(argv[4 + solve]), atoi(argv[5 + solve]), atoi(argv[6 + solve]), &sx,
                      &sy) != PATHLAB_OK ||
      (solve &&
       pathlab_grid_at(g, atoi(argv[8]), atoi(argv[9]), atoi(argv[10]), &gx, &gy) != PATHLAB_OK)) {
    fprintf(stderr, "capi_test: %s\n", pathlab_last_error());
    pathlab_grid_free(g);
    return 2;
  }
  if (solve) {
    pathlab_result r;
    pathlab_status s = pathlab_find(f, sx, sy, gx, gy, &r);
    printf("{\"status\": %d, \"cost\": %.17g, \"layout\": \"%s\", \"path\": ", (int)s, r.cost,
           pathlab_grid_layout(g));
    print_map_cells(g, r.path, r.path_cells);
  } else {
    pathlab_range range;
    pathlab_status s = pathlab_reach(f, sx, sy, atof(argv[7]), &range);
    size_t i;
    printf("{\"status\": %d, \"cells\": ", (int)s);
    print_map_cells(g, range.cells, range.count);
    printf(", \"costs\": [");
    for (i = 0; i < range.count; ++i) printf("%s%.17g", i ? ", " : "", range.costs[i]);
    printf("]");
  }
  printf("}\n");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return 0;
}

/* pathlab_algorithms(): every name it lists makes a finder; the well-known ones are there. */
static void algorithm_names(void) {
  const char* names = pathlab_algorithms();
  char name[64];
  size_t n = 0, count = 0;
  pathlab_grid* g = NULL;
  check(names != NULL && names == pathlab_algorithms(), "the algorithm names: one static string");
  check(strstr(names, "\nastar\n") != NULL && strstr(names, "\njps+\n") != NULL &&
            strstr(names, "\nsubgoal-ch\n") != NULL,
        "astar, jps+ and subgoal-ch are listed");
  check(pathlab_grid_from_classes(3, 1, "...", &g) == PATHLAB_OK, "a grid for the names");
  for (const char* p = names; *p != '\0'; ++p) {
    if (*p != '\n') {
      if (n + 1 < sizeof name) name[n++] = *p;
      continue;
    }
    {
      pathlab_options o = {0};
      pathlab_finder* f = NULL;
      name[n] = '\0';
      o.algorithm = name;
      check(pathlab_finder_new(g, &o, &f) == PATHLAB_OK, "every listed algorithm makes a finder");
      pathlab_finder_free(f);
    }
    n = 0;
    ++count;
  }
  check(count >= 17 && n == 0, "17 or more names, each ending in a newline");
  pathlab_grid_free(g);
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "algorithms") == 0)
    return fputs(pathlab_algorithms(), stdout) < 0;
  if (argc >= 8 && strcmp(argv[1], "solve") == 0) return solve_one(argc, argv);
  if (argc == 9 && strcmp(argv[1], "partial") == 0) return partial_one(argv);
  if (argc == 6 && strcmp(argv[1], "reach") == 0) return reach_one(argv);
  if (argc >= 8 && strcmp(argv[1], "kinds") == 0) return kinds_one(argc, argv);
  if (argc != 3) {
    fprintf(stderr,
            "usage: capi_test SOURCE_DIR SHARED_DIR | capi_test algorithms | capi_test solve MAP "
            "ALGO SX SY GX GY "
            "[GX GY ...] | capi_test partial MAP ALGO SX SY GX GY EDIT | capi_test reach MAP SX "
            "SY BUDGET | capi_test kinds SPEC solve ALGO SL SX SY GL GX GY | capi_test kinds SPEC "
            "reach SL SX SY BUDGET\n");
    return 2;
  }
  check(pathlab_abi_version() == PATHLAB_ABI_VERSION, "the library's ABI is the header's");
  check(pathlab_last_error() != NULL && pathlab_last_error()[0] == '\0',
        "no error before a failure");
  algorithm_names();
  bad_input();
  bad_input_more();
  on_seed_maze(argv[1]);
  query_shapes(argv[1]);
  simulation(argv[1]);
  link_game(argv[1]);
  map_kinds();
  on_den520d(argv[2]);
  printf("capi: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
