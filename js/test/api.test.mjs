// The npm package answers as the native command does: every search beside `pathlab solve --json`,
// fields beside `pathlab flow --json`, batches beside `pathlab bench` and the Moving AI optimum.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";

import {
  algorithmsOfCli, cli, evenSample, hasMovingAI, mapPath, matches, movingai, pairs, pl, readMap,
  readScen, skipShared,
} from "./common.mjs";

const bundled = [
  { file: mapPath("seed_maze.txt"), start: [7, 2], goal: [9, 9] },
  { file: mapPath("hybrid_30x20.txt"), start: [1, 1], goal: [27, 17] },
];

function grid(file) {
  return pl.Grid.parse(readMap(file), file.endsWith(".map") ? "movingai" : undefined);
}

// The search of the package and the command's, for one query and options.
function sameAsCli(file, start, goal, opts, cliArgs) {
  const g = grid(file);
  try {
    const mine = pl.find(g, start, goal, opts);
    const theirs = cli(["solve", file, "--from", start.join(","), "--to", goal.join(","), ...cliArgs]);
    assert.ok(theirs.json, `pathlab solve printed no JSON: ${theirs.stderr}`);
    const what = `${path.basename(file)} ${start} -> ${goal} ${JSON.stringify(opts)}`;
    assert.equal(mine.status, theirs.json.status, what);
    if (mine.status === "found") {
      assert.ok(Math.abs(mine.cost - theirs.json.cost) < 1e-9, `${what}: cost ${mine.cost} vs ${theirs.json.cost}`);
      assert.deepEqual(pairs(mine.path), theirs.json.path, what);
    } else {
      assert.equal(mine.path.length, 0);
      assert.equal(mine.cost, Infinity);
    }
    assert.equal(mine.expanded, theirs.json.expanded, `${what}: nodes expanded`);
    assert.ok(mine.timeUs >= 0);
    return mine;
  } finally {
    g.delete();
  }
}

describe("the module", () => {
  it("has the C ABI's version and the command's algorithms", () => {
    assert.equal(pl.abiVersion(), 1);
    assert.deepEqual(pl.algorithms(), algorithmsOfCli().map((a) => a.name));
  });
  it("reads a map's size", () => {
    const g = pl.Grid.fromClasses(3, 2, "..@.T.");
    assert.equal(g.width, 3);
    assert.equal(g.height, 2);
    g.delete();
  });
});

describe("find answers as `pathlab solve --json`", () => {
  for (const { file, start, goal } of bundled) {
    for (const a of algorithmsOfCli().map((x) => x.name)) {
      it(`${a} on ${path.basename(file)}`, () => {
        sameAsCli(file, start, goal, { algorithm: a }, ["--algo", a]);
      });
    }
  }
  for (const diagonal of ["never", "one-corner", "always", "no-corner-cut"]) {
    it(`astar with --diagonal ${diagonal}`, () => {
      sameAsCli(bundled[1].file, [1, 1], [27, 17], { diagonal }, ["--diagonal", diagonal]);
    });
  }
  it("a weight (astar at w = 3)", () => {
    sameAsCli(bundled[1].file, [1, 1], [27, 17], { weight: 3 }, ["--weight", "3"]);
  });
  it("a unit's radius and class costs (an object, null forbids)", () => {
    const r = sameAsCli(mapPath("hybrid_120x80.txt"), [2, 2], [110, 70],
                        { radius: 1.5, classCost: { T: 2, W: null } }, ["--radius", "1.5", "--class-cost", "T=2,W=x"]);
    assert.equal(r.status, "found");
  });
  it("class costs as the command's text", () => {
    sameAsCli(mapPath("hybrid_120x80.txt"), [2, 2], [110, 70], { classCost: "T=3.5,W=x" }, ["--class-cost", "T=3.5,W=x"]);
  });
  it("a node limit stops the search as the command's", () => {
    const r = sameAsCli(bundled[1].file, [1, 1], [27, 17], { nodeLimit: 5 }, ["--node-limit", "5"]);
    assert.equal(r.status, "node_limit");
  });
  it("no path", () => {
    const g = pl.Grid.fromClasses(5, 3, "..@....@....@..");
    const r = pl.find(g, [0, 0], [4, 2]);
    assert.equal(r.status, "no_path");
    assert.equal(r.cost, Infinity);
    assert.equal(r.path.length, 0);
    g.delete();
  });
  it("an edit: a grid's finders answer for the edited map, as the command with --edit", () => {
    const file = bundled[1].file;
    const g = grid(file);
    const before = pl.find(g, [1, 1], [27, 17], { algorithm: "jps+" });
    g.edit("wall:5,5:20,5").edit("class=W:10,10:12,12");
    const after = pl.find(g, [1, 1], [27, 17], { algorithm: "jps+" });
    const theirs = cli(["solve", file, "--from", "1,1", "--to", "27,17", "--algo", "jps+",
                        "--edit", "wall:5,5:20,5", "--edit", "class=W:10,10:12,12"]).json;
    assert.ok(Math.abs(after.cost - theirs.cost) < 1e-9);
    assert.deepEqual(pairs(after.path), theirs.path);
    assert.ok(after.cost >= before.cost);
    g.delete();
  });
  it("the Moving AI maps of ../shared, every optimal algorithm", { skip: skipShared }, () => {
    const den = path.join(movingai, "den520d.map");
    for (const a of ["astar", "jps", "jps+", "subgoal", "subgoal-ch", "dijkstra", "biastar"]) {
      sameAsCli(den, [101, 147], [162, 23], { algorithm: a }, ["--algo", a]);
      sameAsCli(den, [15, 214], [239, 11], { algorithm: a }, ["--algo", a]);
    }
  });
});

describe("flowField answers as `pathlab flow --json`", () => {
  const cases = [
    { file: mapPath("hybrid_30x20.txt"), goals: [[27, 17]], opts: {}, args: [] },
    { file: mapPath("hybrid_120x80.txt"), goals: [[110, 70], [5, 60]], opts: { radius: 1, classCost: { T: 2, W: null } },
      args: ["--radius", "1", "--class-cost", "T=2,W=x"] },
    { file: mapPath("seed_maze.txt"), goals: [[9, 9]], opts: { diagonal: "never" }, args: ["--diagonal", "never"] },
  ];
  for (const { file, goals, opts, args } of cases) {
    it(`${path.basename(file)} to ${JSON.stringify(goals)} ${JSON.stringify(opts)}`, () => {
      const g = grid(file);
      const f = pl.flowField(g, goals, opts);
      const theirs = cli(["flow", file, ...goals.flatMap((c) => ["--to", c.join(",")]), ...args]).json;
      assert.ok(theirs, "pathlab flow printed no JSON");
      assert.equal(f.width, theirs.width);
      assert.equal(f.height, theirs.height);
      assert.equal(f.distance.length, theirs.distance.length);
      for (let i = 0; i < f.distance.length; ++i) {
        const t = theirs.distance[i] === null ? Infinity : theirs.distance[i];
        assert.ok(f.distance[i] === t || Math.abs(f.distance[i] - t) < 1e-9, `distance at ${i}: ${f.distance[i]} vs ${t}`);
      }
      assert.deepEqual(Array.from(f.direction), theirs.direction);
      f.delete();
      g.delete();
    });
  }
});

describe("flowField on a Moving AI map answers as `pathlab flow --json`", { skip: skipShared }, () => {
  it("den520d, two goals, a unit of radius 1", () => {
    const file = path.join(movingai, "den520d.map");
    const g = pl.Grid.parse(readMap(file), "movingai");
    const f = pl.flowField(g, [[162, 23], [101, 147]], { radius: 1 });
    const theirs = cli(["flow", file, "--to", "162,23", "--to", "101,147", "--radius", "1"]).json;
    const far = theirs.distance.map((d) => (d === null ? Infinity : d));
    assert.equal(f.distance.length, far.length);
    for (let i = 0; i < far.length; ++i) {
      assert.ok(f.distance[i] === far[i] || Math.abs(f.distance[i] - far[i]) < 1e-9, `cell ${i}`);
    }
    assert.deepEqual(Array.from(f.direction), theirs.direction);
    f.delete();
    g.delete();
  });
});

describe("findMany answers the Moving AI scenarios as `pathlab bench`", { skip: skipShared }, () => {
  for (const map of ["den520d", "brc202d", "maze512-1-0"]) {
    it(map, () => {
      const file = path.join(movingai, `${map}.map`);
      const queries = evenSample(readScen(`${file}.scen`), 300);
      const g = pl.Grid.parse(readMap(file), "movingai");
      const starts = Int32Array.from(queries.flatMap((q) => [q.sx, q.sy]));
      const goals = Int32Array.from(queries.flatMap((q) => [q.gx, q.gy]));
      for (const a of ["astar", "jps", "jps+"]) {
        const costs = pl.findMany(g, starts, goals, { algorithm: a });
        assert.equal(costs.length, queries.length);
        const wrong = queries.filter((q, i) => !matches(costs[i], q.opt));
        assert.equal(wrong.length, 0, `${a}: ${wrong.length} costs off the optimum, e.g. ${wrong[0]?.line}`);
      }
      g.delete();
    });
  }
  it("the counts of `pathlab bench --max-queries` on the same file", () => {
    const file = path.join(movingai, "den520d.map");
    const bench = cli(["bench", `${file}.scen`, "--algo", "jps+", "--max-queries", "200"]).json.results[0];
    const queries = readScen(`${file}.scen`);
    const g = pl.Grid.parse(readMap(file), "movingai");
    const costs = pl.findMany(g, Int32Array.from(queries.flatMap((q) => [q.sx, q.sy])),
                              Int32Array.from(queries.flatMap((q) => [q.gx, q.gy])), { algorithm: "jps+" });
    const solved = Array.from(costs).filter((c) => !Number.isNaN(c)).length;
    assert.equal(bench.suboptimal, 0);
    assert.equal(bench.solved, bench.queries);  // every scenario of the file has a path…
    assert.equal(solved, queries.length);       // …and the package finds every one of the file
    g.delete();
  });
});

describe("bad input throws an Error with the command's message, never a crash", () => {
  const g = pl.Grid.fromClasses(4, 3, "....@@.T....");
  const throwsWith = (fn, re) => {
    let caught = null;
    try { fn(); } catch (e) { caught = e; }
    assert.ok(caught, "no error thrown");
    assert.ok(caught instanceof Error, "not an Error");
    assert.ok(!(caught instanceof WebAssembly.RuntimeError), "a WebAssembly.RuntimeError");
    assert.match(caught.message, re);
  };
  it("an unknown algorithm, diagonal rule, option", () => {
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { algorithm: "fastest" }), /unknown algorithm 'fastest'/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { diagonal: "sideways" }), /sideways/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { speed: 3 }), /unknown option 'speed'/);
  });
  it("a bad weight, radius, class cost or node limit", () => {
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { weight: -1 }), /-1/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { radius: 99 }), /99/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { classCost: { T: 0.5 } }), /0\.5/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { classCost: "T=abc" }), /abc/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { nodeLimit: 1.5 }), /1\.5/);
    throwsWith(() => pl.find(g, [0, 0], [3, 2], { weight: NaN }), /NaN/);
  });
  it("a start or goal outside the map, on a wall, or not a cell", () => {
    throwsWith(() => pl.find(g, [9, 0], [3, 2]), /9,0/);
    throwsWith(() => pl.find(g, [0, 0], [0, -1]), /0,-1/);
    throwsWith(() => pl.find(g, [0, 1], [3, 2]), /wall/);
    throwsWith(() => pl.find(g, [0.5, 0], [3, 2]), /start/);
    throwsWith(() => pl.find(g, "0,0", [3, 2]), /start/);
  });
  it("malformed maps name the line", () => {
    throwsWith(() => pl.Grid.parse("type octile\nheight 2\nwidth 2\nmap\n..\n.", "movingai"), /:6: .*row/);
    throwsWith(() => pl.Grid.parse("type octile\nheight x\n", "movingai"), /height/);
    throwsWith(() => pl.Grid.parse("", "movingai"), /./);
    throwsWith(() => pl.Grid.parse("..\n..", "klingon"), /klingon/);
    throwsWith(() => pl.Grid.parse(42), /string/);
  });
  it("fromClasses with the wrong length or size", () => {
    throwsWith(() => pl.Grid.fromClasses(4, 3, "...."), /4 class characters for a 4 x 3 grid/);
    throwsWith(() => pl.Grid.fromClasses(0, 3, ""), /size/);
    throwsWith(() => pl.Grid.fromClasses(2, 1, "\x01!"), /cell 0,0 is not a printable character/);
  });
  it("a bad edit changes nothing", () => {
    const before = pl.find(g, [0, 0], [3, 2]);
    throwsWith(() => g.edit("wall:1,1:99,99"), /99/);
    throwsWith(() => g.edit("paint:1,1"), /paint/);
    const after = pl.find(g, [0, 0], [3, 2]);
    assert.equal(after.cost, before.cost);
  });
  it("findMany with a cell outside the map computes nothing", () => {
    throwsWith(() => pl.findMany(g, [0, 0, 9, 9], [3, 2, 3, 2]), /9,9/);
    throwsWith(() => pl.findMany(g, [0, 0, 1], [3, 2, 3]), /even/);
    throwsWith(() => pl.findMany(g, [0, 0], [3, 2, 1, 1]), /equal/);
  });
  it("flowField without goals or with a goal outside", () => {
    throwsWith(() => pl.flowField(g, []), /goals/);
    throwsWith(() => pl.flowField(g, [[7, 7]]), /7,7/);
  });
  it("the module keeps working after every error", () => {
    const r = pl.find(g, [0, 0], [3, 2], { algorithm: "jps" });
    assert.equal(r.status, "found");
  });
});

describe("the query shapes answer as the command's", () => {
  const file = mapPath("seed_maze.txt");
  const solveCli = (args) => cli(["solve", file, "--from", "7,2", ...args]).json;
  it("partial: the reached cell closest to the goal and the path there (solve --partial)", () => {
    const g = grid(file);
    g.edit("wall:0,10:29,10");
    const mine = pl.find(g, [7, 2], [9, 12], { partial: true, algorithm: "astar" });
    const theirs = solveCli(["--to", "9,12", "--edit", "wall:0,10:29,10", "--partial"]);
    assert.equal(mine.status, "no_path");
    assert.deepEqual(mine.partial.reached, theirs.partial.reached);
    assert.ok(Math.abs(mine.partial.cost - theirs.partial.cost) < 1e-9);
    assert.deepEqual(pairs(mine.partial.path), theirs.partial.path);
    g.delete();
    const open = grid(file);
    assert.equal(pl.find(open, [7, 2], [9, 9], { partial: true }).partial, undefined);  // found: none
    open.delete();
  });
  it("the nearest of several goals (solve --to --to)", () => {
    const g = grid(file);
    for (const algorithm of ["astar", "jps", "dijkstra"]) {
      const mine = pl.findNearest(g, [7, 2], [[9, 9], [20, 3]], { algorithm });
      const theirs = solveCli(["--to", "9,9", "--to", "20,3", "--algo", algorithm]);
      assert.ok(Math.abs(mine.cost - theirs.cost) < 1e-9, algorithm);
      assert.deepEqual(pairs(mine.path), theirs.path, algorithm);
    }
    g.delete();
  });
  it("movement range (reach --json), with a unit", () => {
    const g = grid(mapPath("hybrid_30x20.txt"));
    for (const [budget, opts, args] of [[6.5, {}, []], [9, { classCost: { T: 3 }, diagonal: "never" }, ["--class-cost", "T=3", "--diagonal", "never"]]]) {
      const mine = pl.reach(g, [1, 1], budget, opts);
      const theirs = cli(["reach", mapPath("hybrid_30x20.txt"), "--from", "1,1", "--budget", String(budget), ...args]).json;
      assert.equal(mine.status, "found");
      assert.deepEqual(pairs(mine.cells), theirs.cells.map(([x, y]) => [x, y]));
      theirs.cells.forEach(([, , c], i) => assert.ok(Math.abs(mine.costs[i] - c) < 1e-9));
    }
    g.delete();
  });
  it("smoothing (solve --smooth) keeps line of sight between waypoints", () => {
    const g = grid(file);
    const r = pl.find(g, [7, 2], [9, 9]);
    const s = pl.smooth(g, r.path);
    const theirs = solveCli(["--to", "9,9", "--smooth"]);
    assert.ok(Math.abs(s.cost - theirs.smoothed_cost) < 1e-9);
    assert.deepEqual(pairs(s.path), theirs.smoothed_path);
    const w = pairs(s.path);
    for (let i = 1; i < w.length; ++i) assert.ok(pl.lineOfSight(g, w[i - 1], w[i]));
    assert.ok(s.cost <= r.cost + 1e-9);
    assert.equal(pl.smooth(g, r.path, { method: "greedy" }).path.length % 2, 0);
    assert.throws(() => pl.smooth(g, r.path, { method: "wiggly" }), /wiggly/);
    g.delete();
  });
  it("line of sight: through open ground, not through a wall", () => {
    const g = pl.Grid.fromClasses(5, 3, "....." + "..@.." + ".....");
    assert.equal(pl.lineOfSight(g, [0, 0], [4, 0]), true);
    assert.equal(pl.lineOfSight(g, [0, 1], [4, 1]), false);
    assert.throws(() => pl.lineOfSight(g, [0, 0], [5, 0]), /5,0/);
    g.delete();
  });
  it("a sliced search gives find()'s result, a slice at a time", () => {
    const den = hasMovingAI ? path.join(movingai, "den520d.map") : mapPath("hybrid_120x80.txt");
    const g = grid(den);
    const [s, t] = hasMovingAI ? [[15, 214], [239, 11]] : [[2, 2], [110, 70]];
    for (const algorithm of ["astar", "jps", "dijkstra"]) {
      const whole = pl.find(g, s, t, { algorithm });
      const sliced = pl.slicedSearch(g, s, t, { algorithm });
      let r, slices = 0;
      do { r = sliced.run(100); ++slices; } while (r.status === "in_progress");
      assert.equal(r.status, whole.status, algorithm);
      assert.equal(r.cost, whole.cost, algorithm);
      assert.equal(r.expanded, whole.expanded, algorithm);
      assert.deepEqual(r.path, whole.path, algorithm);
      assert.ok(slices >= Math.ceil(whole.expanded / 100), `${algorithm}: ${slices} slices for ${whole.expanded} expansions`);
      assert.equal(sliced.active, false);
    }
    const sliced = pl.slicedSearch(g, s, t, { algorithm: "astar" });
    sliced.run(10);
    assert.equal(sliced.active, true);
    sliced.cancel();
    assert.equal(sliced.active, false);
    assert.throws(() => sliced.run(0), /0/);
    g.delete();
  });
});

describe("maps that change", () => {
  it("every preprocessing algorithm answers after an edit as on a fresh grid (no thread needed)", () => {
    const file = mapPath("hybrid_30x20.txt");
    const g = grid(file);
    for (const algorithm of ["jps+", "subgoal", "subgoal-ch"]) pl.find(g, [1, 1], [27, 17], { algorithm });
    g.edit("wall:5,5:20,5").edit("wall:14,6:14,16");
    const fresh = grid(file);
    fresh.edit("wall:5,5:20,5").edit("wall:14,6:14,16");
    for (const algorithm of ["jps+", "subgoal", "subgoal-ch"]) {
      const edited = pl.find(g, [1, 1], [27, 17], { algorithm });
      const reference = pl.find(fresh, [1, 1], [27, 17], { algorithm: "dijkstra" });
      assert.equal(edited.status, reference.status, algorithm);
      assert.ok(Math.abs(edited.cost - reference.cost) < 1e-9, `${algorithm}: ${edited.cost} vs ${reference.cost}`);
    }
    g.delete();
    fresh.delete();
  });
});
