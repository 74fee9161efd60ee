/* The installed C ABI from C99: a grid from classes, a search around a wall, a refused cell. */
#include <math.h>
#include <stdio.h>

#include <pathlab/pathlab.h>

int main(void) {
  /* 6x3: a wall across the middle row but at its ends. */
  const char classes[] =
      "......"
      ".@@@@."
      "......";
  pathlab_grid* g = NULL;
  pathlab_finder* f = NULL;
  pathlab_result r;
  int ok;
  if (pathlab_abi_version() != PATHLAB_ABI_VERSION) return 1;
  if (pathlab_grid_from_classes(6, 3, classes, &g) != PATHLAB_OK) return 1;
  if (pathlab_finder_new(g, NULL, &f) != PATHLAB_OK) return 1;
  /* (0,1) to (5,1) around the wall: no corner cutting, so 7 straight steps. */
  ok = pathlab_find(f, 0, 1, 5, 1, &r) == PATHLAB_OK && fabs(r.cost - 7.0) < 1e-9 &&
       r.path_cells == 8 && pathlab_find(f, 2, 1, 5, 1, &r) == PATHLAB_INVALID &&
       pathlab_last_error()[0] != '\0';
  printf("c consumer: %s\n", ok ? "ok" : pathlab_last_error());
  pathlab_finder_free(f);
  pathlab_grid_free(g);
  return ok ? 0 : 1;
}
