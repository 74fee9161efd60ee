// pathlab for JavaScript: the C ABI of libpathlab_c (pathlab/pathlab.h), compiled to WebAssembly
// by Emscripten, behind the API of docs/DESIGN.md ("Everywhere a game runs"). This file only
// moves values in and out of the module's memory: every search, field and parse is the library's.

import createPathlabModule from "./dist/pathlab_wasm.mjs";

const STATUS = ["found", "no_path", "node_limit", "invalid", "parse_error", "out_of_memory", "in_progress"];
const OK = 0, NO_PATH = 1, NODE_LIMIT = 2, IN_PROGRESS = 6;
const OPTIONS_BYTES = 40; // pathlab_options on wasm32 (js/src/layout.c checks every offset)
const RESULT_BYTES = 32;  // pathlab_result
const PARTIAL_BYTES = 24; // pathlab_partial
const RANGE_BYTES = 12;   // pathlab_range
const SMOOTHED_BYTES = 16; // pathlab_smoothed
const LINK_BYTES = 32;     // pathlab_map_link
// pathlab_side: a wall's side of a cell, by its names in the API ("n" or "north", …).
const SIDES = { n: 0, north: 0, e: 1, east: 1, s: 2, south: 2, w: 3, west: 3 };

const isNode = typeof process === "object" && process.versions != null &&
               process.versions.node != null && typeof window === "undefined";

async function wasmBytesFor(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source ?? new URL("./dist/pathlab_wasm.wasm", import.meta.url);
  if (isNode && (typeof url === "string" ? !/^https?:/.test(url) : url.protocol === "file:")) {
    const { readFile } = await import("node:fs/promises");
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`pathlab: cannot fetch ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Instantiates the WebAssembly module and returns the API over it.
 * @param {{wasm?: ArrayBuffer|ArrayBufferView|URL|string}} [options] where the .wasm is (its
 *   bytes, or a URL), for bundlers that move it; by default it is read next to this file.
 */
export async function load(options = {}) {
  const wasmBinary = await wasmBytesFor(options.wasm);
  const M = await createPathlabModule({ wasmBinary, print: () => {}, printErr: () => {} });
  return new Pathlab(M);
}

class Pathlab {
  constructor(M) {
    this._M = M;
    this._scratch = M._malloc(RESULT_BYTES + PARTIAL_BYTES);
    const api = this;
    const registry = typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry(({ free, ptr }) => free(ptr)) : null;
    // Safety nets only: a program should call delete(). A collected object's memory is freed.
    const track = (obj, free, ptr) => {
      if (registry) registry.register(obj, { free, ptr }, obj);
    };
    const untrack = (obj) => { if (registry) registry.unregister(obj); };

    /** An object holding WebAssembly memory, freed by delete() (or, forgotten, by the registry). */
    class Owned {
      constructor(ptr, free, what) {
        this._ptr = ptr;
        this._free = free;
        this._what = what;
        track(this, free, ptr);
      }
      /** Frees its memory. Using it afterwards throws. */
      delete() {
        if (!this._ptr) return;
        this._free(this._ptr);
        this._ptr = 0;
        untrack(this);
      }
      _live() {
        if (!this._ptr) throw new Error(`this ${this._what} was deleted`);
        return this._ptr;
      }
    }

    /** A grid map in WebAssembly memory; delete() frees it and its finders. */
    class Grid extends Owned {
      constructor(ptr) {
        const finders = new Map();
        super(ptr, (p) => {
          for (const f of finders.values()) M._pathlab_finder_free(f);
          finders.clear();
          M._pathlab_grid_free(p);
        }, "grid");
        this._finders = finders;
      }
      /** Parses map text; format: "movingai" (also "type hex-pointy-odd-r" maps), "text",
       *  "ascii" (the CLI's --format), "tmj" or undefined to detect it (Tiled .tmj maps with CSV or
       *  uncompressed base64 layers; not .tmx, not compressed layers); options.layout reads the cells in that layout (the CLI's --layout).
       *  Throws an Error with the parser's "LINE: what" message. */
      static parse(text, format, options) {
        if (typeof text !== "string") throw new TypeError("Grid.parse: the map text must be a string");
        if (format != null && typeof format !== "string") throw new TypeError("Grid.parse: format must be a string");
        return withLayout(api._withStrings([text, format ?? null], ([t, f], lens) =>
          new Grid(api._make((out) => M._pathlab_grid_parse(t, lens[0], f, out)))), options, "Grid.parse");
      }
      /** A grid from width * height class characters, row-major, as in a Moving AI .map;
       *  options.layout as in parse(). */
      static fromClasses(width, height, classes, options) {
        if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
          throw new Error(`Grid.fromClasses: the size must be positive whole numbers, not ${width} x ${height}`);
        }
        if (typeof classes !== "string") throw new TypeError("Grid.fromClasses: the classes must be a string");
        if (classes.length !== width * height) {
          throw new Error(`Grid.fromClasses: ${classes.length} class characters for a ${width} x ${height} grid (${width * height} expected)`);
        }
        return withLayout(api._withStrings([classes], ([c]) =>
          new Grid(api._make((out) => M._pathlab_grid_from_classes(width, height, c, out)))), options, "Grid.fromClasses");
      }
      /** A layered map: `floors` (an array of strings, one per floor, or one string of every
       *  floor's classes, floor 0 first) of width * height class characters each. Its floors are
       *  stacked in one grid: cell (x, y) of floor l is the grid cell at(l, x, y). */
      static layered(width, height, floors, options) {
        if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
          throw new Error(`Grid.layered: the floor size must be positive whole numbers, not ${width} x ${height}`);
        }
        const n = width * height;
        let classes, layers;
        if (typeof floors === "string") {
          classes = floors;
          layers = classes.length / n;
          if (!Number.isInteger(layers) || layers < 1) {
            throw new Error(`Grid.layered: ${classes.length} class characters are not whole floors of ${width} x ${height} (${n} each)`);
          }
        } else if (Array.isArray(floors) && floors.length > 0 && floors.every((f) => typeof f === "string")) {
          const bad = floors.findIndex((f) => f.length !== n);
          if (bad >= 0) {
            throw new Error(`Grid.layered: ${floors[bad].length} class characters for floor ${bad} of ${width} x ${height} (${n} expected)`);
          }
          classes = floors.join("");
          layers = floors.length;
        } else {
          throw new TypeError("Grid.layered: floors must be a non-empty array of class strings (or one string)");
        }
        return withLayout(api._withStrings([classes], ([c]) =>
          new Grid(api._make((out) => M._pathlab_grid_from_layers(width, height, layers, c, out)))), options, "Grid.layered");
      }
      /** Columns of the grid. */
      get width() { return M._pathlab_grid_width(this._live()); }
      /** Rows of the grid: on a layered map every floor's and the rows between them. */
      get height() { return M._pathlab_grid_height(this._live()); }
      /** Floors: 1 unless layered. */
      get layers() { return M._pathlab_grid_layers(this._live()); }
      /** Rows of each floor (height for one floor). */
      get layerHeight() { return M._pathlab_grid_layer_height(this._live()); }
      /** "square", "pointy-odd-r", "pointy-even-r", "flat-odd-q" or "flat-even-q". */
      get layout() { return M.UTF8ToString(M._pathlab_grid_layout(this._live())); }
      /** Reads the same cells in another layout (the CLI's --layout). Throws for an unknown name,
       *  or a hex layout on a grid with walls on cell edges. */
      setLayout(layout) {
        if (typeof layout !== "string") throw new TypeError("setLayout: the layout must be a string such as \"pointy-odd-r\"");
        const g = this._live();
        api._withStrings([layout], ([l]) => api._check(M._pathlab_grid_set_layout(g, l)));
        return this;
      }
      /** The grid cell [x, y] of cell (x, y) of floor `layer`. Throws for a floor or cell the map
       *  does not have. */
      at(layer, x, y) {
        for (const [v, name] of [[layer, "layer"], [x, "x"], [y, "y"]]) {
          if (!Number.isInteger(v)) throw new Error(`at: ${name} must be a whole number, not ${v}`);
        }
        const g = this._live();
        return api._withBlocks([8], (p) => {
          api._check(M._pathlab_grid_at(g, layer, x, y, p, p + 4));
          return [M.HEAP32[p >>> 2], M.HEAP32[(p + 4) >>> 2]];
        });
      }
      /** The floor of grid cell [x, y] and its cell there: {layer, x, y}. Throws outside the map
       *  or on a row between floors. */
      locate(c) {
        const [x, y] = cell(c, "locate");
        const g = this._live();
        return api._withBlocks([12], (p) => {
          api._check(M._pathlab_grid_locate(g, x, y, p, p + 4, p + 8));
          return { layer: M.HEAP32[p >>> 2], x: M.HEAP32[(p + 4) >>> 2], y: M.HEAP32[(p + 8) >>> 2] };
        });
      }
      /** Whether a wall stands on side `side` ("n", "e", "s", "w" or "north", …; on a hex map the
       *  edge's direction 0..5) of cell [x, y]. */
      edgeWall(c, side) {
        const [x, y] = cell(c, "edgeWall");
        const s = sideOf(side, "edgeWall", this.layout !== "square");
        const g = this._live();
        return api._withBlocks([4], (p) => {
          api._check(M._pathlab_grid_edge_wall(g, x, y, s, p));
          return M.HEAP32[p >>> 2] !== 0;
        });
      }
      /** Puts up (blocked true, the default) or takes down the wall on side `side` of cell [x, y]
       *  (on a hex map: on its edge in direction `side`, 0..5). Throws outside the map or between
       *  floors. */
      setEdgeWall(c, side, blocked = true) {
        const [x, y] = cell(c, "setEdgeWall");
        const s = sideOf(side, "setEdgeWall", this.layout !== "square");
        if (typeof blocked !== "boolean") throw new TypeError("setEdgeWall: blocked must be true or false");
        api._check(M._pathlab_grid_set_edge_wall(this._live(), x, y, s, blocked ? 1 : 0));
        return this;
      }
      /** Adds a link from grid cell `from` to `to` (stairs, a portal): {cost: 1, oneway: false}
       *  by default. Throws for an end that is not a cell of a floor or a cost that is not > 0. */
      addLink(from, to, opts = {}) {
        const [fx, fy] = cell(from, "addLink: from");
        const [tx, ty] = cell(to, "addLink: to");
        if (opts == null || typeof opts !== "object") throw new TypeError("addLink: options must be an object");
        for (const k of Object.keys(opts)) {
          if (k !== "cost" && k !== "oneway") throw new Error(`addLink: unknown option '${k}' (known: cost, oneway)`);
        }
        const cost = opts.cost ?? 1;
        if (typeof cost !== "number" || !(cost > 0) || !Number.isFinite(cost)) {
          throw new Error(`addLink: the cost must be a finite number > 0, not ${cost}`);
        }
        if (opts.oneway != null && typeof opts.oneway !== "boolean") throw new TypeError("addLink: oneway must be true or false");
        const g = this._live();
        api._withBlocks([LINK_BYTES], (p) => {
          M.HEAP32.set([fx, fy, tx, ty], p >>> 2);
          M.HEAPF64[(p + 16) >>> 3] = cost;
          M.HEAP32[(p + 24) >>> 2] = opts.oneway ? 1 : 0;
          api._check(M._pathlab_grid_add_link(g, p));
        });
        return this;
      }
      /** Removes every link from `from` to `to` (two-way links either way round); returns how
       *  many. */
      removeLinks(from, to) {
        const [fx, fy] = cell(from, "removeLinks: from");
        const [tx, ty] = cell(to, "removeLinks: to");
        const g = this._live();
        return api._withBlocks([4], (p) => {
          api._check(M._pathlab_grid_remove_links(g, fx, fy, tx, ty, p));
          return M.HEAPU32[p >>> 2];
        });
      }
      /** Removes every link. */
      clearLinks() {
        api._check(M._pathlab_grid_clear_links(this._live()));
        return this;
      }
      /** The links, in the order they were added or read: [{from: [x, y], to: [x, y], cost,
       *  oneway}, …] (grid cells). */
      links() {
        const g = this._live();
        const n = M._pathlab_grid_link_count(g);
        return api._withBlocks([LINK_BYTES], (p) => {
          const out = [];
          for (let i = 0; i < n; ++i) {
            api._check(M._pathlab_grid_link(g, i, p));
            const q = p >>> 2;
            out.push({ from: [M.HEAP32[q], M.HEAP32[q + 1]], to: [M.HEAP32[q + 2], M.HEAP32[q + 3]],
                       cost: M.HEAPF64[(p + 16) >>> 3], oneway: M.HEAP32[q + 6] !== 0 });
          }
          return out;
        });
      }
      /** Changes the grid as the CLI's --edit ("wall:X,Y[:X2,Y2]", "free:…", "class=C:…",
       *  "terrain=V:…"). A bad edit throws and changes nothing. */
      edit(text) {
        if (typeof text !== "string") throw new TypeError("edit: the edit must be a string such as \"wall:3,4\"");
        const g = this._live();
        api._withStrings([text], ([t]) => api._check(M._pathlab_grid_edit(g, t)));
        return this;
      }
      // One finder per options, kept with the grid: repeated queries reuse its workspace and
      // whatever its algorithm prepared (jps+, subgoal graphs); edits repair them.
      _finder(opts) {
        const key = api._optionsKey(opts);
        let f = this._finders.get(key);
        if (f === undefined) {
          const g = this._live();
          f = api._withOptions(opts, (o) => api._make((out) => M._pathlab_finder_new(g, o, out)));
          this._finders.set(key, f);
        }
        return f;
      }
    }

    /** A flow field: every cell's distance to the nearest goal and first move. */
    class Field extends Owned {
      constructor(ptr, width, height) {
        super(ptr, (p) => M._pathlab_field_free(p), "field");
        this.width = width;
        this.height = height;
        this._distance = null;
        this._direction = null;
      }
      /** Float64Array, row-major (y * width + x), Infinity where no goal is reachable. */
      get distance() {
        if (!this._distance) {
          const p = M._pathlab_field_distance(this._live()) >>> 3;
          this._distance = M.HEAPF64.slice(p, p + this.width * this.height);
        }
        return this._distance;
      }
      /** Int8Array of first moves: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, -1 none; on hex
       *  layouts 0..5 the six hex neighbours; 8 (square) or 6 (hex) where the move takes a link. */
      get direction() {
        if (!this._direction) {
          const p = M._pathlab_field_direction(this._live());
          this._direction = M.HEAP8.slice(p, p + this.width * this.height);
        }
        return this._direction;
      }
      /** The cell [x, y] the first move of cell [x, y] leads to (a hex neighbour, or a link's far
       *  end), or null for a goal, a wall or a cell that reaches no goal. Throws outside the map. */
      next(c) {
        const [x, y] = cell(c, "next");
        const f = this._live();
        return api._withBlocks([8], (p) => {
          const status = M._pathlab_field_next(f, x, y, p, p + 4);
          if (status === NO_PATH) return null;
          api._check(status);
          return [M.HEAP32[p >>> 2], M.HEAP32[(p + 4) >>> 2]];
        });
      }
    }

    // Gives a new grid the options' layout (deleting it when that throws).
    function withLayout(grid, options, what) {
      if (options == null) return grid;
      try {
        if (typeof options !== "object") throw new TypeError(`${what}: options must be an object such as { layout: "pointy-odd-r" }`);
        for (const k of Object.keys(options)) {
          if (k !== "layout") throw new Error(`${what}: unknown option '${k}' (known: layout)`);
        }
        if (options.layout != null) grid.setLayout(options.layout);
        return grid;
      } catch (e) {
        grid.delete();
        throw e;
      }
    }

    this.Grid = Grid;
    this.Field = Field;
  }

  /** The ABI version of the module (PATHLAB_ABI_VERSION). */
  abiVersion() { return this._M._pathlab_abi_version(); }

  /** The names of `pathlab algorithms`. */
  algorithms() {
    return this._M.UTF8ToString(this._M._pathlab_algorithms()).split("\n").filter(Boolean);
  }

  /**
   * One search from start to goal ([x, y] each). With `partial: true` in the options, a search
   * that reaches no goal also gives `partial`: the reached cell closest to the goal and the path
   * there (the CLI's solve --partial).
   * @returns {{status: "found"|"no_path"|"node_limit", cost: number, expanded: number,
   *            timeUs: number, path: Int32Array, partial?: object}}
   */
  find(grid, start, goal, opts = {}) {
    const M = this._M;
    const [sx, sy] = cell(start, "start");
    const [gx, gy] = cell(goal, "goal");
    const { partial, rest } = splitOption(opts, "partial");
    const finder = this._gridOf(grid)._finder(rest);
    // The hot call: the result and partial live in a block kept for the module's lifetime (the
    // module runs one call at a time; nothing calls back into JavaScript during a search).
    const r = this._scratch, p = r + RESULT_BYTES;
    const status = partial ? M._pathlab_find_partial(finder, sx, sy, gx, gy, r, p)
                           : M._pathlab_find(finder, sx, sy, gx, gy, r);
    return this._result(status, r, partial ? p : 0);
  }

  /** The nearest of several goals ([[x, y], …]; the CLI's solve --to X,Y --to X,Y): the
   *  least-cost path to any of them (the goal reached is the path's last cell). */
  findNearest(grid, start, goals, opts = {}) {
    const M = this._M;
    const [sx, sy] = cell(start, "start");
    const flat = cells(goals, "goals");
    const { partial, rest } = splitOption(opts, "partial");
    const finder = this._gridOf(grid)._finder(rest);
    return this._withInts(flat, (g) => this._withBlocks([RESULT_BYTES, PARTIAL_BYTES], (r, p) =>
      this._result(M._pathlab_find_nearest(finder, sx, sy, flat.length / 2, g, r, partial ? p : 0), r, partial ? p : 0)));
  }

  /** The movement range of the options' unit from start within `budget` (the CLI's reach):
   *  {status: "found"|"node_limit", cells: Int32Array [x0, y0, …] row-major, costs: Float64Array}. */
  reach(grid, start, budget, opts = {}) {
    const M = this._M;
    const [sx, sy] = cell(start, "start");
    if (typeof budget !== "number") throw new TypeError("reach: the budget must be a number");
    const finder = this._gridOf(grid)._finder(opts);
    return this._withBlocks([RANGE_BYTES], (r) => {
      const status = M._pathlab_reach(finder, sx, sy, budget, r);
      if (status !== OK && status !== NODE_LIMIT) this._fail(status);
      const n = M.HEAPU32[(r + 8) >>> 2];
      const c = M.HEAPU32[r >>> 2] >>> 2, d = M.HEAPU32[(r + 4) >>> 2] >>> 3;
      return { status: STATUS[status], cells: M.HEAP32.slice(c, c + 2 * n), costs: M.HEAPF64.slice(d, d + n) };
    });
  }

  /** Whether the centres of cells a and b see each other under the options' diagonal rule and
   *  unit (walls, forbidden classes and cells too close for its radius block the view). */
  lineOfSight(grid, a, b, opts = {}) {
    const M = this._M;
    const [ax, ay] = cell(a, "a");
    const [bx, by] = cell(b, "b");
    const finder = this._gridOf(grid)._finder(opts);
    return this._withBlocks([4], (v) => {
      this._check(M._pathlab_line_of_sight(finder, ax, ay, bx, by, v));
      return M.HEAP32[v >>> 2] !== 0;
    });
  }

  /** A path ([x0, y0, …], e.g. a result's path) smoothed by line of sight under the options'
   *  diagonal rule and unit (the CLI's solve --smooth); `method` "refined" (default) or
   *  "greedy": {cost, path} with the waypoints. */
  smooth(grid, path, opts = {}) {
    const M = this._M;
    const { method, rest } = splitOption(opts, "method");
    if (method != null && typeof method !== "string") throw new TypeError("smooth: method must be \"greedy\" or \"refined\"");
    if (!isIntArray(path) || path.length % 2 !== 0) throw new TypeError("smooth: the path must be an Int32Array (or array) of x, y pairs");
    const finder = this._gridOf(grid)._finder(rest);
    return this._withInts(path, (p) => this._withStrings([method ?? null], ([m]) =>
      this._withBlocks([SMOOTHED_BYTES], (out) => {
        this._check(M._pathlab_smooth(finder, path.length / 2, p, m, out));
        const n = M.HEAPU32[(out + 12) >>> 2], q = M.HEAPU32[(out + 8) >>> 2] >>> 2;
        return { cost: M.HEAPF64[out >>> 3], path: M.HEAP32.slice(q, q + 2 * n) };
      })));
  }

  /**
   * A search spread over frames (sliced): `run(n)` expands at most n nodes and answers
   * {status: "in_progress", expanded} until the search ends, then the result find() gives.
   * dijkstra, astar, wastar, greedy, jps and jps+ stop within each slice; the others finish in
   * their first. Another search with the same grid and options cancels it.
   */
  slicedSearch(grid, start, goal, opts = {}) {
    const M = this._M;
    const [sx, sy] = cell(start, "start");
    const [gx, gy] = cell(goal, "goal");
    const g = this._gridOf(grid);
    const finder = g._finder(opts);
    this._check(M._pathlab_slice_start(finder, sx, sy, gx, gy));
    const api = this;
    return {
      run(maxExpansions) {
        if (!Number.isInteger(maxExpansions) || maxExpansions < 1) {
          throw new Error(`run: ${maxExpansions} is not a whole number of expansions >= 1`);
        }
        if (g._finders.get(api._optionsKey(opts)) !== finder) throw new Error("this sliced search's grid was deleted");
        return api._withBlocks([RESULT_BYTES], (r) => {
          // A uint64_t argument reaches the module as two 32-bit halves, low first.
          const status = M._pathlab_slice_run(finder, maxExpansions % 4294967296, Math.floor(maxExpansions / 4294967296), r);
          if (status === IN_PROGRESS) return { status: "in_progress", expanded: readU64(M, r + 8) };
          return api._result(status, r, 0);
        });
      },
      get active() {
        return g._finders.get(api._optionsKey(opts)) === finder && M._pathlab_slice_active(finder) === 1;
      },
      cancel() {
        if (g._finders.get(api._optionsKey(opts)) === finder) M._pathlab_slice_cancel(finder);
      },
    };
  }

  /** Many queries on one grid: starts and goals are Int32Array (or arrays) [x0, y0, x1, y1, …]
   *  of the same length; returns a Float64Array of costs, NaN where there is no path. */
  findMany(grid, starts, goals, opts = {}) {
    const M = this._M;
    const g = this._gridOf(grid)._live();
    if (!isIntArray(starts) || !isIntArray(goals)) {
      throw new TypeError("findMany: starts and goals must be Int32Arrays (or arrays) of x, y pairs");
    }
    if (starts.length !== goals.length || starts.length % 2 !== 0) {
      throw new Error(`findMany: ${starts.length} start and ${goals.length} goal numbers (an even, equal count expected)`);
    }
    const n = starts.length / 2;
    const s = M._malloc(Math.max(4, starts.length * 4));
    const t = M._malloc(Math.max(4, goals.length * 4));
    const c = M._malloc(Math.max(8, n * 8));
    try {
      M.HEAP32.set(starts, s >>> 2);
      M.HEAP32.set(goals, t >>> 2);
      const status = this._withOptions(opts, (o) => M._pathlab_find_many(g, o, n, s, t, c, 1));
      this._check(status);
      return M.HEAPF64.slice(c >>> 3, (c >>> 3) + n);
    } finally {
      M._free(s);
      M._free(t);
      M._free(c);
    }
  }

  /** The flow field of goals ([[x, y], …]) for the options' unit and diagonal rule. */
  flowField(grid, goals, opts = {}) {
    const M = this._M;
    const gr = this._gridOf(grid);
    const g = gr._live();
    const flat = cells(goals, "flowField: goals");
    return this._withInts(flat, (p) => {
      const ptr = this._withOptions(opts, (o) => this._make((out) => M._pathlab_field_build(g, o, flat.length / 2, p, out)));
      return new this.Field(ptr, gr.width, gr.height);
    });
  }

  // --- moving values in and out --------------------------------------------------------------

  // A search's answer from a pathlab_result (and a pathlab_partial, when p is not 0).
  _result(status, r, p) {
    const M = this._M;
    if (status !== OK && status !== NO_PATH && status !== NODE_LIMIT) this._fail(status);
    const cells = M.HEAPU32[(r + 28) >>> 2];
    const path = M.HEAPU32[(r + 24) >>> 2] >>> 2;
    const out = {
      status: STATUS[status],
      cost: status === OK ? M.HEAPF64[r >>> 3] : Infinity,
      expanded: readU64(M, r + 8),
      timeUs: M.HEAPF64[(r + 16) >>> 3],
      path: status === OK ? M.HEAP32.slice(path, path + 2 * cells) : new Int32Array(0),
    };
    if (p && status !== OK) {
      const n = M.HEAPU32[(p + 20) >>> 2], q = M.HEAPU32[(p + 16) >>> 2] >>> 2;
      out.partial = {
        reached: [M.HEAP32[p >>> 2], M.HEAP32[(p + 4) >>> 2]],
        cost: M.HEAPF64[(p + 8) >>> 3],
        path: M.HEAP32.slice(q, q + 2 * n),
      };
    }
    return out;
  }

  // Calls fn with zeroed blocks of the module's memory of the given sizes (8-byte aligned).
  _withBlocks(sizes, fn) {
    const M = this._M;
    const ptrs = sizes.map((n) => {
      const p = M._malloc(n);
      M.HEAPU8.fill(0, p, p + n);
      return p;
    });
    try {
      return fn(...ptrs);
    } finally {
      for (const p of ptrs) M._free(p);
    }
  }

  // Calls fn with a copy of an integer array in the module's memory.
  _withInts(values, fn) {
    const M = this._M;
    const p = M._malloc(Math.max(4, values.length * 4));
    try {
      M.HEAP32.set(values, p >>> 2);
      return fn(p);
    } finally {
      M._free(p);
    }
  }

  _gridOf(grid) {
    if (!(grid instanceof this.Grid)) throw new TypeError("expected a Grid of this module (pl.Grid.parse or pl.Grid.fromClasses)");
    return grid;
  }

  _fail(status) {
    const message = this._M.UTF8ToString(this._M._pathlab_last_error());
    const e = new Error(message || `pathlab: ${STATUS[status] ?? status}`);
    e.status = STATUS[status] ?? status;
    throw e;
  }

  _check(status) {
    if (status !== OK) this._fail(status);
  }

  // Calls make(out) with a pointer for the made object's handle; returns the handle or throws.
  _make(make) {
    const M = this._M;
    const out = M._malloc(4);
    try {
      M.HEAPU32[out >>> 2] = 0;
      this._check(make(out));
      return M.HEAPU32[out >>> 2];
    } finally {
      M._free(out);
    }
  }

  // Copies strings (null stays NULL) into the module for the call; their byte lengths too.
  _withStrings(strings, call) {
    const M = this._M;
    const ptrs = [], lens = [];
    try {
      for (const s of strings) {
        if (s == null) { ptrs.push(0); lens.push(0); continue; }
        const len = M.lengthBytesUTF8(s);
        const p = M._malloc(len + 1);
        M.stringToUTF8(s, p, len + 1);
        ptrs.push(p);
        lens.push(len);
      }
      return call(ptrs, lens);
    } finally {
      for (const p of ptrs) if (p) M._free(p);
    }
  }

  _optionsKey(opts) {
    const o = checkOptions(opts);
    return `${o.algorithm}\u0000${o.diagonal}\u0000${o.weight}\u0000${o.radius}\u0000${o.classCosts}\u0000${o.nodeLimit}`;
  }

  // Builds a pathlab_options for the call.
  _withOptions(opts, call) {
    const M = this._M;
    const o = checkOptions(opts);
    return this._withStrings([o.algorithm, o.diagonal, o.classCosts], ([a, d, c]) => {
      const p = M._malloc(OPTIONS_BYTES);
      try {
        M.HEAPU8.fill(0, p, p + OPTIONS_BYTES);
        M.HEAPU32[p >>> 2] = a;
        M.HEAPU32[(p + 4) >>> 2] = d;
        M.HEAPF64[(p + 8) >>> 3] = o.weight;
        M.HEAPF64[(p + 16) >>> 3] = o.radius;
        M.HEAPU32[(p + 24) >>> 2] = c;
        M.HEAPU32[(p + 32) >>> 2] = o.nodeLimit % 4294967296;
        M.HEAPU32[(p + 36) >>> 2] = Math.floor(o.nodeLimit / 4294967296);
        return call(p);
      } finally {
        M._free(p);
      }
    });
  }
}

function readU64(M, p) {
  return M.HEAPU32[p >>> 2] + M.HEAPU32[(p + 4) >>> 2] * 4294967296;
}

function isIntArray(a) {
  return a instanceof Int32Array || (Array.isArray(a) && a.every(Number.isInteger));
}

// Takes one option out of the options object (a call's own, not a finder's).
function splitOption(opts, name) {
  if (opts == null || typeof opts !== "object" || !(name in opts)) return { [name]: undefined, rest: opts ?? {} };
  const { [name]: value, ...rest } = opts;
  return { [name]: value, rest };
}

function sideOf(side, what, hex) {
  if (hex) {
    // A hex edge: its direction 0..5, as a number or a string.
    const d = typeof side === "string" && /^[0-5]$/.test(side) ? Number(side) : side;
    if (Number.isInteger(d) && d >= 0 && d <= 5) return d;
    throw new Error(`${what}: unknown side ${JSON.stringify(side)} (a hex map names an edge by its direction 0..5)`);
  }
  const s = typeof side === "string" && Object.hasOwn(SIDES, side) ? SIDES[side] : undefined;
  if (s === undefined) throw new Error(`${what}: unknown side ${JSON.stringify(side)} (n, e, s, w or north, east, south, west)`);
  return s;
}

function cells(list, what) {
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${what}: expected a non-empty array of [x, y] cells`);
  const flat = new Int32Array(list.length * 2);
  list.forEach((c, i) => { const [x, y] = cell(c, `${what} ${i}`); flat[2 * i] = x; flat[2 * i + 1] = y; });
  return flat;
}

function cell(c, what) {
  if (!(Array.isArray(c) || c instanceof Int32Array) || c.length !== 2 ||
      !Number.isInteger(c[0]) || !Number.isInteger(c[1])) {
    throw new Error(`${what}: expected [x, y] with whole numbers, not ${JSON.stringify(Array.from(c ?? [c]))}`);
  }
  return [c[0], c[1]];
}

const KNOWN = new Set(["algorithm", "diagonal", "weight", "radius", "classCost", "nodeLimit"]);

// The options of find, findMany and flowField, checked and turned into the C ABI's values.
function checkOptions(opts) {
  if (opts == null) opts = {};
  if (typeof opts !== "object") throw new TypeError("options must be an object");
  for (const k of Object.keys(opts)) {
    if (!KNOWN.has(k)) throw new Error(`unknown option '${k}' (known: ${[...KNOWN].join(", ")})`);
  }
  const str = (v, name) => {
    if (v == null) return null;
    if (typeof v !== "string") throw new TypeError(`${name} must be a string`);
    return v;
  };
  const num = (v, name) => {
    if (v == null) return 0;
    if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${name}: '${v}' is not a finite number`);
    return v;
  };
  let classCosts = null;
  if (opts.classCost != null) {
    if (typeof opts.classCost === "string") {
      classCosts = opts.classCost;
    } else if (typeof opts.classCost === "object") {
      classCosts = Object.entries(opts.classCost)
        .map(([k, v]) => `${k}=${v === null || v === Infinity ? "x" : v}`).join(",");
    } else {
      throw new TypeError("classCost must be an object such as { T: 2, W: null } or a string \"T=2,W=x\"");
    }
  }
  const nodeLimit = num(opts.nodeLimit, "nodeLimit");
  if (!Number.isInteger(nodeLimit) || nodeLimit < 0) {
    throw new Error(`nodeLimit: '${opts.nodeLimit}' is not a whole number >= 0`);
  }
  return {
    algorithm: str(opts.algorithm, "algorithm"),
    diagonal: str(opts.diagonal, "diagonal"),
    weight: num(opts.weight, "weight"),
    radius: num(opts.radius, "radius"),
    classCosts,
    nodeLimit,
  };
}
