// The package as a user gets it: `npm pack` gives a tarball that installs into an empty folder
// offline and runs from Node; its TypeScript types check a program that uses the whole API.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { installPacked, packageDir, root } from "./common.mjs";

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("npm pack, then an offline install into an empty folder", () => {
  let work, app;
  before(() => {
    ({ work, app } = installPacked());
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it("the tarball holds the module, its types and the .wasm, nothing else", () => {
    const files = JSON.parse(npm(["pack", "--dry-run", "--json", packageDir], work))[0].files.map((f) => f.path).sort();
    assert.deepEqual(files, ["README.md", "dist/pathlab_wasm.mjs", "dist/pathlab_wasm.wasm", "index.d.ts", "index.js", "package.json"]);
  });

  it("the .wasm is at most 2 MB gzipped", () => {
    const wasm = path.join(packageDir, "dist/pathlab_wasm.wasm");
    const gz = execFileSync("gzip", ["-9c", wasm]).length;
    assert.ok(gz <= 2 * 1024 * 1024, `${gz} bytes gzipped`);
  });

  it("`import { load } from \"pathlab\"` finds a path in Node", () => {
    const main = path.join(app, "main.mjs");
    fs.writeFileSync(main, `
      import { load } from "pathlab";
      const pl = await load();
      const g = pl.Grid.fromClasses(5, 3, ".....@@@.......");
      const r = pl.find(g, [0, 0], [4, 2], { algorithm: "jps" });
      console.log(JSON.stringify({ status: r.status, cost: r.cost, path: Array.from(r.path) }));
      g.delete();
    `);
    const out = JSON.parse(execFileSync(process.execPath, [main], { cwd: app, encoding: "utf8" }));
    assert.equal(out.status, "found");
    assert.equal(out.path[0], 0);
    assert.equal(out.path.at(-1), 2);
  });

  it("its types check a TypeScript program (tsc --strict), and reject a wrong one", { skip: !fs.existsSync(path.join(root, "js/test/node_modules/typescript")) && "typescript not installed: scripts/install-deps.sh --wasm" }, () => {
    const tsc = path.join(root, "js/test/node_modules/typescript/bin/tsc");
    const good = path.join(app, "good.ts");
    fs.writeFileSync(good, `
      import { load, type Pathlab, type Result, type Options } from "pathlab";
      const pl: Pathlab = await load();
      const g = pl.Grid.parse("type octile\\nheight 1\\nwidth 3\\nmap\\n...\\n", "movingai");
      const opts: Options = { algorithm: "jps+", diagonal: "no-corner-cut", radius: 0, classCost: { T: 2, W: null } };
      const r: Result = pl.find(g, [0, 0], [2, 0], opts);
      const s: "found" | "no_path" | "node_limit" = r.status;
      const costs: Float64Array = pl.findMany(g, new Int32Array([0, 0]), new Int32Array([2, 0]));
      const f = pl.flowField(g, [[2, 0]], { radius: 0 });
      const d: Float64Array = f.distance, dir: Int8Array = f.direction;
      const names: string[] = pl.algorithms();
      const near = pl.findNearest(g, [0, 0], [[2, 0], [1, 0]], { partial: true });
      const reached: [number, number] | undefined = near.partial?.reached;
      const range = pl.reach(g, [0, 0], 2.5);
      const sees: boolean = pl.lineOfSight(g, [0, 0], [2, 0]);
      const smooth = pl.smooth(g, r.path, { method: "greedy" });
      const sliced = pl.slicedSearch(g, [0, 0], [2, 0], { algorithm: "astar" });
      const step = sliced.run(10);
      console.log(reached, range.cells, range.costs, sees, smooth.cost, step.status, sliced.active);
      g.edit("wall:1,0").delete(); f.delete();
      console.log(s, costs, d, dir, names, g.width + g.height, r.path.length, r.expanded, r.timeUs);
    `);
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"] } };
    fs.writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: ["good.ts"] }));
    execFileSync(process.execPath, [tsc, "-p", app], { cwd: app, encoding: "utf8" });
    const bad = path.join(app, "bad.ts");
    fs.writeFileSync(bad, `
      import { load } from "pathlab";
      const pl = await load();
      const g = pl.Grid.fromClasses(1, 1, ".");
      pl.find(g, [0, 0], [0, 0], { algoritm: "jps" });
    `);
    fs.writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: ["bad.ts"] }));
    assert.throws(() => execFileSync(process.execPath, [tsc, "-p", app], { cwd: app, encoding: "utf8", stdio: "pipe" }));
  });
});
