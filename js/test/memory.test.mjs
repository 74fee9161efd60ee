// WebAssembly memory: delete() frees a grid, a field and a grid's finders; a deleted object
// throws an Error; objects a program forgets are freed by the FinalizationRegistry (run in a child
// Node with --expose-gc). Both make 100 grids of 2048 x 2048 cells with a jps finder each, about
// 64 MB together (measured): 6 GB in all, more than a 32-bit module's 4 GB can hold at once.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";

import { packageDir, pl } from "./common.mjs";

// The start of the child scripts: the package loaded, and a 2048 x 2048 map with one wall on the
// diagonal, so that every query searches (and allocates its search state): a free octile path is
// answered without a search.
const childPrelude = `
  import { load } from ${JSON.stringify(pathToFileURL(path.join(packageDir, "index.js")).href)};
  const pl = await load();
  const text = ".".repeat(1024 * 2048 + 1024) + "@" + ".".repeat(1024 * 2048 - 1025);`;

describe("memory", () => {
  it("delete() twice is harmless; a deleted grid or field throws an Error", () => {
    const g = pl.Grid.fromClasses(3, 3, ".........");
    const f = pl.flowField(g, [[1, 1]]);
    f.delete();
    f.delete();
    g.delete();
    g.delete();
    assert.throws(() => g.width, /deleted/);
    assert.throws(() => pl.find(g, [0, 0], [2, 2]), /deleted/);
    assert.throws(() => f.distance, /deleted/);
  });

  it("a field's arrays stay readable after the module's memory grows", () => {
    const g = pl.Grid.fromClasses(64, 64, ".".repeat(64 * 64));
    const f = pl.flowField(g, [[0, 0]]);
    const d = f.distance;
    const big = [];
    for (let i = 0; i < 8; ++i) big.push(pl.Grid.fromClasses(2048, 2048, ".".repeat(2048 * 2048)));
    assert.equal(d.length, 64 * 64);
    assert.ok(Math.abs(d[63 * 64 + 63] - 63 * Math.SQRT2) < 1e-9);
    for (const b of big) b.delete();
    f.delete();
    g.delete();
  });

  it("deleting grids gives their memory back, their finders' too", () => {
    const text = ".".repeat(2048 * 2048);
    for (let i = 0; i < 100; ++i) {
      const g = pl.Grid.fromClasses(2048, 2048, text);
      assert.equal(pl.find(g, [0, 0], [2047, 2047], { algorithm: "jps" }).status, "found");
      g.delete();
    }
  });

  it("forgotten grids and finders are freed by the FinalizationRegistry", () => {
    const script = `${childPrelude}
      for (let i = 0; i < 100; ++i) {
        const g = pl.Grid.fromClasses(2048, 2048, text);
        pl.find(g, [0, 0], [2047, 2047], { algorithm: "jps" });
        if (i % 10 === 9) { globalThis.gc(); await new Promise((r) => setTimeout(r, 0)); }
      }
      console.log("ok");
    `;
    const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
    assert.equal(out.trim(), "ok");
  });
});

describe("running out of memory", () => {
  it("is an Error with status out_of_memory, and the module recovers once memory is freed", () => {
    const script = `${childPrelude}
      const kept = [];
      let error = null;
      for (let i = 0; i < 200 && !error; ++i) {
        try {
          const g = pl.Grid.fromClasses(2048, 2048, text);
          kept.push(g);
          pl.find(g, [0, 0], [2047, 2047], { algorithm: "jps" });
        } catch (e) {
          error = e;
        }
      }
      for (const g of kept) g.delete();
      const g = pl.Grid.fromClasses(2048, 2048, text);
      const after = pl.find(g, [0, 0], [2047, 2047], { algorithm: "jps" }).status;
      console.log(JSON.stringify({ kept: kept.length, message: error?.message, status: error?.status,
                                   isError: error instanceof Error, after }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    assert.ok(out.isError, JSON.stringify(out));
    assert.equal(out.status, "out_of_memory");
    assert.match(out.message, /memory ran out/);
    assert.ok(out.kept > 20, `only ${out.kept} grids before memory ran out`);
    assert.equal(out.after, "found");
  });
});
