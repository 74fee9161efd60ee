// The package in a browser: Debian's Chromium (headless, through playwright-core) loads it from a
// plain static file server as an ES module, fetches its .wasm and answers as it does in Node.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createRequire } from "node:module";

import { mapPath, packageDir, pairs, pl, readMap, root } from "./common.mjs";

const require = createRequire(import.meta.url);
const haveBrowser = fs.existsSync("/usr/bin/chromium") && fs.existsSync(path.join(root, "js/test/node_modules/playwright-core"));
const skip = haveBrowser ? false : "needs /usr/bin/chromium and playwright-core: scripts/install-deps.sh --wasm";

const TYPES = { ".json": "application/json", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".txt": "text/plain" };

/** A static file server over `routes` (URL prefix -> folder) on a free loopback port. */
export async function staticServer(routes) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
    for (const [prefix, dir] of Object.entries(routes)) {
      if (!url.startsWith(prefix)) continue;
      const file = path.join(dir, url.slice(prefix.length));
      if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) break;
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      fs.createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404).end("not found");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

describe("the package in Chromium", { skip }, () => {
  let web, browser, page;
  before(async () => {
    web = await staticServer({ "/pkg/": packageDir, "/maps/": path.join(root, "maps") });
    const { chromium } = require("playwright-core");
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium", headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${web.url}/pkg/package.json`);
  });
  after(async () => {
    await browser?.close();
    web?.server.close();
  });

  it("imports, loads the .wasm and answers every query as Node does", async () => {
    const queries = [["astar", [1, 1], [27, 17]], ["jps", [1, 1], [27, 17]], ["jps+", [1, 1], [27, 17]],
                     ["theta", [1, 1], [27, 17]], ["subgoal-ch", [2, 2], [20, 15]]];
    const inPage = await page.evaluate(async (queries) => {
      const t0 = performance.now();
      const { load } = await import("/pkg/index.js");
      const pl = await load();
      const loadMs = performance.now() - t0;
      const text = await (await fetch("/maps/hybrid_30x20.txt")).text();
      const g = pl.Grid.parse(text);
      const out = queries.map(([algorithm, s, t]) => {
        const r = pl.find(g, s, t, { algorithm });
        return { status: r.status, cost: r.cost, expanded: r.expanded, path: Array.from(r.path) };
      });
      let error = null;
      try { pl.find(g, [99, 0], [1, 1]); } catch (e) { error = { message: e.message, isError: e instanceof Error, wasm: e instanceof WebAssembly.RuntimeError }; }
      const f = pl.flowField(g, [[27, 17]]);
      const field = { distance: Array.from(f.distance, (d) => (d === Infinity ? -1 : d)), direction: Array.from(f.direction) };
      f.delete();
      g.delete();
      return { out, error, field, loadMs, algorithms: pl.algorithms() };
    }, queries);
    const g = pl.Grid.parse(readMap(mapPath("hybrid_30x20.txt")));
    queries.forEach(([algorithm, s, t], i) => {
      const r = pl.find(g, s, t, { algorithm });
      assert.equal(inPage.out[i].status, r.status, algorithm);
      assert.equal(inPage.out[i].cost, r.cost, algorithm);
      assert.equal(inPage.out[i].expanded, r.expanded, algorithm);
      assert.deepEqual(inPage.out[i].path, Array.from(r.path), algorithm);
    });
    assert.ok(inPage.error?.isError && !inPage.error.wasm, JSON.stringify(inPage.error));
    assert.match(inPage.error.message, /99,0/);
    const f = pl.flowField(g, [[27, 17]]);
    assert.deepEqual(inPage.field.direction, Array.from(f.direction));
    assert.deepEqual(inPage.field.distance, Array.from(f.distance, (d) => (d === Infinity ? -1 : d)));
    assert.deepEqual(inPage.algorithms, pl.algorithms());
    f.delete();
    g.delete();
    assert.ok(inPage.loadMs < 3000, `the module took ${inPage.loadMs} ms to load`);
  });
});
