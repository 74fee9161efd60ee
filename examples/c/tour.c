/* pathlab from C through its C ABI (pathlab/pathlab.h, the shared library libpathlab_c): a
 * search, its waypoints, a movement range, a search spread over frames, a short simulation and
 * a Link hint. Run it from the repository's root: it reads maps/seed_maze.txt.
 *
 * Against an installed pathlab (cmake --install build --prefix DIR), with CMake:
 *   cmake -S examples/c -B build-tour -DCMAKE_PREFIX_PATH=DIR && cmake --build build-tour
 *   build-tour/tour
 * or with pkg-config:
 *   export PKG_CONFIG_PATH=DIR/lib/pkgconfig
 *   cc -std=c99 examples/c/tour.c $(pkg-config --cflags --libs pathlab-c) -o tour
 *   LD_LIBRARY_PATH=$(pkg-config --variable=libdir pathlab-c) ./tour */
#include <stdio.h>

#include <pathlab/pathlab.h>

/* Prints the call's failure and returns 1 from the function (an example: what it made leaks). */
#define CHECK(call)                                                                 \
  do {                                                                              \
    pathlab_status s_ = (call);                                                     \
    if (s_ != PATHLAB_OK) {                                                         \
      fprintf(stderr, "%s: status %d: %s\n", #call, (int)s_, pathlab_last_error()); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

static int search(pathlab_grid* grid) {
  pathlab_finder* finder = NULL;
  pathlab_options options = {0}; /* all-zero: the defaults (A*, no corner cutting, ...) */
  pathlab_result r;
  pathlab_smoothed smoothed;
  pathlab_range range;
  pathlab_status s;
  int frames = 1;

  options.algorithm = "jps";
  CHECK(pathlab_finder_new(grid, &options, &finder));
  CHECK(pathlab_find(finder, 7, 2, 27, 17, &r));
  printf("jps: cost %.3f over %zu cells\n", r.cost, r.path_cells);
  /* The path's waypoints: its own memory may be passed back to the same finder. */
  CHECK(pathlab_smooth(finder, r.path_cells, r.path, "refined", &smoothed));
  printf("smoothed: %zu waypoints, length %.3f\n", smoothed.path_cells, smoothed.cost);
  CHECK(pathlab_reach(finder, 7, 2, 4.0, &range));
  printf("%zu cells within 4 movement points of (7, 2)\n", range.count);
  /* A search spread over frames, at most 4 expansions each. */
  CHECK(pathlab_slice_start(finder, 7, 2, 27, 17));
  while ((s = pathlab_slice_run(finder, 4, &r)) == PATHLAB_IN_PROGRESS) ++frames;
  printf("sliced: status %d after %d frames, cost %.3f\n", (int)s, frames, r.cost);
  pathlab_finder_free(finder);
  return 0;
}

static int simulate(const pathlab_grid* grid) {
  pathlab_world* world = NULL;
  pathlab_agent agent = {0}; /* zero fields: radius 0.3, 2 cells/s, the hybrid planner */
  const pathlab_agent_state* a;
  agent.start_x = 7.5;
  agent.start_y = 2.5;
  agent.goal_x = 16.5;
  agent.goal_y = 2.5;
  CHECK(pathlab_world_new(grid, NULL, 1, &agent, &world));
  while (!pathlab_world_finished(world)) CHECK(pathlab_world_step(world, 20));
  a = pathlab_world_agents(world);
  printf("agent %d %s after %.2f s at (%.2f, %.2f)\n", a[0].id,
         a[0].arrived ? "arrived" : "stopped", pathlab_world_time(world), a[0].x, a[0].y);
  pathlab_world_free(world);
  return 0;
}

static int link_hint(void) {
  pathlab_board* board = NULL;
  pathlab_link_line line;
  CHECK(pathlab_board_generate(10, 8, 12, 7, &board));
  CHECK(pathlab_board_hint(board, &line));
  printf("link: (%d,%d) and (%d,%d) connect with %d turns\n", line.points[0], line.points[1],
         line.points[2 * line.points_n - 2], line.points[2 * line.points_n - 1], line.turns);
  pathlab_board_free(board);
  return 0;
}

int main(void) {
  pathlab_grid* grid = NULL;
  int failed;
  if (pathlab_abi_version() != PATHLAB_ABI_VERSION) return 1;
  CHECK(pathlab_grid_load("maps/seed_maze.txt", &grid));
  failed = search(grid) || simulate(grid) || link_hint();
  pathlab_grid_free(grid);
  return failed;
}
