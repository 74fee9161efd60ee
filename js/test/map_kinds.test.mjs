// Every map a game has, through the package: hex layouts, walls on cell edges, floors and links
// (Grid.layered, setLayout, setEdgeWall, addLink, at, locate, Field.next). Searches and ranges on
// grids made here answer as `pathlab solve --json` / `pathlab reach --json` on the same map,
// written as a Tiled .tmj for the command (and read with --layout); bad arguments throw an Error.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";

import { algorithmsOfCli, cli, mapPath, pairs, pl, readMap } from "./common.mjs";

const HEX = ["pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q"];
const algorithms = algorithmsOfCli().map((a) => a.name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pathlab-kinds-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A deterministic random number generator (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A map of `layers` floors of width x height cells (walls, 'S' and 'T' scattered by `seed`),
// `edges` walls on cell edges and links [[l, x, y], [l, x, y], cost, oneway]: the cells links
// and the queries use stay ground.
function kindsMap(width, height, layers, seed, { edges = 0, links = [] } = {}) {
  const rnd = random(seed);
  const rows = Array.from({ length: layers * height }, () => Array.from({ length: width }, () => {
    const r = rnd();
    return r < 0.2 ? "@" : r < 0.24 ? "S" : r < 0.27 ? "T" : ".";
  }));
  const keep = [...links.flatMap((l) => [l[0], l[1]]), [0, 0, 0], [layers - 1, width - 1, height - 1]];
  for (const [l, x, y] of keep) rows[l * height + y][x] = ".";
  const walls = new Map();
  while (walls.size < edges) {
    const w = [Math.floor(rnd() * layers), Math.floor(rnd() * width), Math.floor(rnd() * height), "nesw"[Math.floor(rnd() * 4)]];
    walls.set(w.join(), w);
  }
  return { width, height, layers, rows: rows.map((r) => r.join("")), edges: [...walls.values()], links };
}

// The map made through the package.
function makeGrid(m, layout) {
  const floors = Array.from({ length: m.layers }, (_, l) => m.rows.slice(l * m.height, (l + 1) * m.height).join(""));
  const g = pl.Grid.layered(m.width, m.height, floors, { layout });
  for (const [l, x, y, side] of m.edges) g.setEdgeWall(g.at(l, x, y), side);
  for (const [a, b, cost, oneway] of m.links) g.addLink(g.at(...a), g.at(...b), { cost, oneway });
  return g;
}

// The same map as a Tiled JSON map (docs/tiled.md): a tile per kind of cell, with its class and
// its walls as tile properties; a tile layer and an object layer (the links) per floor.
function writeTmj(m, file) {
  const sides = new Map();
  for (const [l, x, y, side] of m.edges) {
    const k = `${l},${x},${y}`;
    sides.set(k, (sides.get(k) ?? "") + side);
  }
  const kinds = new Map(), tiles = [];
  const gid = (cls, walls) => {
    const key = cls + [...walls].sort().join("");
    if (!kinds.has(key)) {
      kinds.set(key, kinds.size);
      const properties = cls === "." ? [] : [{ name: "class", type: "string", value: cls === "@" ? "wall" : cls }];
      for (const s of [...walls].sort()) properties.push({ name: `wall_${s}`, type: "bool", value: true });
      tiles.push({ id: kinds.get(key), properties });
    }
    return kinds.get(key) + 1;
  };
  const layers = [];
  let id = 1, objectId = 1;
  for (let l = 0; l < m.layers; ++l) {
    const floor = m.layers > 1 ? [{ name: "floor", type: "int", value: l }] : [];
    const data = [];
    for (let y = 0; y < m.height; ++y) {
      for (let x = 0; x < m.width; ++x) data.push(gid(m.rows[l * m.height + y][x], sides.get(`${l},${x},${y}`) ?? ""));
    }
    layers.push({ type: "tilelayer", id: id++, name: `floor ${l}`, width: m.width, height: m.height, x: 0, y: 0,
                  opacity: 1, visible: true, data, properties: floor });
    const objects = m.links.filter(([a]) => a[0] === l).map(([a, b, cost, oneway]) => ({
      id: objectId++, name: "link", type: "", point: true, rotation: 0, visible: true, width: 0, height: 0,
      x: (a[1] + 0.5) * 32, y: (a[2] + 0.5) * 32,
      properties: [{ name: "to_layer", type: "int", value: b[0] }, { name: "to_x", type: "int", value: b[1] },
                   { name: "to_y", type: "int", value: b[2] }, { name: "cost", type: "float", value: cost },
                   { name: "oneway", type: "bool", value: oneway }],
    }));
    layers.push({ type: "objectgroup", id: id++, name: `objects ${l}`, draworder: "topdown", x: 0, y: 0, opacity: 1,
                  visible: true, objects, properties: floor });
  }
  fs.writeFileSync(file, JSON.stringify({
    type: "map", version: "1.8", tiledversion: "1.8.2", orientation: "orthogonal", renderorder: "right-down",
    width: m.width, height: m.height, tilewidth: 32, tileheight: 32, infinite: false, nextlayerid: id,
    nextobjectid: objectId, layers,
    tilesets: [{ firstgid: 1, name: "cells", tilewidth: 32, tileheight: 32, columns: 0, margin: 0, spacing: 0,
                 tilecount: tiles.length, tiles, grid: { orientation: "orthogonal", width: 1, height: 1 } }],
  }));
}

// Grid cells as the command writes them: [x, y], or [x, y, layer] on a layered map.
function asCli(g, flat) {
  return pairs(flat).map((c) => {
    if (g.layers === 1) return c;
    const { layer, x, y } = g.locate(c);
    return [x, y, layer];
  });
}

function sameSearch(g, mine, theirs, what) {
  assert.ok(theirs.json, `pathlab solve printed no JSON: ${theirs.stderr}`);
  assert.equal(mine.status, theirs.json.status, what);
  assert.equal(mine.expanded, theirs.json.expanded, `${what}: nodes expanded`);
  if (mine.status === "found") {
    assert.ok(Math.abs(mine.cost - theirs.json.cost) < 1e-9, `${what}: cost ${mine.cost} vs ${theirs.json.cost}`);
    assert.deepEqual(asCli(g, mine.path), theirs.json.path, what);
  }
}

const throwsWith = (fn, re) => {
  let caught = null;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught, "no error thrown");
  assert.ok(caught instanceof Error, "not an Error");
  assert.ok(!(caught instanceof WebAssembly.RuntimeError), "a WebAssembly.RuntimeError");
  assert.match(caught.message, re);
};

describe("hex layouts answer as `pathlab solve --layout`", () => {
  const file = mapPath("seed_maze.txt");
  for (const layout of HEX) {
    it(`every algorithm on seed_maze as ${layout}`, () => {
      const g = pl.Grid.parse(readMap(file), undefined, { layout });
      try {
        assert.equal(g.layout, layout);
        for (const a of algorithms) {
          const mine = pl.find(g, [7, 2], [9, 9], { algorithm: a });
          const theirs = cli(["solve", file, "--layout", layout, "--algo", a, "--from", "7,2", "--to", "9,9"]);
          sameSearch(g, mine, theirs, `${a} as ${layout}`);
          assert.equal(mine.status, "found", a);
        }
      } finally {
        g.delete();
      }
    });
  }
  it("setLayout reads the same cells as hexes and back", () => {
    const g = pl.Grid.fromClasses(5, 5, ".".repeat(25));
    assert.equal(g.layout, "square");
    assert.equal(pl.find(g, [0, 0], [4, 4]).path.length / 2, 5);  // 4 diagonal steps
    g.setLayout("pointy-odd-r");
    const r = pl.find(g, [0, 0], [4, 4]);
    assert.equal(r.cost, 6);  // the hex distance
    g.setLayout("square");
    assert.equal(pl.find(g, [0, 0], [4, 4]).path.length / 2, 5);
    g.delete();
  });
});

const stairs = [[[0, 9, 7], [1, 9, 7], 1, false], [[1, 0, 0], [2, 0, 0], 2.5, false],
                [[0, 5, 3], [2, 11, 7], 4, true], [[2, 6, 0], [0, 2, 7], 1.5, true]];
const kinds = [
  { name: "walls on cell edges", map: kindsMap(16, 10, 1, 5, { edges: 40 }), layout: "square" },
  { name: "floors and links", map: kindsMap(12, 8, 3, 11, { links: stairs }), layout: "square" },
  { name: "floors, links and edge walls", map: kindsMap(12, 8, 3, 35, { edges: 30, links: stairs }), layout: "square" },
  { name: "hex floors and links", map: kindsMap(12, 8, 3, 22, { links: stairs }), layout: "pointy-even-r" },
  { name: "flat hexes", map: kindsMap(14, 9, 1, 19), layout: "flat-odd-q" },
];

describe("grids made through the package answer as the command on the same map (.tmj)", () => {
  for (const { name, map, layout } of kinds) {
    const file = path.join(tmp, `${name.replaceAll(/\W+/g, "_")}.tmj`);
    const where = ([l, x, y]) => (map.layers > 1 ? `${l}:${x},${y}` : `${x},${y}`);
    const goal = [map.layers - 1, map.width - 1, map.height - 1];
    it(`every algorithm on ${name} (${layout})`, () => {
      writeTmj(map, file);
      const g = makeGrid(map, layout);
      try {
        assert.equal(g.layers, map.layers);
        assert.equal(g.layerHeight, map.height);
        assert.equal(g.layout, layout);
        assert.equal(g.links().length, map.links.length);
        let found = 0;
        for (const a of algorithms) {
          const mine = pl.find(g, g.at(0, 0, 0), g.at(...goal), { algorithm: a });
          const theirs = cli(["solve", file, "--layout", layout, "--algo", a, "--from", where([0, 0, 0]), "--to", where(goal)]);
          sameSearch(g, mine, theirs, `${a} on ${name}`);
          if (mine.status === "found") ++found;
        }
        assert.equal(found, algorithms.length, "every algorithm finds the way");
      } finally {
        g.delete();
      }
    });
    it(`movement ranges on ${name}`, () => {
      writeTmj(map, file);
      const g = makeGrid(map, layout);
      try {
        for (const budget of [6.5, 40]) {
          const mine = pl.reach(g, g.at(0, 0, 0), budget);
          const theirs = cli(["reach", file, "--layout", layout, "--from", where([0, 0, 0]), "--budget", String(budget)]);
          assert.ok(theirs.json, theirs.stderr);
          assert.equal(mine.status, theirs.json.status);
          const cells = asCli(g, mine.cells);
          assert.equal(cells.length, theirs.json.cells.length, `${name} within ${budget}`);
          cells.forEach((c, i) => {
            const t = theirs.json.cells[i];
            assert.deepEqual(c, t.slice(0, -1));
            assert.ok(Math.abs(mine.costs[i] - t.at(-1)) < 1e-9);
          });
        }
      } finally {
        g.delete();
      }
    });
  }
});

describe("Tiled .tmj maps read in the WebAssembly build", () => {
  for (const { name, map, layout } of kinds.filter((k) => k.layout === "square")) {
    it(`${name}: Grid.parse of the .tmj answers as the grid made through the package`, () => {
      const file = path.join(tmp, `parsed_${name.replaceAll(/\W+/g, "_")}.tmj`);
      writeTmj(map, file);
      const made = makeGrid(map, layout);
      const parsed = pl.Grid.parse(fs.readFileSync(file, "utf8"));
      try {
        assert.equal(parsed.layers, made.layers);
        assert.equal(parsed.layerHeight, made.layerHeight);
        assert.equal(parsed.links().length, made.links().length);
        const goal = [map.layers - 1, map.width - 1, map.height - 1];
        for (const a of ["astar", "bfs", "dijkstra"]) {
          const x = pl.find(made, made.at(0, 0, 0), made.at(...goal), { algorithm: a });
          const y = pl.find(parsed, parsed.at(0, 0, 0), parsed.at(...goal), { algorithm: a });
          assert.equal(y.status, x.status, a);
          assert.ok(Math.abs(y.cost - x.cost) < 1e-9, `${a}: ${y.cost} vs ${x.cost}`);
          assert.deepEqual(y.path, x.path, a);
        }
      } finally {
        made.delete();
        parsed.delete();
      }
    });
  }
  it(".tmx maps and compressed layers are refused with what to do instead", () => {
    throwsWith(() => pl.Grid.parse('<?xml version="1.0"?><map width="2" height="2"></map>', "tmx"),
               /export the map as \.tmj/);
    const compressed = JSON.stringify({
      type: "map", orientation: "orthogonal", width: 1, height: 1, tilewidth: 32, tileheight: 32, infinite: false,
      tilesets: [], layers: [{ type: "tilelayer", width: 1, height: 1, encoding: "base64", compression: "zlib",
                               data: "eJxjYGAAAAAEAAE=" }],
    });
    throwsWith(() => pl.Grid.parse(compressed), /uncompressed base64/);
  });
});

describe("floors, links and edge walls through the package", () => {
  it("at and locate convert between (floor, x, y) and grid cells, both ways", () => {
    const g = pl.Grid.layered(4, 3, ["....@.......", ".T..........", "............"]);
    assert.equal(g.width, 4);
    assert.ok(g.height > 9, "rows between floors");
    for (let l = 0; l < 3; ++l) {
      for (let y = 0; y < 3; ++y) {
        for (let x = 0; x < 4; ++x) assert.deepEqual(g.locate(g.at(l, x, y)), { layer: l, x, y });
      }
    }
    g.delete();
  });
  it("links are added, listed and removed; a one-way link goes one way", () => {
    const g = pl.Grid.layered(3, 2, "......" + "......");
    const a = g.at(0, 2, 1), b = g.at(1, 0, 0);
    assert.equal(pl.find(g, a, b).status, "no_path");
    g.addLink(a, b, { oneway: true });
    assert.deepEqual(g.links(), [{ from: a, to: b, cost: 1, oneway: true }]);
    const r = pl.find(g, [0, 0], b);
    assert.equal(r.status, "found");
    assert.ok(Math.abs(r.cost - (2 + Math.SQRT2)) < 1e-9, `cost ${r.cost}`);  // 1 + √2, then the link
    assert.equal(pl.find(g, b, a).status, "no_path");
    g.addLink(b, a, { cost: 2.5 });
    assert.equal(pl.find(g, b, a).cost, 2.5);
    assert.equal(g.removeLinks(b, a), 1);
    assert.equal(g.links().length, 1);
    g.clearLinks();
    assert.equal(g.links().length, 0);
    g.delete();
  });
  it("a flow field leads down the links (Field.next)", () => {
    const g = pl.Grid.layered(3, 2, "......" + "......");
    const goal = g.at(1, 2, 1);
    g.addLink([0, 0], g.at(1, 0, 0), { cost: 2 });
    const f = pl.flowField(g, [goal]);
    assert.equal(f.direction[0], 8);  // take the link
    let c = [2, 1], steps = 0;
    while ((c[0] !== goal[0] || c[1] !== goal[1]) && steps++ < 20) {
      const n = f.next(c);
      assert.ok(n, `a next cell from ${c}`);
      assert.ok(f.distance[n[1] * f.width + n[0]] < f.distance[c[1] * f.width + c[0]]);
      c = n;
    }
    assert.deepEqual(c, goal);
    assert.equal(f.next(goal), null);
    assert.ok(Math.abs(f.distance[2 + 1 * f.width] - pl.find(g, [2, 1], goal).cost) < 1e-9);
    f.delete();
    g.delete();
  });
  it("a thin wall reads the same from both sides and blocks its edge", () => {
    const g = pl.Grid.fromClasses(2, 1, "..");
    assert.equal(pl.find(g, [0, 0], [1, 0]).status, "found");
    g.setEdgeWall([0, 0], "east");
    assert.equal(g.edgeWall([1, 0], "w"), true);
    assert.equal(g.edgeWall([1, 0], "e"), false);
    assert.equal(pl.find(g, [0, 0], [1, 0]).status, "no_path");
    g.setEdgeWall([1, 0], "w", false);
    assert.equal(pl.find(g, [0, 0], [1, 0]).status, "found");
    g.delete();
  });
});

describe("bad map-kind arguments throw an Error with the library's message", () => {
  it("layouts", () => {
    const g = pl.Grid.fromClasses(2, 2, "....");
    throwsWith(() => g.setLayout("hexagonal"), /unknown layout 'hexagonal'/);
    throwsWith(() => g.setLayout(3), /layout must be a string/);
    throwsWith(() => pl.Grid.fromClasses(2, 2, "....", { layout: "round" }), /round/);
    throwsWith(() => pl.Grid.parse("..\n..\n", "ascii", { hex: true }), /unknown option 'hex'/);
    g.setEdgeWall([0, 0], "s");
    throwsWith(() => g.setLayout("flat-odd-q"), /edges/);
    assert.equal(g.layout, "square");
    g.setEdgeWall([0, 0], "s", false);
    g.setLayout("flat-odd-q");
    throwsWith(() => g.setEdgeWall([0, 0], "s"), /direction 0\.\.5/);
    g.delete();
  });
  it("walls on hex edges by direction", () => {
    // Pointy-odd-r, 4 x 3 open: (1, 1) (odd row) and its direction-0 neighbour (2, 1) share an
    // edge; walled, the step between them goes round through a hex both touch (cost 2).
    const g = pl.Grid.fromClasses(4, 3, "............", { layout: "pointy-odd-r" });
    assert.equal(pl.find(g, [1, 1], [2, 1]).cost, 1);
    g.setEdgeWall([1, 1], 0);
    assert.equal(g.edgeWall([2, 1], "3"), true);
    assert.equal(pl.find(g, [1, 1], [2, 1]).cost, 2);
    g.setEdgeWall([2, 1], 3, false);
    assert.equal(g.edgeWall([1, 1], 0), false);
    throwsWith(() => g.setEdgeWall([1, 1], 6), /direction 0\.\.5/);
    g.delete();
  });
  it("floors and cells", () => {
    throwsWith(() => pl.Grid.layered(2, 2, ["....", "..."]), /floor 1/);
    throwsWith(() => pl.Grid.layered(2, 2, "....."), /whole floors/);
    throwsWith(() => pl.Grid.layered(2, 2, []), /non-empty array/);
    throwsWith(() => pl.Grid.layered(0, 2, ["...."]), /positive whole numbers/);
    throwsWith(() => pl.Grid.layered(2, 1, [". ", ".."]), /floor 0/);
    const g = pl.Grid.layered(2, 2, ["....", "...."]);
    throwsWith(() => g.at(2, 0, 0), /floor 2/);
    throwsWith(() => g.at(0, 0, 2), /outside floor 0/);
    throwsWith(() => g.at(0, 0.5, 0), /whole number/);
    throwsWith(() => g.locate([0, 2]), /between two floors/);
    throwsWith(() => g.locate([0, 99]), /outside/);
    throwsWith(() => g.locate([0]), /expected \[x, y\]/);
    g.delete();
  });
  it("edge walls", () => {
    const g = pl.Grid.layered(2, 2, ["....", "...."]);
    throwsWith(() => g.setEdgeWall([0, 0], "up"), /unknown side "up"/);
    throwsWith(() => g.setEdgeWall([0, 0], "toString"), /unknown side/);
    throwsWith(() => g.edgeWall([5, 0], "n"), /outside/);
    throwsWith(() => g.setEdgeWall([0, 2], "n"), /between two floors/);
    throwsWith(() => g.setEdgeWall([0, 0], "n", "yes"), /true or false/);
    g.delete();
  });
  it("links", () => {
    const g = pl.Grid.layered(2, 2, ["....", "...."]);
    throwsWith(() => g.addLink([0, 0], [0, 2]), /between two layers/);
    throwsWith(() => g.addLink([0, 0], [7, 7]), /7,7/);
    throwsWith(() => g.addLink([0, 0], [1, 1], { cost: -1 }), /cost/);
    throwsWith(() => g.addLink([0, 0], [1, 1], { cost: NaN }), /cost/);
    throwsWith(() => g.addLink([0, 0], [1, 1], { price: 2 }), /unknown option 'price'/);
    throwsWith(() => g.addLink([0, 0], [1, 1], { oneway: 1 }), /true or false/);
    assert.equal(g.links().length, 0);
    assert.equal(g.removeLinks([0, 0], [1, 1]), 0);
    g.delete();
  });
  it("Field.next outside the map", () => {
    const g = pl.Grid.fromClasses(2, 2, "....");
    const f = pl.flowField(g, [[0, 0]]);
    throwsWith(() => f.next([2, 0]), /outside/);
    throwsWith(() => f.next("0,0"), /expected \[x, y\]/);
    f.delete();
    g.delete();
  });
});
