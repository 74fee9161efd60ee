// Types of the pathlab npm package (index.js): the API of docs/DESIGN.md, "Everywhere a game runs".

/** A cell: [x, y], x the column and y the row, (0, 0) the top-left cell. */
export type Cell = readonly [number, number] | Int32Array;

/** How a search, a batch or a field runs. Every field is optional. */
export interface Options {
  /** Any name of `pathlab algorithms` / `algorithms()`; default "astar". */
  algorithm?: string;
  /** "no-corner-cut" (default), "never", "one-corner" or "always". */
  diagonal?: "no-corner-cut" | "never" | "one-corner" | "always" | string;
  /** f = g + weight * h; 0 or absent = the algorithm's default. */
  weight?: number;
  /** The unit's radius in cells, 0..16. */
  radius?: number;
  /** The unit's cost per terrain class ({ T: 2, W: null }: null forbids), or the CLI's "T=2,W=x". */
  classCost?: Record<string, number | null> | string;
  /** Expansions allowed per query; 0 or absent = 10 million. */
  nodeLimit?: number;
}

/** One search's answer. */
export interface Result {
  status: "found" | "no_path" | "node_limit";
  /** The path's cost (straight 1, diagonal √2, times terrain); Infinity without a path. */
  cost: number;
  /** Nodes expanded. */
  expanded: number;
  /** Wall time of the search in microseconds. */
  timeUs: number;
  /** Every cell from start to goal: [x0, y0, x1, y1, …]; empty without a path. */
  path: Int32Array;
}

/** What a search that reached no goal reached (with `partial: true`). */
export interface Partial {
  /** The reached cell closest to the goal. */
  reached: [number, number];
  /** The cost of the path there. */
  cost: number;
  /** Every cell from the start to the reached cell: [x0, y0, …]. */
  path: Int32Array;
}

/** find() and findNearest() with `partial`: a search that reaches no goal also gives `partial`. */
export interface PartialOptions extends Options {
  partial?: boolean;
}

export interface ResultWithPartial extends Result {
  /** Set when status is not "found" and `partial` was asked for. */
  partial?: Partial;
}

/** A movement range: every cell within the budget and its least cost. */
export interface Range {
  status: "found" | "node_limit";
  /** [x0, y0, x1, y1, …], row-major. */
  cells: Int32Array;
  /** costs[i]: the least cost from the start to cell i (0 for the start). */
  costs: Float64Array;
}

/** A path smoothed by line of sight: its waypoints and Euclidean length. */
export interface Smoothed {
  cost: number;
  path: Int32Array;
}

/** A search spread over frames. */
export interface SlicedSearch {
  /** Expands at most maxExpansions nodes: "in_progress" until the search ends, then its result. */
  run(maxExpansions: number): Result | { status: "in_progress"; expanded: number };
  /** True while started and neither finished nor cancelled. */
  readonly active: boolean;
  cancel(): void;
}

/** A grid map held in WebAssembly memory: free it with delete(). */
export interface Grid {
  readonly width: number;
  readonly height: number;
  /** The CLI's --edit text: "wall:X,Y[:X2,Y2]", "free:…", "class=C:…", "terrain=V:…". Throws on a
   *  bad edit (and changes nothing). Finders made before answer for the edited grid. */
  edit(edit: string): this;
  /** Frees the grid and its finders. */
  delete(): void;
}

export interface GridStatic {
  /** Parses map text: "movingai", "text" or "ascii" (the CLI's --format names), or detects it. */
  parse(text: string, format?: "movingai" | "text" | "ascii" | string): Grid;
  /** width * height class characters, row-major, as in a Moving AI .map ('.', '@', 'T', 'S', 'W'). */
  fromClasses(width: number, height: number, classes: string): Grid;
}

/** A flow field: every cell's distance to its nearest goal and first move. Free it with delete(). */
export interface Field {
  readonly width: number;
  readonly height: number;
  /** Row-major (index y * width + x); Infinity where no goal is reachable. */
  readonly distance: Float64Array;
  /** Row-major first moves: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, -1 none. */
  readonly direction: Int8Array;
  delete(): void;
}

export interface Pathlab {
  readonly Grid: GridStatic;
  /** The C ABI version of the module. */
  abiVersion(): number;
  /** The names of `pathlab algorithms`. */
  algorithms(): string[];
  /** One search. Throws an Error (with the CLI's message) for a bad option or a start or goal
   *  outside the map or unusable by the unit. */
  find(grid: Grid, start: Cell, goal: Cell, options?: PartialOptions): ResultWithPartial;
  /** The nearest of several goals: the least-cost path to any (the goal is its last cell). */
  findNearest(grid: Grid, start: Cell, goals: readonly Cell[], options?: PartialOptions): ResultWithPartial;
  /** Every cell the unit reaches from start within the budget (the CLI's reach). */
  reach(grid: Grid, start: Cell, budget: number, options?: Options): Range;
  /** Whether the centres of a and b see each other for the options' unit and diagonal rule. */
  lineOfSight(grid: Grid, a: Cell, b: Cell, options?: Options): boolean;
  /** A path smoothed by line of sight ("refined", the default, or "greedy"). */
  smooth(grid: Grid, path: Int32Array | number[], options?: Options & { method?: "greedy" | "refined" }): Smoothed;
  /** A search run a slice of expansions at a time (frame budgets). */
  slicedSearch(grid: Grid, start: Cell, goal: Cell, options?: Options): SlicedSearch;
  /** Costs of many queries ([x0, y0, x1, y1, …] each), NaN where there is no path. */
  findMany(grid: Grid, starts: Int32Array | number[], goals: Int32Array | number[],
           options?: Options): Float64Array;
  /** The flow field of one or more goals. */
  flowField(grid: Grid, goals: readonly Cell[], options?: Options): Field;
}

export interface LoadOptions {
  /** The .wasm's bytes or URL, when a bundler moves it (default: next to index.js). */
  wasm?: ArrayBuffer | ArrayBufferView | URL | string;
}

/** Instantiates the WebAssembly module. */
export function load(options?: LoadOptions): Promise<Pathlab>;
