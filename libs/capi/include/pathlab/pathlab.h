/** \file pathlab.h
 * pathlab's C ABI: the library for C, C#, Rust, Zig, Go and anything else that calls C (shared
 * docs/DESIGN.md, "Everywhere a game runs"). C99; the shared library libpathlab_c exports the
 * pathlab_* symbols only. Nothing is thrown across it: every call that can fail returns a
 * pathlab_status, and pathlab_last_error() gives the reason.
 *
 * ABI version 1. Its first part is grids, finders, batches and flow fields; the rest of the
 * runtime (partial paths, several goals, movement ranges, sliced searches, line of sight,
 * smoothing, the simulation, the Link game, and hex grids, walls on cell edges, layered maps
 * and links) was added within version 1: new functions, new types and one new status value
 * (PATHLAB_IN_PROGRESS, only returned by the sliced search), no existing function or struct
 * changed. A program built against an older version-1 header runs unchanged against this
 * library.
 *
 * Ownership: every object made by a *_new, *_load, *_parse, *_from_classes, *_from_layers,
 * *_from_cells, *_generate or *_build call is the caller's, freed by its *_free (which accepts
 * NULL). Memory a call returns a pointer to (paths, ranges, field arrays, agent states,
 * messages) belongs to the object it came from: see each call.
 *
 * Threads: a grid may be read by any number of threads at once (finders, batches, fields and
 * worlds made from it). A finder belongs to one thread at a time, and so do a world and a
 * board; any number of them may run on as many threads. pathlab_grid_edit needs no query,
 * batch, field build or world creation running on that grid; finders made before the edit
 * answer for the edited grid (they repair themselves), fields and worlds keep the grid as it
 * was when they were made. pathlab_last_error() is per thread.
 *
 * Coordinates are (x, y): x the column, y the row, (0, 0) the top-left cell. The simulation
 * works in map units: the centre of cell (x, y) is (x + 0.5, y + 0.5). */
#ifndef PATHLAB_PATHLAB_H
#define PATHLAB_PATHLAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI this header describes; pathlab_abi_version() of the library must equal it. */
#define PATHLAB_ABI_VERSION 1

#if defined(_WIN32)
#define PATHLAB_API __declspec(dllimport)
#elif defined(__GNUC__)
#define PATHLAB_API __attribute__((visibility("default")))
#else
#define PATHLAB_API
#endif
#ifdef PATHLAB_BUILDING_C_API
#undef PATHLAB_API
#if defined(_WIN32)
#define PATHLAB_API __declspec(dllexport)
#else
#define PATHLAB_API __attribute__((visibility("default")))
#endif
#endif
/** \def PATHLAB_API
 *  Marks the functions libpathlab_c exports: __declspec(dllimport) on Windows (dllexport in the
 *  library's own build, which defines PATHLAB_BUILDING_C_API), default visibility elsewhere. */

/** The ABI version of the library loaded (compare with PATHLAB_ABI_VERSION). */
PATHLAB_API int pathlab_abi_version(void);

/** This thread's message for its last failed call ("" before any): a NUL-terminated string
 *  owned by the library, valid until this thread's next failed call. */
PATHLAB_API const char* pathlab_last_error(void);

/** The names of every algorithm (those of `pathlab algorithms`, any of which
 *  pathlab_options.algorithm accepts), one per line, each ending in '\n': a NUL-terminated string
 *  owned by the library, valid as long as it is loaded. Added within ABI version 1. */
PATHLAB_API const char* pathlab_algorithms(void);

/** What a call did. For a search, PATHLAB_OK means a path was found. */
typedef enum {
  PATHLAB_OK = 0,            /**< success; for a search: a path was found */
  PATHLAB_NO_PATH = 1,       /**< a search: the goal cannot be reached; Link: a negative answer */
  PATHLAB_NODE_LIMIT = 2,    /**< a search: the node limit stopped it */
  PATHLAB_INVALID = 3,       /**< a bad argument (NULL, a bad name, size or cell): nothing done */
  PATHLAB_PARSE_ERROR = 4,   /**< a malformed or unreadable file or text ("FILE:LINE: what") */
  PATHLAB_OUT_OF_MEMORY = 5, /**< memory ran out: nothing done */
  PATHLAB_IN_PROGRESS = 6    /**< a sliced search: not finished yet, run another slice */
} pathlab_status;

/** A grid map (opaque): walls, terrain classes and costs. */
typedef struct pathlab_grid pathlab_grid;
/** A reusable query object over one grid, with its options and workspace (opaque). */
typedef struct pathlab_finder pathlab_finder;
/** A flow field: every cell's distance to the nearest goal and first move (opaque). */
typedef struct pathlab_field pathlab_field;

/** Reads a map file in any format the CLI reads (text, ASCII, Moving AI, PNG/BMP/GIF, Tiled
 *  .tmx / .tmj, layered JSON maps with the files they name, relative to the map).
 *  PATHLAB_PARSE_ERROR with "FILE:LINE: what" for a malformed or unreadable file. */
PATHLAB_API pathlab_status pathlab_grid_load(const char* path, pathlab_grid** out);
/** Parses map text of `len` bytes; `format` is a CLI --format name ("movingai", "text",
 *  "ascii", "image", "tmx", "tmj", "layered") or NULL to detect it. The text reads no file it
 *  names (a Tiled map's external tileset, a layered map's floors are PATHLAB_PARSE_ERROR):
 *  pathlab_grid_load() reads those. */
PATHLAB_API pathlab_status pathlab_grid_parse(const char* text, size_t len, const char* format,
                                              pathlab_grid** out);
/** A grid from width * height class characters, row-major, as in a Moving AI .map ('.' ground,
 *  '@' wall, 'T', 'S', 'W', ...; 'G' reads '.', 'O' reads '@'). */
PATHLAB_API pathlab_status pathlab_grid_from_classes(int32_t width, int32_t height,
                                                     const char* classes, pathlab_grid** out);
/** Frees a grid (NULL: nothing). No finder, field or batch may still use it. */
PATHLAB_API void pathlab_grid_free(pathlab_grid* grid);
/** Columns of the grid (0 for NULL). */
PATHLAB_API int32_t pathlab_grid_width(const pathlab_grid* grid);
/** Rows of the grid (0 for NULL). */
PATHLAB_API int32_t pathlab_grid_height(const pathlab_grid* grid);
/** Changes the grid as the CLI's --edit: "wall:X,Y[:X2,Y2]", "free:...", "class=C:...",
 *  "terrain=V:...". A bad edit is PATHLAB_INVALID and changes nothing. */
PATHLAB_API pathlab_status pathlab_grid_edit(pathlab_grid* grid, const char* edit);

/** How a finder, a batch or a field searches. All-zero (or a NULL pointer) = the defaults. */
typedef struct {
  const char* algorithm;   /**< NULL = "astar"; any name of `pathlab algorithms` */
  const char* diagonal;    /**< NULL = "no-corner-cut"; "never", "one-corner", "always" */
  double weight;           /**< f = g + weight * h; 0 = the algorithm's default */
  double radius;           /**< the unit's radius in cells, 0..16 */
  const char* class_costs; /**< NULL, or the unit's class costs as --class-cost: "T=2,W=x" */
  uint64_t node_limit;     /**< expansions allowed per query; 0 = 10 million */
} pathlab_options;

/** A finder over `grid` (which must outlive it). PATHLAB_INVALID with the reason for an unknown
 *  algorithm or diagonal rule, a bad weight, radius or class-cost text. */
PATHLAB_API pathlab_status pathlab_finder_new(const pathlab_grid* grid,
                                              const pathlab_options* options, pathlab_finder** out);
/** Frees a finder (NULL: nothing). */
PATHLAB_API void pathlab_finder_free(pathlab_finder* finder);

/** One search's answer. */
typedef struct {
  double cost;         /**< the path's cost (Moving AI costs: straight 1, diagonal sqrt 2) */
  uint64_t expanded;   /**< nodes expanded */
  double time_us;      /**< wall time of the search, microseconds */
  const int32_t* path; /**< x0, y0, x1, y1, ...: every cell, start to goal; owned by the
                            finder, valid until its next call */
  size_t path_cells;   /**< cells in path (0 unless PATHLAB_OK) */
} pathlab_result;

/** Searches from (sx, sy) to (gx, gy). PATHLAB_OK (found), PATHLAB_NO_PATH or
 *  PATHLAB_NODE_LIMIT; PATHLAB_INVALID when a cell is outside the map or not usable by the
 *  finder's unit (a wall, a forbidden class, too close to one for its radius). */
PATHLAB_API pathlab_status pathlab_find(pathlab_finder* finder, int32_t sx, int32_t sy, int32_t gx,
                                        int32_t gy, pathlab_result* out);

/** Answers n queries on `threads` threads (0: every core), one finder each, on one grid:
 *  costs[i] for starts[2i], starts[2i+1] -> goals[2i], goals[2i+1], NaN where there is no path
 *  (or a cell the unit cannot use). PATHLAB_INVALID, computing nothing, when a start or goal is
 *  outside the map. */
PATHLAB_API pathlab_status pathlab_find_many(const pathlab_grid* grid,
                                             const pathlab_options* options, size_t n,
                                             const int32_t* starts, const int32_t* goals,
                                             double* costs, int threads);

/** Builds the flow field of goals_n goals (x, y pairs) for the options' unit and diagonal rule
 *  (the algorithm, weight and node limit are not used). */
PATHLAB_API pathlab_status pathlab_field_build(const pathlab_grid* grid,
                                               const pathlab_options* options, size_t goals_n,
                                               const int32_t* goals, pathlab_field** out);
/** width * height distances, row-major (index y * width + x), INFINITY where no goal is
 *  reachable; owned by the field. */
PATHLAB_API const double* pathlab_field_distance(const pathlab_field* field);
/** width * height first moves, row-major: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, -1 none;
 *  on a hex layout 0 to 5 the six hex neighbours of shared docs/ALGORITHMS.md ("Hex grids");
 *  8 (square) or 6 (hex) where the first move takes a link (pathlab_field_next() gives the
 *  cell any code leads to); owned by the field. */
PATHLAB_API const int8_t* pathlab_field_direction(const pathlab_field* field);
/** Frees a field (NULL: nothing). */
PATHLAB_API void pathlab_field_free(pathlab_field* field);

/* ---- Query shapes (added within ABI version 1): partial paths, several goals, movement ranges,
 * sliced searches, line of sight and smoothing. They are calls on a finder: its grid, options
 * and unit, its thread rules, and its memory (what they return lives in the finder until its
 * next call). */

/** The partial path of a search that reached no goal (shared docs/ALGORITHMS.md, "Partial
 *  paths"): the reached cell closest to the goal (octile distance with diagonal moves, Manhattan
 *  without; ties to the smaller path cost, then to the cell reached first) and the path there. */
typedef struct {
  int32_t reached_x;   /**< column of the reached cell closest to the goal */
  int32_t reached_y;   /**< row of that cell */
  double cost;         /**< the cost of path (0 without one) */
  const int32_t* path; /**< x0, y0, ...: every cell, start to the reached cell; owned by the
                            finder, valid until its next call */
  size_t path_cells;   /**< cells in path; 0 when there is none (the search found its goal) */
} pathlab_partial;

/** pathlab_find() that also finds the partial path when the goal cannot be reached (the CLI's
 *  solve --partial): with PATHLAB_NO_PATH or PATHLAB_NODE_LIMIT, `partial` holds the reached
 *  cell closest to the goal and the path there, found by the algorithm's own best-first search
 *  (dijkstra, astar, wastar, greedy) or by A* for the others, within the same node limit. With
 *  PATHLAB_OK it is empty (path_cells 0). Refuses what pathlab_find() refuses. */
PATHLAB_API pathlab_status pathlab_find_partial(pathlab_finder* finder, int32_t sx, int32_t sy,
                                                int32_t gx, int32_t gy, pathlab_result* out,
                                                pathlab_partial* partial);

/** The nearest of goals_n goals (x, y pairs), as the CLI's solve --to X,Y --to X,Y: the
 *  least-cost path to any of them (for the optimal algorithms); the goal reached is the last
 *  cell of out->path. `partial` may be NULL; otherwise, when no goal is reached, it receives the
 *  partial path as in pathlab_find_partial(). PATHLAB_INVALID for no goal, or a start or goal
 *  outside the map or not usable by the finder's unit. */
PATHLAB_API pathlab_status pathlab_find_nearest(pathlab_finder* finder, int32_t sx, int32_t sy,
                                                size_t goals_n, const int32_t* goals,
                                                pathlab_result* out, pathlab_partial* partial);

/** A movement range: the cells within a budget of a start and their least costs. */
typedef struct {
  const int32_t* cells; /**< x0, y0, x1, y1, ...: row-major; owned by the finder, valid until its
                             next call */
  const double* costs;  /**< costs[i]: the least cost from the start to cell i (0 for the start) */
  size_t count;         /**< cells in the range (the start included) */
} pathlab_range;

/** The movement range of the finder's unit from (sx, sy), as the CLI's reach: every cell whose
 *  least cost from the start is at most `budget` (within 1e-9 relative), by a Dijkstra bounded by
 *  the budget, with the finder's moves, unit and node limit. PATHLAB_OK, or PATHLAB_NODE_LIMIT
 *  when the limit stopped it (the range then holds the cells settled). PATHLAB_INVALID for a
 *  negative or NaN budget, or a start outside the map or not usable by the unit. */
PATHLAB_API pathlab_status pathlab_reach(pathlab_finder* finder, int32_t sx, int32_t sy,
                                         double budget, pathlab_range* out);

/** Starts a sliced search from (sx, sy) to (gx, gy) (frame budgets: a search spread over
 *  frames), to be run by pathlab_slice_run(). dijkstra, astar, wastar, greedy, jps and jps+ stop
 *  within each slice and resume where they stopped, with exactly the result and expansions of one
 *  pathlab_find(); the other algorithms run to the end in their first slice. A finder runs one
 *  query at a time: any other call on it that searches (find, reach, a new start) cancels the
 *  sliced one. PATHLAB_INVALID, starting nothing, for a cell outside the map or not usable by
 *  the unit. */
PATHLAB_API pathlab_status pathlab_slice_start(pathlab_finder* finder, int32_t sx, int32_t sy,
                                               int32_t gx, int32_t gy);

/** Runs the started sliced search for at most max_expansions expansions (>= 1).
 *  PATHLAB_IN_PROGRESS when it needs another slice (out->expanded: the expansions so far, no
 *  path); else it has finished and `out` is as pathlab_find() would give it (PATHLAB_OK,
 *  PATHLAB_NO_PATH or PATHLAB_NODE_LIMIT; expanded and time_us summed over the slices). An edit
 *  of the grid between slices restarts it on the edited map. PATHLAB_INVALID without a started
 *  search, for max_expansions 0, or when an edit made its start or goal unusable. */
PATHLAB_API pathlab_status pathlab_slice_run(pathlab_finder* finder, uint64_t max_expansions,
                                             pathlab_result* out);

/** 1 while a sliced search is started and neither finished nor cancelled, else 0 (0 for
 *  NULL). */
PATHLAB_API int pathlab_slice_active(const pathlab_finder* finder);

/** Drops the sliced search (nothing happens without one, or for NULL). */
PATHLAB_API void pathlab_slice_cancel(pathlab_finder* finder);

/** Line of sight between the centres of cells (ax, ay) and (bx, by) under the finder's diagonal
 *  rule, on the grid as its unit sees it (walls, forbidden classes and cells too close to them
 *  for its radius block the view): *visible is 1 when every cell the segment touches is usable
 *  (shared docs/ALGORITHMS.md, "Line of sight"), else 0 (0 when an end is a wall). For
 *  8-adjacent cells it equals whether that move is legal. PATHLAB_INVALID for a cell outside the
 *  map. */
PATHLAB_API pathlab_status pathlab_line_of_sight(const pathlab_finder* finder, int32_t ax,
                                                 int32_t ay, int32_t bx, int32_t by, int* visible);

/** A smoothed path: its waypoints and length. */
typedef struct {
  double cost;         /**< the Euclidean length through the waypoints' centres, times the
                            straight-move cost (terrain is not weighed) */
  const int32_t* path; /**< x0, y0, ...: the waypoints, start and end included; owned by the
                            finder, valid until its next call */
  size_t path_cells;   /**< waypoints in path */
} pathlab_smoothed;

/** Smooths a path of path_cells cells (x, y pairs; e.g. a pathlab_result's path, which may be
 *  passed straight from the same finder) by line of sight under the finder's diagonal rule and
 *  unit, as the CLI's solve --smooth: consecutive waypoints see each other and the result is
 *  never longer than the input. `method`: "greedy" (keep a waypoint only when the next cell is
 *  hidden from the last kept one) or "refined" (greedy, then string pulling; NULL = "refined").
 *  PATHLAB_INVALID for an unknown method, a cell outside the map, or two consecutive cells that
 *  do not see each other (every legal path of the finder's rule and unit is accepted). */
PATHLAB_API pathlab_status pathlab_smooth(pathlab_finder* finder, size_t path_cells,
                                          const int32_t* path, const char* method,
                                          pathlab_smoothed* out);

/* ---- The simulation (added within ABI version 1): agents moving among dynamic obstacles over a
 * grid (docs/simulation.md), as the CLI's simulate runs them. A world belongs to one thread at a
 * time; any number of worlds may run on as many threads. It keeps its own copy of the map. */

/** A running simulation (opaque): agents, dynamic obstacles, the map and the clock. */
typedef struct pathlab_world pathlab_world;

/** How a world made by pathlab_world_new() runs. All-zero (or a NULL pointer) = the defaults. */
typedef struct {
  double dt;            /**< simulated seconds per tick; 0 = 0.05 */
  double time_limit;    /**< simulated seconds after which the run is finished; 0 = 60 */
  const char* diagonal; /**< the rule of the agents' plans; NULL = "no-corner-cut" */
} pathlab_world_options;

/** One agent of pathlab_world_new(). Zero fields take the defaults. */
typedef struct {
  double start_x;      /**< where it stands at time 0 (map units), in a cell its radius fits */
  double start_y;      /**< (map units) */
  double goal_x;       /**< where it goes (map units), in a cell its radius fits */
  double goal_y;       /**< (map units) */
  double radius;       /**< cells, below 8; 0 = 0.3 */
  double max_speed;    /**< cells/s; 0 = 2 */
  double max_accel;    /**< cells/s^2; 0 = 8 */
  const char* planner; /**< "hybrid", "apf", "replan", "dstar" or "flow"; NULL = "hybrid" */
  int32_t id;          /**< names it in messages and metrics; 0 = its index + 1 */
} pathlab_agent;

/** A world over a copy of `grid` with agents_n agents (the grid may be edited or freed
 *  afterwards). Plans every agent's first path. PATHLAB_INVALID with the reason for a bad option,
 *  an unknown planner, a non-finite number, or an agent whose start or goal is outside the map,
 *  in a wall or too close to one for its radius. */
PATHLAB_API pathlab_status pathlab_world_new(const pathlab_grid* grid,
                                             const pathlab_world_options* options, size_t agents_n,
                                             const pathlab_agent* agents, pathlab_world** out);
/** A world from a scenario file (docs/simulation.md), as `pathlab simulate FILE`; its map is
 *  read relative to the file. `planner` NULL keeps each agent's own planner; a planner's name
 *  gives it to every agent (simulate --planner). PATHLAB_PARSE_ERROR "FILE:LINE: what" for a
 *  malformed or unreadable file, PATHLAB_INVALID for an unknown planner or a world it refuses. */
PATHLAB_API pathlab_status pathlab_world_load(const char* path, const char* planner,
                                              pathlab_world** out);
/** The same from scenario text of `len` bytes; `path` (NULL: "<scenario>" in the current
 *  folder) names it in errors and its folder resolves the map the text names. */
PATHLAB_API pathlab_status pathlab_world_parse(const char* text, size_t len, const char* path,
                                               const char* planner, pathlab_world** out);
/** Frees a world (NULL: nothing). */
PATHLAB_API void pathlab_world_free(pathlab_world* world);

/** Advances the world up to `ticks` time steps, fewer when it finishes (every agent arrived or
 *  the time limit). */
PATHLAB_API pathlab_status pathlab_world_step(pathlab_world* world, uint32_t ticks);
/** 1 when every agent has arrived or the time limit is reached, else 0 (1 for NULL). */
PATHLAB_API int pathlab_world_finished(const pathlab_world* world);
/** Simulated seconds so far (0 for NULL). */
PATHLAB_API double pathlab_world_time(const pathlab_world* world);
/** Ticks so far (0 for NULL). */
PATHLAB_API uint64_t pathlab_world_ticks(const pathlab_world* world);
/** A copy of the world's map as a new grid (the caller's, freed by pathlab_grid_free()): to
 *  draw it, or to search it. */
PATHLAB_API pathlab_status pathlab_world_grid(const pathlab_world* world, pathlab_grid** out);

/** One agent now. */
typedef struct {
  int32_t id;        /**< its id */
  int32_t arrived;   /**< 1 once it reached its goal (it has left the world), else 0 */
  int32_t colliding; /**< 1 while it overlaps a wall, an obstacle or another agent, else 0 */
  int32_t waiting;   /**< 1 while it is held back from a narrow passage others use, else 0 */
  double x;          /**< the centre of its disc (map units) */
  double y;          /**< (map units) */
  double vx;         /**< its velocity over the last tick (cells/s); 0 once arrived */
  double vy;         /**< (cells/s) */
  double goal_x;     /**< its goal now (map units) */
  double goal_y;     /**< (map units) */
  double radius;     /**< cells */
} pathlab_agent_state;

/** What one agent did so far (the fields of simulate --json). */
typedef struct {
  int32_t id;             /**< its id */
  int32_t arrived;        /**< 1 when it reached its goal before the run ended */
  double time;            /**< seconds until arrival (or so far) */
  double path_length;     /**< distance travelled (cells) */
  double optimal_length;  /**< the shortest any-angle path on the static map, start to goal */
  double min_clearance;   /**< least distance between its disc and a wall or obstacle */
  int32_t collisions;     /**< overlaps begun */
  int32_t stalls;         /**< stalls and oscillations detected */
  int32_t local_replans;  /**< local repairs of its plan */
  int32_t global_replans; /**< full plans after the first */
  double collision_time;  /**< seconds spent overlapping */
} pathlab_agent_metrics;

/** Agents in the world (0 for NULL). */
PATHLAB_API size_t pathlab_world_agent_count(const pathlab_world* world);
/** pathlab_world_agent_count() states, in the order the world was given its agents; owned by
 *  the world, valid until its next pathlab_world_step(), pathlab_world_add_obstacle() or
 *  pathlab_world_free() (NULL for NULL). */
PATHLAB_API const pathlab_agent_state* pathlab_world_agents(const pathlab_world* world);
/** pathlab_world_agent_count() metrics, in the same order and with the same lifetime as
 *  pathlab_world_agents() (NULL for NULL). */
PATHLAB_API const pathlab_agent_metrics* pathlab_world_metrics(const pathlab_world* world);

/** A dynamic obstacle for pathlab_world_add_obstacle(): a disc, a segment (a thin wall) or a
 *  polygon moving with a constant velocity. */
typedef struct {
  double x;             /**< where it is when it appears (map units), inside the map */
  double y;             /**< (map units) */
  double vx;            /**< its velocity (cells/s) */
  double vy;            /**< (cells/s) */
  double radius;        /**< a disc's radius (cells, > 0) when points is NULL */
  const double* points; /**< NULL: a disc; else points_n (x, y) pairs relative to (x, y): 2 a
                             segment, 3 or more a polygon (in order) */
  size_t points_n;      /**< pairs in points */
  double appear;        /**< simulated seconds when it appears; a time already past (0): now */
  double disappear;     /**< simulated seconds when it goes (after appear); 0 = never */
  int32_t id;           /**< names it; 0 = one more than the largest obstacle id so far */
} pathlab_obstacle;

/** Adds a dynamic obstacle to a running world (the web page's dropped obstacle); agents learn of
 *  it by sensing. PATHLAB_INVALID for a bad shape, a non-finite number, a position outside the
 *  map, a speed above 1000 cells/s or a point further from the position than the map's width
 *  plus its height. */
PATHLAB_API pathlab_status pathlab_world_add_obstacle(pathlab_world* world,
                                                      const pathlab_obstacle* obstacle);

/** One dynamic obstacle now. */
typedef struct {
  int32_t id;           /**< its id */
  int32_t kind;         /**< 0 a disc, 1 a segment, 2 a polygon */
  int32_t present;      /**< 1 when it exists now (between its appear and disappear times) */
  int32_t reserved;     /**< 0 */
  double x;             /**< its position now (map units): the origin of its points */
  double y;             /**< (map units) */
  double vx;            /**< its velocity now (cells/s) */
  double vy;            /**< (cells/s) */
  double radius;        /**< a disc's radius (cells) */
  const double* points; /**< a segment's or polygon's points_n (x, y) pairs relative to (x, y);
                             owned by the world, with the lifetime of pathlab_world_agents() */
  size_t points_n;      /**< pairs in points (0 for a disc) */
} pathlab_obstacle_state;

/** Dynamic obstacles in the world, those that have gone included (0 for NULL). */
PATHLAB_API size_t pathlab_world_obstacle_count(const pathlab_world* world);
/** pathlab_world_obstacle_count() obstacles at the world's time, in the order they were given
 *  or added; lifetime as pathlab_world_agents() (NULL for NULL). */
PATHLAB_API const pathlab_obstacle_state* pathlab_world_obstacles(const pathlab_world* world);

/* ---- The Link game (added within ABI version 1): 连连看 / Onet / Shisen-Sho (docs/link.md),
 * as the CLI's link. A board belongs to one thread at a time; what its calls return lives in it
 * until its next call. */

/** A Link board (opaque): width x height cells, each empty ('.') or holding a tile of some kind
 *  (a printable character), with a ring of virtual empty cells around it. */
typedef struct pathlab_board pathlab_board;

/** Parses a board in the text format (one row per line, '.' empty, any other printable
 *  non-space character a tile) of `len` bytes. PATHLAB_PARSE_ERROR "<board>:LINE: what". */
PATHLAB_API pathlab_status pathlab_board_parse(const char* text, size_t len, pathlab_board** out);
/** Reads a board file (PATHLAB_PARSE_ERROR "FILE:LINE: what" when unreadable or malformed). */
PATHLAB_API pathlab_status pathlab_board_load(const char* path, pathlab_board** out);
/** A board from width * height cells, row-major ('.' empty; sides 1..256). */
PATHLAB_API pathlab_status pathlab_board_from_cells(int32_t width, int32_t height,
                                                    const char* cells, pathlab_board** out);
/** A full board with `kinds` kinds (1..62, each used an even number of times) that can be
 *  cleared, dealt from `seed` by playing the game backwards (link --generate). width * height
 *  must be even and at least 2 * kinds. */
PATHLAB_API pathlab_status pathlab_board_generate(int32_t width, int32_t height, int32_t kinds,
                                                  uint64_t seed, pathlab_board** out);
/** Frees a board (NULL: nothing). */
PATHLAB_API void pathlab_board_free(pathlab_board* board);
/** Columns of the board (0 for NULL). */
PATHLAB_API int32_t pathlab_board_width(const pathlab_board* board);
/** Rows of the board (0 for NULL). */
PATHLAB_API int32_t pathlab_board_height(const pathlab_board* board);
/** The width * height cells, row-major, NUL-terminated; owned by the board, valid until it
 *  changes (pathlab_board_play(), pathlab_board_shuffle()) or is freed (NULL for NULL). */
PATHLAB_API const char* pathlab_board_cells(const pathlab_board* board);

/** A connecting line: at most 3 axis-aligned segments (2 turns) through empty cells. */
typedef struct {
  const int32_t* points; /**< x0, y0, ...: the line's ends and corners, first tile first (-1 and
                              width or height on the outer ring); owned by the board, valid
                              until its next call */
  size_t points_n;       /**< points on the line, 2 to 4 */
  int32_t turns;         /**< corners: points_n - 2 */
  int32_t length;        /**< cells walked: the sum of the segments' lengths */
} pathlab_link_line;

/** Whether the tiles at (ax, ay) and (bx, by) connect (link --connect): PATHLAB_OK with the line
 *  of fewest turns, then shortest; PATHLAB_NO_PATH when they do not, with the reason as
 *  pathlab_last_error() ("empty cell", "different kinds" or "no line with at most two turns").
 *  PATHLAB_INVALID for a cell outside the board or the same cell twice. */
PATHLAB_API pathlab_status pathlab_board_connect(pathlab_board* board, int32_t ax, int32_t ay,
                                                 int32_t bx, int32_t by, pathlab_link_line* out);
/** A hint (link --hint): PATHLAB_OK with the line of the first connectable pair in row-major
 *  order (its first and last points are the two tiles); PATHLAB_NO_PATH when none connects (the
 *  board is empty or deadlocked; pathlab_last_error() says which). */
PATHLAB_API pathlab_status pathlab_board_hint(pathlab_board* board, pathlab_link_line* out);

/** A list of moves: pairs of tiles. */
typedef struct {
  const int32_t* moves; /**< ax, ay, bx, by for each move: 4 * count ints; owned by the board,
                             valid until its next call */
  size_t count;         /**< moves in the list */
  uint64_t nodes;       /**< pathlab_board_solve(): boards expanded; 0 otherwise */
} pathlab_link_moves;

/** Every connectable pair (link --moves), ordered as hints are found: PATHLAB_OK (count 0 when
 *  none). */
PATHLAB_API pathlab_status pathlab_board_moves(pathlab_board* board, pathlab_link_moves* out);
/** Removes the tiles at (ax, ay) and (bx, by) when they connect, then lets the tiles slide by
 *  `gravity`: "none" (NULL), "down", "up", "left", "right" or "centre". PATHLAB_NO_PATH, the
 *  board unchanged, when they do not connect; PATHLAB_INVALID for a cell outside the board, the
 *  same cell twice or an unknown gravity. */
PATHLAB_API pathlab_status pathlab_board_play(pathlab_board* board, int32_t ax, int32_t ay,
                                              int32_t bx, int32_t by, const char* gravity);
/** Rearranges the tiles over the cells they occupy, at random from `seed`, until the board has
 *  a move (link --shuffle). PATHLAB_NO_PATH, the board unchanged, when there is no tile or no
 *  arrangement tried had a move. */
PATHLAB_API pathlab_status pathlab_board_shuffle(pathlab_board* board, uint64_t seed);
/** Searches for removals that clear the board (link --solve) with `gravity` (as in
 *  pathlab_board_play()) and at most node_limit boards expanded (0 = 20 million): PATHLAB_OK with
 *  the moves in order, PATHLAB_NO_PATH when it proved that none clears it, PATHLAB_NODE_LIMIT
 *  when the limit stopped it (count 0 then). The board itself is not changed. */
PATHLAB_API pathlab_status pathlab_board_solve(pathlab_board* board, const char* gravity,
                                               uint64_t node_limit, pathlab_link_moves* out);

/* ---- Map kinds (added within ABI version 1): hex grids, walls on cell edges, layered maps and
 * links (shared docs/ALGORITHMS.md, "Hex grids", "Walls on cell edges", "Layered maps";
 * docs/tiled.md). pathlab_grid_load() reads Tiled maps (.tmx, .tmj) and layered JSON maps with
 * their layout, thin walls, floors and links; pathlab_grid_parse() reads Tiled maps whose
 * tilesets are in the text (not in the WebAssembly build of js/). Every search, batch, range,
 * field, line of sight and smoothing answers on every kind of map (the algorithms that need a plain
 * square map, such as jps, answer with A*; the any-angle ones with A* on hex and layered maps).
 *
 * Cells stay the grid's own (x, y) everywhere: a layered map stacks its floors in one grid, cell
 * (x, y) of floor l being the grid's cell pathlab_grid_at(l, x, y), with one or two rows of
 * wall between floors (no move but a link joins two floors). Paths, ranges, fields and link ends
 * are grid cells; pathlab_grid_locate() gives a grid cell's floor and its (x, y) there.
 * The calls that change a grid here (layout, edge walls, links) are edits: the thread rules of
 * pathlab_grid_edit() apply, and finders made before them answer for the changed grid. */

/** A side of a square cell: where a wall on a cell edge stands. On a hex map the edge is named
 *  by its direction 0..5 instead (the hex flow field's codes), cast to pathlab_side. */
typedef enum {
  PATHLAB_NORTH = 0, /**< the edge shared with (x, y - 1) */
  PATHLAB_EAST = 1,  /**< the edge shared with (x + 1, y) */
  PATHLAB_SOUTH = 2, /**< the edge shared with (x, y + 1) */
  PATHLAB_WEST = 3   /**< the edge shared with (x - 1, y) */
} pathlab_side;

/** A layered map of `layers` floors (1 or more) of width x height cells each, from
 *  layers * width * height class characters: floor 0's rows, then floor 1's, ... (each floor as
 *  pathlab_grid_from_classes() reads it). Square cells and no links until set. The grid is
 *  pathlab_grid_width() = width wide and taller than layers * height (the rows between floors);
 *  one floor gives the grid of pathlab_grid_from_classes(). PATHLAB_INVALID for a size past
 *  2^28 cells or a character that is not a class. */
PATHLAB_API pathlab_status pathlab_grid_from_layers(int32_t width, int32_t height, int32_t layers,
                                                    const char* classes, pathlab_grid** out);
/** Floors of the grid: 1 unless it is layered (0 for NULL). */
PATHLAB_API int32_t pathlab_grid_layers(const pathlab_grid* grid);
/** Rows of each floor: pathlab_grid_height() for one floor (0 for NULL). */
PATHLAB_API int32_t pathlab_grid_layer_height(const pathlab_grid* grid);
/** The grid cell of cell (x, y) of floor `layer`, into *grid_x and *grid_y. PATHLAB_INVALID
 *  for a floor the map does not have or a cell outside the floor. */
PATHLAB_API pathlab_status pathlab_grid_at(const pathlab_grid* grid, int32_t layer, int32_t x,
                                           int32_t y, int32_t* grid_x, int32_t* grid_y);
/** The floor of grid cell (grid_x, grid_y) and its cell there, into *layer, *x and *y.
 *  PATHLAB_INVALID outside the map or on a row between floors. */
PATHLAB_API pathlab_status pathlab_grid_locate(const pathlab_grid* grid, int32_t grid_x,
                                               int32_t grid_y, int32_t* layer, int32_t* x,
                                               int32_t* y);

/** The layout of the grid's cells: "square", "pointy-odd-r", "pointy-even-r", "flat-odd-q" or
 *  "flat-even-q" (a string owned by the library, valid as long as it is loaded; NULL for
 *  NULL). */
PATHLAB_API const char* pathlab_grid_layout(const pathlab_grid* grid);
/** Reads the same cells in another layout (the CLI's --layout: a square map's cells as hexes).
 *  An edit. PATHLAB_INVALID for an unknown name, or a change between square and hex on a grid
 *  with walls on cell edges (a square cell's sides are not a hex's). */
PATHLAB_API pathlab_status pathlab_grid_set_layout(pathlab_grid* grid, const char* layout);

/** Whether a wall stands on side `side` of cell (x, y) (on a hex map: on its edge in direction
 *  `side`, 0..5): *blocked 1 or 0. A thin wall blocks its edge both ways, so it reads the same
 *  from the cell on either side. PATHLAB_INVALID for a cell outside the map or an unknown
 *  side. */
PATHLAB_API pathlab_status pathlab_grid_edge_wall(const pathlab_grid* grid, int32_t x, int32_t y,
                                                  pathlab_side side, int* blocked);
/** Puts up (blocked 1) or takes down (blocked 0) the wall on side `side` of cell (x, y) (on a
 *  hex map: on its edge in direction `side`, 0..5). An edit. PATHLAB_INVALID for a cell outside
 *  the map or on a row between floors, or an unknown side. */
PATHLAB_API pathlab_status pathlab_grid_set_edge_wall(pathlab_grid* grid, int32_t x, int32_t y,
                                                      pathlab_side side, int blocked);

/** A link between two cells (stairs, a ladder, a portal, a one-way drop): a move whose cost is
 *  the whole cost of taking it; a unit may take it when it can stand on both ends. */
typedef struct {
  int32_t from_x;   /**< where it starts: a grid cell (pathlab_grid_at() on a layered map) */
  int32_t from_y;   /**< (grid row) */
  int32_t to_x;     /**< where it leads: a grid cell */
  int32_t to_y;     /**< (grid row) */
  double cost;      /**< what taking it costs, finite and > 0; 0 = 1 when adding */
  int32_t oneway;   /**< 1: only from -> to; 0: both ways at the same cost */
  int32_t reserved; /**< 0 */
} pathlab_map_link;

/** Adds a link. An edit. PATHLAB_INVALID, adding nothing, when an end is not a cell of a floor
 *  (outside the map or between floors), or the cost is negative, NaN, infinite or past the
 *  largest float. Ends may be walls: the link is then unusable until they are freed. */
PATHLAB_API pathlab_status pathlab_grid_add_link(pathlab_grid* grid, const pathlab_map_link* link);
/** Removes every link from (from_x, from_y) to (to_x, to_y) (two-way links either way round),
 *  *removed (which may be NULL) getting how many. An edit. PATHLAB_OK also when none was
 *  there. */
PATHLAB_API pathlab_status pathlab_grid_remove_links(pathlab_grid* grid, int32_t from_x,
                                                     int32_t from_y, int32_t to_x, int32_t to_y,
                                                     size_t* removed);
/** Removes every link. An edit. */
PATHLAB_API pathlab_status pathlab_grid_clear_links(pathlab_grid* grid);
/** Links of the grid (0 for NULL). */
PATHLAB_API size_t pathlab_grid_link_count(const pathlab_grid* grid);
/** Link `index` (0 to pathlab_grid_link_count() - 1, in the order they were added or read from
 *  the map) into *out. PATHLAB_INVALID for an index past the end. */
PATHLAB_API pathlab_status pathlab_grid_link(const pathlab_grid* grid, size_t index,
                                             pathlab_map_link* out);

/** The cell the first move of (x, y) leads to down the field: the neighbour its direction code
 *  names (a hex neighbour on a hex layout) or, where the move takes a link, the link's far end
 *  (into *next_x, *next_y). PATHLAB_NO_PATH for a goal, a wall or a cell that reaches no goal;
 *  PATHLAB_INVALID outside the map. */
PATHLAB_API pathlab_status pathlab_field_next(const pathlab_field* field, int32_t x, int32_t y,
                                              int32_t* next_x, int32_t* next_y);

#ifdef __cplusplus
}
#endif

#endif /* PATHLAB_PATHLAB_H */
