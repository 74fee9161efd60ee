// The Node example (examples/node/route.mjs) runs as a user runs it: beside the package installed
// offline from its tarball, on a bundled map; a bad cell gives its message and exit code 2.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { cli, installPacked, root } from "./common.mjs";

describe("examples/node/route.mjs", () => {
  let installed, script;
  before(() => {
    installed = installPacked();
    script = path.join(installed.app, "route.mjs");
    fs.copyFileSync(path.join(root, "examples/node/route.mjs"), script);
  });
  after(() => fs.rmSync(installed.work, { recursive: true, force: true }));

  it("finds the path the command finds, draws it, and brings the units home", () => {
    const map = path.join(root, "maps/seed_maze.txt");
    const run = spawnSync(process.execPath, [script, map, "7,2", "9,9", "jps"], { cwd: installed.app, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const theirs = cli(["solve", map, "--from", "7,2", "--to", "9,9", "--algo", "jps"]).json;
    assert.match(run.stdout, new RegExp(`jps: found, cost ${theirs.cost.toFixed(3)}`));
    assert.equal((run.stdout.match(/\*/g) ?? []).length, theirs.path.length);
    assert.match(run.stdout, /10 of 10 units reached the goal/);
  });

  it("a start on a wall: the library's message, exit code 2", () => {
    const run = spawnSync(process.execPath, [script, path.join(root, "maps/seed_maze.txt"), "0,0", "9,9"], { cwd: installed.app, encoding: "utf8" });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /route: start 0,0 is a wall/);
  });
});
