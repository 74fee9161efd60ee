// Browser test of free points: with anyangle-exact, S and G dragged to exact positions in map
// units, the request sends those fractional coordinates (POST /api/solve between points), and
// the path returned and drawn starts and ends there; with any other algorithm the page sends
// cells as before. Playwright (playwright-core) drives Debian's Chromium headless against
// `pathlab serve` on a free loopback port.
// Usage: node points.test.mjs PATHLAB_BINARY OUT_DIR   (OUT_DIR receives points.png)
import { chromium } from 'playwright-core';
import { check, chromiumOptions, finish, startServer } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [pathlab, outDir] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SNAP = 1 / 8192;  // the library holds points to 1/4096 of a cell
const LINE = [230, 80, 0];

const { server, url } = await startServer(pathlab);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlab-e2e-'));
const context = await chromium.launchPersistentContext(profile, chromiumOptions);
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const message = (re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('message').textContent),
                                             re.source, { timeout: 30000 });
const stat = (k) => page.textContent(`#stats td[data-k=${k}]`);
/** Clicks Run and resolves to [the /api/solve request's body, its answer]. */
async function runSolve() {
  const [req] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/api/solve')), page.click('#run')]);
  const res = await req.response();
  return [req.postDataJSON(), await res.json()];
}
const near = (a, b, tol) => Math.abs(a - b) <= tol;
const isFraction = (v) => typeof v === 'number' && !Number.isInteger(v);

try {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('seed_maze'));
  const maze = await (await fetch(`${url}api/maps/seed_maze.txt`)).json();
  const [sx, sy] = maze.start, [gx, gy] = maze.goal;
  const box = await page.locator('#canvas').boundingBox();
  const cp = box.width / maze.width;
  await page.fill('#speed', '100');

  check('free points are offered only with an algorithm that takes any point',
        await page.isDisabled('#free-points'));
  const algos = await (await fetch(`${url}api/algorithms`)).json();
  check('/api/algorithms names the algorithms that take any point',
        JSON.stringify(algos.points) === JSON.stringify(['anyangle-exact', 'anyangle-labels']), JSON.stringify(algos.points));
  await page.selectOption('#algorithm', 'anyangle-exact');
  check('anyangle-exact offers free points', !(await page.isDisabled('#free-points')));
  await page.check('#free-points');

  // Drag S from its cell's centre to a point off it (in the same cell), and G likewise.
  const drag = async ([cx, cy], [u, v]) => {
    await page.mouse.move(box.x + (cx + 0.5) * cp, box.y + (cy + 0.5) * cp);
    await page.mouse.down();
    await page.mouse.move(box.x + u * cp, box.y + v * cp, { steps: 4 });
    await page.mouse.up();
  };
  const s = [sx + 0.23, sy + 0.71], g = [gx + 0.62, gy + 0.17];
  await drag(maze.start, s);
  await drag(maze.goal, g);
  const [sent, answer] = await runSolve();
  const pixel = 1 / cp;  // the mouse lands within a pixel of the point aimed at
  check('the request sends fractional start and goal', sent.start.some(isFraction) && sent.goal.some(isFraction),
        JSON.stringify([sent.start, sent.goal]));
  check('the points sent are where S and G were dragged',
        near(sent.start[0], s[0], pixel) && near(sent.start[1], s[1], pixel) &&
        near(sent.goal[0], g[0], pixel) && near(sent.goal[1], g[1], pixel),
        JSON.stringify([sent.start, s, sent.goal, g]));
  check('no smoothing is asked for between points', sent.smooth === false);
  await message(/^anyangle-exact: found$/);
  const first = answer.points[0], last = answer.points[answer.points.length - 1];
  check('the returned path starts at the start point and ends at the goal point',
        near(first[0], sent.start[0], SNAP) && near(first[1], sent.start[1], SNAP) &&
        near(last[0], sent.goal[0], SNAP) && near(last[1], sent.goal[1], SNAP),
        JSON.stringify([first, sent.start, last, sent.goal]));
  check('the cells under the points are the answer\'s start and goal',
        JSON.stringify(answer.start) === JSON.stringify([sx, sy]) && JSON.stringify(answer.goal) === JSON.stringify([gx, gy]),
        JSON.stringify([answer.start, answer.goal]));
  const drawn = JSON.parse(await page.getAttribute('#canvas', 'data-points'));
  check('the page draws the returned points', JSON.stringify(drawn) === JSON.stringify(answer.points));
  // The path's first vertex is drawn on the overlay at the start point.
  const at = await page.$eval('#overlay', (cv, [u, v]) => {
    const x = Math.round(u), y = Math.round(v), d = cv.getContext('2d').getImageData(x - 1, y - 1, 3, 3).data, out = [];
    for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2], d[i + 3]]);
    return out;
  }, [first[0] * cp, first[1] * cp]);
  check('the path is drawn from the start point', at.some((c) => c[0] === LINE[0] && c[1] === LINE[1] && c[2] === LINE[2] && c[3] === 255),
        JSON.stringify(at));
  // The CLI between the same points gives the same cost.
  const cli = JSON.parse(execFileSync(pathlab, ['solve', path.join(root, 'maps', 'seed_maze.txt'), '--algo', 'anyangle-exact',
    '--from', `${sent.start[0]},${sent.start[1]}`, '--to', `${sent.goal[0]},${sent.goal[1]}`, '--json']).toString());
  check('the cost shown = pathlab solve --from X.x,Y.y on the same points',
        near(Number(await stat('cost')), cli.cost, 1e-3) && near(answer.cost, cli.cost, 1e-9), `${answer.cost} vs ${cli.cost}`);
  fs.mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: path.join(outDir, 'points.png') });

  // S dragged straight onto a wall stays where it was.
  const wall = (() => {
    for (let y = 0; y < maze.height; y++) {
      for (let x = 0; x < maze.width; x++) {
        if (maze.walls[y * maze.width + x] === '1' && Math.hypot(x - sx, y - sy) < 4) return [x, y];
      }
    }
    return null;
  })();
  if (wall) {
    await page.mouse.move(box.x + s[0] * cp, box.y + s[1] * cp);
    await page.mouse.down();
    await page.mouse.move(box.x + (wall[0] + 0.4) * cp, box.y + (wall[1] + 0.6) * cp, { steps: 1 });
    await page.mouse.up();
    const [again] = await runSolve();
    check('a point dragged onto a wall stays in free space', JSON.stringify(again.start) === JSON.stringify(sent.start),
          JSON.stringify([again.start, sent.start, wall]));
    await message(/^anyangle-exact: found$/);
  }

  // Any other algorithm: cells, as before (the box stays checked).
  await page.selectOption('#algorithm', 'theta');
  check('theta does not offer free points', await page.isDisabled('#free-points'));
  const [cells, thetaAnswer] = await runSolve();
  check('theta: the request sends the cells', JSON.stringify(cells.start) === JSON.stringify([sx, sy]) &&
        JSON.stringify(cells.goal) === JSON.stringify([gx, gy]), JSON.stringify([cells.start, cells.goal]));
  await message(/^theta: found$/);
  check('theta: the path starts at the start cell\'s centre',
        JSON.stringify(thetaAnswer.points[0]) === JSON.stringify([sx + 0.5, sy + 0.5]), JSON.stringify(thetaAnswer.points[0]));
  // Back to anyangle-exact: the points kept; the box unchecked, cells again.
  await page.selectOption('#algorithm', 'anyangle-exact');
  const [kept] = await runSolve();
  check('anyangle-exact again: the points are kept', JSON.stringify(kept.start) === JSON.stringify(sent.start));
  await message(/^anyangle-exact: found$/);
  await page.uncheck('#free-points');
  const [unchecked] = await runSolve();
  check('free points off: anyangle-exact sends the cells', JSON.stringify(unchecked.start) === JSON.stringify([sx, sy]),
        JSON.stringify(unchecked.start));
  await message(/^anyangle-exact: found$/);
  check('no page errors', errors.length === 0, JSON.stringify(errors));
} catch (e) {
  check('the test ran to its end', false, e.stack);
} finally {
  await context.close();
  server.kill();
  fs.rmSync(profile, { recursive: true, force: true });
}
finish();
