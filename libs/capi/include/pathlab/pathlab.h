/* pathlab's C ABI: the library for C, C#, Rust, Zig, Go and anything else that calls C (shared
 * docs/DESIGN.md, "Everywhere a game runs"). C99; the shared library libpathlab_c exports the
 * pathlab_* symbols only. Nothing is thrown across it: every call that can fail returns a
 * pathlab_status, and pathlab_last_error() gives the reason.
 *
 * Ownership: every object made by a *_new, *_load, *_parse, *_from_classes or *_build call is
 * the caller's, freed by its *_free (which accepts NULL). Memory a call returns a pointer to
 * (paths, field arrays, messages) belongs to the object it came from: see each call.
 *
 * Threads: a grid may be read by any number of threads at once (finders, batches, fields on
 * it). A finder belongs to one thread at a time. pathlab_grid_edit needs no query, batch or
 * field build running on that grid; finders made before the edit answer for the edited grid
 * (they repair themselves), fields keep answering for the grid as it was when built.
 * pathlab_last_error() is per thread.
 *
 * Coordinates are (x, y): x the column, y the row, (0, 0) the top-left cell. */
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

/** The ABI version of the library loaded (compare with PATHLAB_ABI_VERSION). */
PATHLAB_API int pathlab_abi_version(void);

/** This thread's message for its last failed call ("" before any): a NUL-terminated string
 *  owned by the library, valid until this thread's next failed call. */
PATHLAB_API const char* pathlab_last_error(void);

/** What a call did. For a search, PATHLAB_OK means a path was found. */
typedef enum {
  PATHLAB_OK = 0,           /**< success; for a search: a path was found */
  PATHLAB_NO_PATH = 1,      /**< a search: the goal cannot be reached */
  PATHLAB_NODE_LIMIT = 2,   /**< a search: the node limit stopped it */
  PATHLAB_INVALID = 3,      /**< a bad argument (NULL, a bad name, size or cell): nothing done */
  PATHLAB_PARSE_ERROR = 4,  /**< a malformed or unreadable map ("FILE:LINE: what") */
  PATHLAB_OUT_OF_MEMORY = 5 /**< memory ran out: nothing done */
} pathlab_status;

/** A grid map (opaque): walls, terrain classes and costs. */
typedef struct pathlab_grid pathlab_grid;
/** A reusable query object over one grid, with its options and workspace (opaque). */
typedef struct pathlab_finder pathlab_finder;
/** A flow field: every cell's distance to the nearest goal and first move (opaque). */
typedef struct pathlab_field pathlab_field;

/** Reads a map file in any format the CLI reads (text, ASCII, Moving AI, PNG/BMP/GIF).
 *  PATHLAB_PARSE_ERROR with "FILE:LINE: what" for a malformed or unreadable file. */
PATHLAB_API pathlab_status pathlab_grid_load(const char* path, pathlab_grid** out);
/** Parses map text of `len` bytes; `format` is a CLI --format name ("movingai", "text",
 *  "ascii", "image") or NULL to detect it. */
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
 *  owned by the field. */
PATHLAB_API const int8_t* pathlab_field_direction(const pathlab_field* field);
/** Frees a field (NULL: nothing). */
PATHLAB_API void pathlab_field_free(pathlab_field* field);

#ifdef __cplusplus
}
#endif

#endif /* PATHLAB_PATHLAB_H */
