/* The C ABI (pathlab/pathlab.h) from C99: every entry point with good and bad arguments, paths
 * checked for legality and cost, batches against single queries, flow fields against searches,
 * edits, and the Moving AI optimum on shared maps. Compiled with warnings as errors.
 *
 *   capi_test SOURCE_DIR SHARED_DIR          the checks; last line "capi: N passed, N failed"
 *   capi_test solve MAP ALGO SX SY GX GY     one search, printed as one JSON object (status,
 *                                            cost, path), for tests/capi/compare_cli.py */
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
                              "lazytheta", "anyangle-exact"};
static const int any_angle[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};
static const int optimal[] = {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0};
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

static int solve_one(char** argv) {
  pathlab_grid* g = NULL;
  pathlab_finder* f = NULL;
  pathlab_options o;
  pathlab_result r;
  pathlab_status s;
  size_t i;
  memset(&o, 0, sizeof o);
  o.algorithm = argv[3];
  if (pathlab_grid_load(argv[2], &g) != PATHLAB_OK || pathlab_finder_new(g, &o, &f) != PATHLAB_OK) {
    fprintf(stderr, "capi_test: %s\n", pathlab_last_error());
    pathlab_grid_free(g);
    return 2;
  }
  s = pathlab_find(f, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), &r);
  printf("{\"status\": %d, \"cost\": %.17g, \"expanded\": %llu, \"path\": [", (int)s, r.cost,
         (unsigned long long)r.expanded);
  for (i = 0; i < r.path_cells; ++i)
    printf("%s[%d, %d]", i ? ", " : "", r.path[2 * i], r.path[2 * i + 1]);
  printf("]}\n");
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 8 && strcmp(argv[1], "solve") == 0) return solve_one(argv);
  if (argc != 3) {
    fprintf(stderr,
            "usage: capi_test SOURCE_DIR SHARED_DIR | capi_test solve MAP ALGO SX SY GX GY\n");
    return 2;
  }
  check(pathlab_abi_version() == PATHLAB_ABI_VERSION, "the library's ABI is the header's");
  check(pathlab_last_error() != NULL && pathlab_last_error()[0] == '\0',
        "no error before a failure");
  bad_input();
  on_seed_maze(argv[1]);
  on_den520d(argv[2]);
  printf("capi: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
