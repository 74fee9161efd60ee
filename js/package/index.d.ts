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

/** How cells are shaped and joined: square cells, or hexes with odd or even rows (pointy tops)
 *  or columns (flat tops) shifted by half a hex. */
export type Layout = "square" | "pointy-odd-r" | "pointy-even-r" | "flat-odd-q" | "flat-even-q";

/** A side of a square cell, where a wall on a cell edge stands. */
/** A side of a square cell, or on a hex map the direction 0..5 of a hex's edge. */
export type Side = "n" | "e" | "s" | "w" | "north" | "east" | "south" | "west" | 0 | 1 | 2 | 3 | 4 | 5 | "0" | "1" | "2" | "3" | "4" | "5";

/** A link between two grid cells: stairs, a ladder, a portal, a one-way drop. */
export interface Link {
  from: [number, number];
  to: [number, number];
  /** The whole cost of taking it (> 0). */
  cost: number;
  /** Only from -> to when true; otherwise both ways. */
  oneway: boolean;
}

/** Options of Grid.parse, Grid.fromClasses and Grid.layered. */
export interface GridOptions {
  /** Reads the cells in this layout (the CLI's --layout). */
  layout?: Layout;
}

/** A grid map held in WebAssembly memory: free it with delete(). */
export interface Grid {
  /** Columns. */
  readonly width: number;
  /** Rows: on a layered map every floor's and the rows of wall between them. */
  readonly height: number;
  /** Floors: 1 unless layered. */
  readonly layers: number;
  /** Rows of each floor (height for one floor). */
  readonly layerHeight: number;
  /** How the cells are shaped and joined. */
  readonly layout: Layout;
  /** The CLI's --edit text: "wall:X,Y[:X2,Y2]", "free:…", "class=C:…", "terrain=V:…". Throws on a
   *  bad edit (and changes nothing). Finders made before answer for the edited grid. */
  edit(edit: string): this;
  /** Reads the same cells in another layout. Throws for an unknown name, or a hex layout on a
   *  grid with walls on cell edges. */
  setLayout(layout: Layout): this;
  /** The grid cell of cell (x, y) of floor `layer`: what every search, range and field takes. */
  at(layer: number, x: number, y: number): [number, number];
  /** The floor of a grid cell and its cell there. Throws outside the map or between floors. */
  locate(cell: Cell): { layer: number; x: number; y: number };
  /** Whether a wall stands on that side of the cell (it reads the same from the other cell). */
  edgeWall(cell: Cell, side: Side): boolean;
  /** Puts up (default) or takes down the wall on that side of the cell (square layouts only). */
  setEdgeWall(cell: Cell, side: Side, blocked?: boolean): this;
  /** Adds a link between two grid cells (cost 1, both ways unless told). */
  addLink(from: Cell, to: Cell, options?: { cost?: number; oneway?: boolean }): this;
  /** Removes every link from `from` to `to` (two-way links either way round): how many. */
  removeLinks(from: Cell, to: Cell): number;
  /** Removes every link. */
  clearLinks(): this;
  /** The links, in the order they were added or read. */
  links(): Link[];
  /** Frees the grid and its finders. */
  delete(): void;
}

export interface GridStatic {
  /** Parses map text: "movingai" (hex maps too: "type hex-pointy-odd-r"), "text" or "ascii"
   *  (the CLI's --format names), "tmj", or detects it. Tiled .tmj maps are read with CSV or
   *  uncompressed base64 layers; .tmx maps and compressed layers are not (no XML parser, zlib or
   *  zstd in the WebAssembly build). */
  parse(text: string, format?: "movingai" | "text" | "ascii" | string, options?: GridOptions): Grid;
  /** width * height class characters, row-major, as in a Moving AI .map ('.', '@', 'T', 'S', 'W'). */
  fromClasses(width: number, height: number, classes: string, options?: GridOptions): Grid;
  /** A layered map: one string of width * height class characters per floor (or one string of
   *  them all, floor 0 first), stacked in one grid (Grid.at gives a floor's cells). */
  layered(width: number, height: number, floors: readonly string[] | string, options?: GridOptions): Grid;
}

/** A flow field: every cell's distance to its nearest goal and first move. Free it with delete(). */
export interface Field {
  readonly width: number;
  readonly height: number;
  /** Row-major (index y * width + x); Infinity where no goal is reachable. */
  readonly distance: Float64Array;
  /** Row-major first moves: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE, -1 none; on hex layouts
   *  0..5 the six hex neighbours; 8 (square) or 6 (hex) where the move takes a link. */
  readonly direction: Int8Array;
  /** The cell the first move of `cell` leads to (a neighbour, or a link's far end); null for a
   *  goal, a wall or a cell that reaches no goal. */
  next(cell: Cell): [number, number] | null;
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
