// What the package's tests share: where the package, the native command and ../shared are (set
// by scripts/wasm.sh test), the module loaded once, and the command's JSON answers.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const packageDir = process.env.PATHLAB_PACKAGE ?? path.join(root, "build-wasm/js/package");
export const pathlab = process.env.PATHLAB_CLI ?? path.join(root, "build/apps/cli/pathlab");
export const shared = process.env.PATHLAB_SHARED ?? path.join(root, "../shared");
export const movingai = path.join(shared, "benchmarks/movingai");
export const hasMovingAI = fs.existsSync(path.join(movingai, "den520d.map"));
export const skipShared = hasMovingAI ? false : `${movingai} not found: the shared-map checks need ../shared`;

export const { load } = await import(pathToFileURL(path.join(packageDir, "index.js")).href);
export const pl = await load();

export const mapPath = (name) => path.join(root, "maps", name);
export const readMap = (file) => fs.readFileSync(file, "utf8");

/** `pathlab ARGS --json`: {status: exit code, json} (json null when it printed none). */
export function cli(args) {
  const run = spawnSync(pathlab, [...args, "--json"], { encoding: "utf8", maxBuffer: 1 << 28 });
  let json = null;
  try { json = JSON.parse(run.stdout); } catch { /* an error: stderr has it */ }
  return { code: run.status, json, stderr: run.stderr };
}

export function algorithmsOfCli() {
  return JSON.parse(execFileSync(pathlab, ["algorithms", "--json"], { encoding: "utf8" })).algorithms;
}

/** [[x, y], …] from a flat Int32Array path. */
export function pairs(flat) {
  const out = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/** The Moving AI tolerance of ALGORITHMS.md. */
export const matches = (cost, optimum) => Math.abs(cost - optimum) <= 0.005 + 1e-5 * optimum;

/** Scenario lines of a .scen file: {sx, sy, gx, gy, opt, line}. */
export function readScen(file) {
  return fs.readFileSync(file, "utf8").split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => {
    const f = l.trim().split(/\s+/);
    return { sx: +f[4], sy: +f[5], gx: +f[6], gy: +f[7], opt: +f[8], line: l };
  });
}

/** Every k-th element, n in all (a fixed even sample). */
export function evenSample(all, n) {
  if (all.length <= n) return all;
  return Array.from({ length: n }, (_, i) => all[Math.floor((i * all.length) / n)]);
}

/**
 * `npm pack` of the package, installed offline into a new folder as a user's project would:
 * returns {work, app, tarball}; `import ... from "pathlab"` works in files under app.
 */
export function installPacked() {
  const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pathlab-npm-"));
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work, packageDir], work));
  const tarball = path.join(work, packed[0].filename);
  const app = path.join(work, "app");
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  // --offline: nothing may come from the registry; the tarball has no dependencies to fetch.
  npm(["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", tarball], app);
  return { work, app, tarball, npm };
}
