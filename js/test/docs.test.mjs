// The JavaScript examples of the docs run: every ```js block marked <!-- runnable-js --> in the
// README, docs/ and the package's README, as a user's project runs it (the package installed
// offline from its tarball, `import ... from "pathlab"`), in a folder where maps/ is the
// repository's. A `// prints: TEXT` comment is a line the block's output must contain.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { installPacked, root } from "./common.mjs";

const MARKER = /^\s*<!--\s*runnable-js\s*-->\s*$/;

function blocks(file) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; ++i) {
    if (!MARKER.test(lines[i])) continue;
    const open = lines[i + 1] ?? "";
    assert.match(open, /^```(js|javascript|mjs)\s*$/, `${file}:${i + 2}: a runnable-js marker must stand before a \`\`\`js fence`);
    const body = [];
    let j = i + 2;
    for (; j < lines.length && !/^```\s*$/.test(lines[j]); ++j) body.push(lines[j]);
    out.push({ where: `${path.relative(root, file)}:${i + 3}`, code: body.join("\n") + "\n" });
    i = j;
  }
  return out;
}

const files = [path.join(root, "README.md"), path.join(root, "js/package/README.md"),
               ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => path.join(root, "docs", f))];
const all = files.flatMap(blocks);

describe("the docs' JavaScript examples run", () => {
  let installed;
  before(() => {
    installed = installPacked();
    fs.symlinkSync(path.join(root, "maps"), path.join(installed.app, "maps"));
  });
  after(() => fs.rmSync(installed.work, { recursive: true, force: true }));

  it("there are some", () => assert.ok(all.length >= 3, `${all.length} runnable-js blocks`));
  for (const b of all) {
    it(b.where, () => {
      const file = path.join(installed.app, `example-${b.where.replace(/[^a-z0-9]+/gi, "_")}.mjs`);
      fs.writeFileSync(file, b.code);
      const out = execFileSync(process.execPath, [file], { cwd: installed.app, encoding: "utf8" });
      for (const m of b.code.matchAll(/\/\/ prints: (.*)$/gm)) {
        assert.ok(out.includes(m[1].trim()), `${b.where}: the output lacks "${m[1].trim()}":\n${out}`);
      }
    });
  }
});
