// A Node example of the npm package `pathlab`: finds a path on a map file and draws it in the
// terminal, then sends ten units home along one flow field.
//
//   node route.mjs MAP SX,SY GX,GY [ALGORITHM]
//   node route.mjs ../../maps/seed_maze.txt 7,2 9,9 jps
//
// Install the package first: `make wasm` in the repository, then `npm install` here (package.json
// points at build-wasm/js/package), or `npm install pathlab-0.1.0.tgz` anywhere.
import { readFileSync } from "node:fs";
import { load } from "pathlab";

const [file, from, to, algorithm = "astar"] = process.argv.slice(2);
if (!file || !from || !to) {
  console.error("usage: node route.mjs MAP SX,SY GX,GY [ALGORITHM]");
  process.exit(2);
}
const cell = (text) => text.split(",").map(Number);
const pl = await load();
let grid;
try {
  const text = readFileSync(file, "utf8");
  grid = pl.Grid.parse(text, file.endsWith(".map") ? "movingai" : undefined);
  const r = pl.find(grid, cell(from), cell(to), { algorithm });
  console.log(`${algorithm}: ${r.status}, cost ${r.cost.toFixed(3)}, ${r.expanded} nodes expanded in ${r.timeUs.toFixed(0)} µs`);

  // The map with the path: the map's own characters, '*' on the path.
  const rows = text.split(/\r?\n/);
  const body = file.endsWith(".map") ? rows.slice(rows.indexOf("map") + 1) : rows;
  const picture = body.slice(0, grid.height).map((row) => [...row.padEnd(grid.width, " ")]);
  for (let i = 0; i < r.path.length; i += 2) picture[r.path[i + 1]][r.path[i]] = "*";
  if (grid.width <= 120) console.log(picture.map((row) => row.join("")).join("\n"));

  // Ten units around the start walk home down one flow field: each step follows the field's
  // direction (0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE) until the goal.
  const field = pl.flowField(grid, [cell(to)]);
  const step = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
  let arrived = 0;
  for (let u = 0; u < 10; ++u) {
    let [x, y] = cell(from);
    x = Math.min(grid.width - 1, x + (u % 3)); y = Math.min(grid.height - 1, y + Math.floor(u / 3) % 2);
    for (let n = 0; n < grid.width * grid.height; ++n) {
      const d = field.direction[y * grid.width + x];
      if (d < 0) break;
      x += step[d][0]; y += step[d][1];
    }
    if (x === cell(to)[0] && y === cell(to)[1]) ++arrived;
  }
  console.log(`${arrived} of 10 units reached the goal along the flow field`);
  field.delete();
} catch (e) {
  console.error(`route: ${e.message}`);
  process.exitCode = 2;
} finally {
  grid?.delete();
}
