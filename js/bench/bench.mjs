// pathlab's npm package (WebAssembly) beside PathFinding.js and EasyStar.js, and beside pathlab's
// native build, on the same Moving AI queries in one run (issue 28's targets).
//
//   node js/bench/bench.mjs --package build-wasm/js/package --pathlab build/apps/cli/pathlab \
//        --movingai ../shared/benchmarks/movingai [--sample 500] [--maps den520d,brc202d,maze512-1-0]
//
// Per map: a fixed even sample of the scenario file's queries (every k-th line, at least --sample
// or all). Every answer's cost is checked against the scenario's optimum (the Moving AI tolerance)
// for the optimal searches, and PathFinding.js's paths are measured and compared with ours.
// PathFinding.js rules: diagonal moves only when no obstacle (its no-corner-cut), octile
// heuristic, a clone of the grid for every query, timed with it (its finders write into the grid).
// EasyStar.js: synchronous mode, diagonals without corner cutting; its diagonal costs 1.4, so its
// paths are reported as a ratio to the optimum.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const args = parseArgs(process.argv.slice(2));
const movingai = args.movingai ?? "../shared/benchmarks/movingai";
const sampleSize = Number(args.sample ?? 500);
const maps = (args.maps ?? "den520d,brc202d,maze512-1-0").split(",");
const peersWanted = (args.peers ?? "astar,jps,easystar").split(",");
const jsonOut = args.json;

const { load } = await import(pathToFileURL(path.resolve(args.package ?? "build-wasm/js/package")).href + "/index.js");
const PF = require("pathfinding");
const EasyStar = require("easystarjs");
const pl = await load();
const SQRT2 = Math.SQRT2;
const tolerance = (opt) => 0.005 + 1e-5 * opt;  // ALGORITHMS.md: Moving AI lengths are rounded

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; ++i) {
    if (!argv[i].startsWith("--")) throw new Error(`unexpected argument ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
    ++i;
  }
  return out;
}

function readScen(file) {
  const lines = fs.readFileSync(file, "utf8").split(/\r?\n/).slice(1).filter((l) => l.trim());
  return lines.map((l) => {
    const f = l.split(/\s+/);
    return { line: l, sx: +f[4], sy: +f[5], gx: +f[6], gy: +f[7], opt: +f[8] };
  });
}

function evenSample(all, n) {
  if (all.length <= n) return all;
  const out = [];
  for (let i = 0; i < n; ++i) out.push(all[Math.floor((i * all.length) / n)]);
  return out;
}

function matrixOf(text) {
  const rows = text.split(/\r?\n/);
  const start = rows.findIndex((r) => r.trim() === "map") + 1;
  const height = +rows.find((r) => r.startsWith("height")).split(/\s+/)[1];
  const width = +rows.find((r) => r.startsWith("width")).split(/\s+/)[1];
  const m = [];
  for (let y = 0; y < height; ++y) {
    const r = rows[start + y];
    const row = new Array(width);
    for (let x = 0; x < width; ++x) row[x] = ".GS".includes(r[x]) ? 0 : 1;
    m.push(row);
  }
  return m;
}

// Length of a path of cells (each step one straight or diagonal move, or a straight/diagonal run
// between jump points).
function lengthOf(cells) {
  let len = 0;
  for (let i = 1; i < cells.length; ++i) {
    const dx = Math.abs(cells[i][0] - cells[i - 1][0]), dy = Math.abs(cells[i][1] - cells[i - 1][1]);
    len += Math.max(dx, dy) - Math.min(dx, dy) + SQRT2 * Math.min(dx, dy);
  }
  return len;
}

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { mean, median: s[Math.floor(s.length / 2)] };
}

// Every searcher runs the first WARMUP queries of the sample untimed first: V8 compiles
// WebAssembly with its baseline compiler and JavaScript with its interpreter, and optimises the
// hot code as it runs; a game's searches run on the optimised code after its first seconds.
const WARMUP = Number(args.warmup ?? 100);
const warm = (queries) => queries.slice(0, WARMUP);
function runPathlab(g, queries, algorithm) {
  const call = [], search = [];
  let bad = 0;
  // The first query of a preprocessing algorithm builds its data: time it apart.
  const t0 = performance.now();
  pl.find(g, [queries[0].sx, queries[0].sy], [queries[0].gx, queries[0].gy], { algorithm });
  const firstMs = performance.now() - t0;
  for (const q of warm(queries)) pl.find(g, [q.sx, q.sy], [q.gx, q.gy], { algorithm });
  for (const q of queries) {
    const t = performance.now();
    const r = pl.find(g, [q.sx, q.sy], [q.gx, q.gy], { algorithm });
    call.push((performance.now() - t) * 1000);
    search.push(r.timeUs);
    if (r.status !== "found" || Math.abs(r.cost - q.opt) > tolerance(q.opt)) ++bad;
  }
  return { call: stats(call), search: stats(search), bad, firstMs };
}

function runPF(matrix, queries, make) {
  const base = new PF.Grid(matrix);
  const finder = make();
  const times = [];
  let bad = 0, worst = 0;
  for (const q of warm(queries)) finder.findPath(q.sx, q.sy, q.gx, q.gy, base.clone());
  for (const q of queries) {
    const t = performance.now();
    const grid = base.clone();
    const p = finder.findPath(q.sx, q.sy, q.gx, q.gy, grid);
    times.push((performance.now() - t) * 1000);
    const len = p.length ? lengthOf(p) : Infinity;
    worst = Math.max(worst, Math.abs(len - q.opt));
    if (Math.abs(len - q.opt) > tolerance(q.opt)) ++bad;
  }
  return { call: stats(times), bad, worst };
}

function runEasyStar(matrix, queries) {
  const es = new EasyStar.js();
  es.setGrid(matrix);
  es.setAcceptableTiles([0]);
  es.enableDiagonals();
  es.disableCornerCutting();
  es.enableSync();
  es.setIterationsPerCalculation(Number.MAX_VALUE);
  const times = [];
  let ratio = 0, found = 0;
  for (const q of warm(queries)) {
    es.findPath(q.sx, q.sy, q.gx, q.gy, () => {});
    es.calculate();
  }
  for (const q of queries) {
    let result = null;
    const t = performance.now();
    es.findPath(q.sx, q.sy, q.gx, q.gy, (p) => { result = p; });
    es.calculate();
    times.push((performance.now() - t) * 1000);
    if (result && result.length) {
      ++found;
      ratio += lengthOf(result.map((c) => [c.x, c.y])) / Math.max(q.opt, 1e-9);
    }
  }
  return { call: stats(times), found, meanRatio: ratio / Math.max(found, 1) };
}

function runNative(mapFile, queries, algorithms) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pathlab-jsbench-"));
  try {
    const base = path.basename(mapFile);
    fs.symlinkSync(path.resolve(mapFile), path.join(dir, base));
    const scen = path.join(dir, base + ".scen");
    fs.writeFileSync(scen, "version 1\n" + queries.map((q) => q.line).join("\n") + "\n");
    const out = execFileSync(args.pathlab ?? "build/apps/cli/pathlab",
                             ["bench", scen, "--algo", algorithms.join(","), "--json"],
                             { encoding: "utf8", maxBuffer: 1 << 26 });
    const rows = JSON.parse(out).results;
    return Object.fromEntries(rows.map((r) => [r.algorithm, r]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const report = { sample: sampleSize, maps: [] };
const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);
for (const name of maps) {
  const mapFile = path.join(movingai, `${name}.map`);
  const text = fs.readFileSync(mapFile, "utf8");
  const queries = evenSample(readScen(`${mapFile}.scen`), sampleSize);
  const g = pl.Grid.parse(text, "movingai");
  const matrix = matrixOf(text);
  const row = { map: name, queries: queries.length };
  const ours = ["astar", "jps", "jps+"];
  for (const a of ours) row[`pathlab_${a}`] = runPathlab(g, queries, a);
  const native = runNative(mapFile, queries, ours);
  for (const a of ours) row[`native_${a}`] = { mean_us: native[a].mean_us, solved: native[a].solved, suboptimal: native[a].suboptimal };
  const diag = PF.DiagonalMovement.OnlyWhenNoObstacles;
  if (peersWanted.includes("astar")) {
    row.pf_astar = runPF(matrix, queries, () => new PF.AStarFinder({ diagonalMovement: diag, heuristic: PF.Heuristic.octile }));
  }
  if (peersWanted.includes("jps")) {
    row.pf_jps = runPF(matrix, queries, () => new PF.JumpPointFinder({ diagonalMovement: diag, heuristic: PF.Heuristic.octile }));
  }
  if (peersWanted.includes("easystar")) row.easystar = runEasyStar(matrix, queries);
  g.delete();
  report.maps.push(row);

  console.log(`\n${name}: ${queries.length} queries (even sample of the scenario file)`);
  console.log("  searcher                    mean/query   median      wrong  vs PathFinding.js");
  const line = (label, r, vs) => console.log(
    `  ${label.padEnd(27)} ${fmt(r.call.mean).padStart(10)}  ${fmt(r.call.median).padStart(10)}  ${String(r.bad ?? "-").padStart(5)}  ${vs}`);
  for (const a of ours) {
    const r = row[`pathlab_${a}`];
    const peer = a === "jps" ? row.pf_jps : row.pf_astar;
    const vs = peer ? `${(peer.call.mean / r.call.mean).toFixed(1)}x faster than PF ${a === "jps" ? "JumpPointFinder" : "AStarFinder"}` : "";
    line(`pathlab wasm ${a}`, r, vs);
  }
  if (row.pf_astar) line("PathFinding.js AStarFinder", row.pf_astar, `worst |len - opt| ${row.pf_astar.worst.toExponential(1)}`);
  if (row.pf_jps) line("PathFinding.js JumpPoint", row.pf_jps, `worst |len - opt| ${row.pf_jps.worst.toExponential(1)}`);
  if (row.easystar) console.log(`  ${"EasyStar.js".padEnd(27)} ${fmt(row.easystar.call.mean).padStart(10)}  ${fmt(row.easystar.call.median).padStart(10)}      -  found ${row.easystar.found}, mean length/optimum ${row.easystar.meanRatio.toFixed(4)}`);
  console.log("  WebAssembly against native (search time inside the library, same queries):");
  for (const a of ours) {
    const w = row[`pathlab_${a}`].search.mean, n = row[`native_${a}`].mean_us;
    console.log(`    ${a.padEnd(6)} wasm ${fmt(w).padStart(10)}  native ${fmt(n).padStart(10)}  ratio ${(w / n).toFixed(2)}  (wasm first query, preparation included: ${row[`pathlab_${a}`].firstMs.toFixed(1)} ms)`);
  }
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2));
