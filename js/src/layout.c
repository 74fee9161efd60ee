/* The byte layout of the C ABI's structs on wasm32, as the package's index.js reads and writes
 * them: a change to pathlab.h that moves a field fails the WebAssembly build here, not in a
 * user's browser. The module's exports are the header's functions (js/CMakeLists.txt). */
#include <pathlab/pathlab.h>
#include <stddef.h>

_Static_assert(sizeof(void*) == 4, "index.js reads 32-bit pointers");
_Static_assert(offsetof(pathlab_options, algorithm) == 0, "index.js: options.algorithm at 0");
_Static_assert(offsetof(pathlab_options, diagonal) == 4, "index.js: options.diagonal at 4");
_Static_assert(offsetof(pathlab_options, weight) == 8, "index.js: options.weight at 8");
_Static_assert(offsetof(pathlab_options, radius) == 16, "index.js: options.radius at 16");
_Static_assert(offsetof(pathlab_options, class_costs) == 24, "index.js: options.class_costs at 24");
_Static_assert(offsetof(pathlab_options, node_limit) == 32, "index.js: options.node_limit at 32");
_Static_assert(sizeof(pathlab_options) == 40, "index.js: options take 40 bytes");
_Static_assert(offsetof(pathlab_result, cost) == 0, "index.js: result.cost at 0");
_Static_assert(offsetof(pathlab_result, expanded) == 8, "index.js: result.expanded at 8");
_Static_assert(offsetof(pathlab_result, time_us) == 16, "index.js: result.time_us at 16");
_Static_assert(offsetof(pathlab_result, path) == 24, "index.js: result.path at 24");
_Static_assert(offsetof(pathlab_result, path_cells) == 28, "index.js: result.path_cells at 28");
_Static_assert(sizeof(pathlab_result) == 32, "index.js: results take 32 bytes");
_Static_assert(offsetof(pathlab_partial, reached_x) == 0, "index.js: partial.reached_x at 0");
_Static_assert(offsetof(pathlab_partial, reached_y) == 4, "index.js: partial.reached_y at 4");
_Static_assert(offsetof(pathlab_partial, cost) == 8, "index.js: partial.cost at 8");
_Static_assert(offsetof(pathlab_partial, path) == 16, "index.js: partial.path at 16");
_Static_assert(offsetof(pathlab_partial, path_cells) == 20, "index.js: partial.path_cells at 20");
_Static_assert(sizeof(pathlab_partial) == 24, "index.js: partials take 24 bytes");
_Static_assert(offsetof(pathlab_range, cells) == 0, "index.js: range.cells at 0");
_Static_assert(offsetof(pathlab_range, costs) == 4, "index.js: range.costs at 4");
_Static_assert(offsetof(pathlab_range, count) == 8, "index.js: range.count at 8");
_Static_assert(sizeof(pathlab_range) == 12, "index.js: ranges take 12 bytes");
_Static_assert(offsetof(pathlab_smoothed, cost) == 0, "index.js: smoothed.cost at 0");
_Static_assert(offsetof(pathlab_smoothed, path) == 8, "index.js: smoothed.path at 8");
_Static_assert(offsetof(pathlab_smoothed, path_cells) == 12, "index.js: smoothed.path_cells at 12");
_Static_assert(sizeof(pathlab_smoothed) == 16, "index.js: smoothed paths take 16 bytes");
_Static_assert(offsetof(pathlab_map_link, from_x) == 0, "index.js: link.from_x at 0");
_Static_assert(offsetof(pathlab_map_link, from_y) == 4, "index.js: link.from_y at 4");
_Static_assert(offsetof(pathlab_map_link, to_x) == 8, "index.js: link.to_x at 8");
_Static_assert(offsetof(pathlab_map_link, to_y) == 12, "index.js: link.to_y at 12");
_Static_assert(offsetof(pathlab_map_link, cost) == 16, "index.js: link.cost at 16");
_Static_assert(offsetof(pathlab_map_link, oneway) == 24, "index.js: link.oneway at 24");
_Static_assert(sizeof(pathlab_map_link) == 32, "index.js: links take 32 bytes");
_Static_assert(sizeof(pathlab_side) == 4, "index.js: a side is a 32-bit int");
_Static_assert(PATHLAB_NORTH == 0 && PATHLAB_EAST == 1 && PATHLAB_SOUTH == 2 && PATHLAB_WEST == 3,
               "index.js: the sides n, e, s, w are 0 to 3");
_Static_assert(PATHLAB_IN_PROGRESS == 6, "index.js: PATHLAB_IN_PROGRESS is 6");

/* The module has no entry point (linked with --no-entry): it is used through its exports. */
typedef int pathlab_js_layout_checked;
