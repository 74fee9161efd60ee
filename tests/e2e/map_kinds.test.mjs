// Browser test of the map kinds in the web page (shared docs/DESIGN.md, "Every map a game has"):
// a hex map drawn as hexes (every cell's colour read at its hex centre, computed here from the
// formulas of hex.hpp, not the page's), solved and flowed; thin walls drawn as lines on cell
// edges; a layered map drawn floor beside floor, its solve answering cells with their floor and
// the page marking the link the path takes. Playwright drives Debian's Chromium against
// `pathlab serve` on a free loopback port, on the repository's maps/.
// Usage: node map_kinds.test.mjs PATHLAB_BINARY OUT_DIR   (OUT_DIR receives map_kinds_*.png)
import { chromium } from 'playwright-core';
import { check, chromiumOptions, finish, startServer } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [pathlab, outDir] = process.argv.slice(2);
const maps = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../maps');

const { server, url } = await startServer(pathlab);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlab-e2e-'));
const context = await chromium.launchPersistentContext(profile, chromiumOptions);
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const text = (id) => page.textContent(`#${id}`);
const waitText = (id, re) => page.waitForFunction(([i, src]) => new RegExp(src).test(document.getElementById(i).textContent),
                                                  [id, re.source], { timeout: 30000 });
const stat = (k) => page.textContent(`#stats td[data-k=${k}]`);
const cli = (...args) => JSON.parse(execFileSync(pathlab, ['solve', ...args, '--json']).toString());

// Hex geometry, written out again from libs/grid/include/pathlab/grid/hex.hpp: pointy-odd-r
// centres in hex units (neighbours 1 apart), odd rows shifted right by half a hex.
const CORNER = 1 / Math.sqrt(3), ROW = Math.sqrt(3) / 2;
const hexCentre = (x, y) => [x + 0.5 + (y & 1 ? 0.5 : 0), CORNER + y * ROW];
const WALL = [52, 52, 63], GOAL = [215, 30, 30], EDGE = [32, 32, 40], LINK = [122, 60, 200];
const same = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) <= 6;

/** The colours at points given in drawing units, of the canvas `selector` (cp pixels a unit). */
const pixelsAt = (selector, points) => page.$eval(selector, (cv, pts) => {
  const cp = Number(document.getElementById('canvas').dataset.cellPixels);
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  return pts.map(([u, v]) => {
    const i = (Math.floor(v * cp) * cv.width + Math.floor(u * cp)) * 4;
    return [d[i], d[i + 1], d[i + 2], d[i + 3]];
  });
}, points);
/** Pixels near a colour (within 6) of the canvas `selector` in a box of drawing units. */
const countNear = (selector, colour, box = null) => page.$eval(selector, (cv, [c, b]) => {
  const cp = Number(document.getElementById('canvas').dataset.cellPixels);
  const [x0, y0, x1, y1] = b ? b.map((v) => Math.round(v * cp)) : [0, 0, cv.width, cv.height];
  const d = cv.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 200 && Math.abs(d[i] - c[0]) + Math.abs(d[i + 1] - c[1]) + Math.abs(d[i + 2] - c[2]) <= 6) n++;
  }
  return n;
}, [colour, box]);
/** Clicks the main canvas at a point in drawing units. */
async function clickAt(u, v) {
  const box = await page.locator('#canvas').boundingBox();
  const { width, cp } = await page.$eval('#canvas', (cv) => ({ width: cv.width, cp: Number(cv.dataset.cellPixels) }));
  const scale = box.width / width;
  await page.locator('#canvas').click({ position: { x: u * cp * scale, y: v * cp * scale } });
}
async function loadMap(name) {
  await page.selectOption('#map-select', name);
  await waitText('message', new RegExp(`^${name.replace('.', '\\.')}: `));
  return page.evaluate((n) => fetch(`/api/maps/${n}`).then((r) => r.json()), name);
}
async function runSearch() {
  await page.fill('#speed', '100');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/solve'));
  await page.click('#run');
  const body = await (await answer).json();
  await page.waitForFunction(() => /: (found|no_path)/.test(document.getElementById('message').textContent),
                             null, { timeout: 30000 });
  return body;
}

try {
  await page.goto(url);
  await waitText('message', /seed_maze/);
  const names = await page.$$eval('#map-select option', (os) => os.map((o) => o.value));
  check('the page lists the hex, layered and fenced maps of maps/',
        ['hex_20x14.map', 'tower_2floors.json', 'fences_12x8.tmx'].every((n) => names.includes(n)), JSON.stringify(names));

  // ---- a hex map: drawn as hexes ----------------------------------------------------------
  const hex = await loadMap('hex_20x14.map');
  check('hex: the API says pointy-odd-r', hex.layout === 'pointy-odd-r', hex.layout);
  check('hex: the page drew it as hexes', (await page.$eval('#canvas', (cv) => cv.dataset.layout)) === 'pointy-odd-r');
  const centres = [], squares = [];
  for (let y = 0; y < hex.height; y++) {
    for (let x = 0; x < hex.width; x++) {
      centres.push(hexCentre(x, y));
      // Where the same cell's centre would be were it drawn as a square (in hex-unit pixels).
      squares.push([x + 0.5, y + 0.5]);
    }
  }
  const atHex = await pixelsAt('#canvas', centres);
  const wrong = [];
  atHex.forEach((px, i) => {
    if (same(px, WALL) !== (hex.walls[i] === '1')) wrong.push([i % hex.width, Math.floor(i / hex.width)]);
  });
  check('hex: every cell shows wall or not at its hex centre (odd rows half a hex right)', wrong.length === 0,
        JSON.stringify(wrong.slice(0, 10)));
  const atSquare = await pixelsAt('#canvas', squares.filter(([u, v]) => v * 1 < 12.4));
  let squareWrong = 0;
  atSquare.forEach((px, i) => { if (same(px, WALL) !== (hex.walls[i] === '1')) squareWrong++; });
  check('hex: the same cells read as squares do not match (the check sees the shape)', squareWrong > 5, String(squareWrong));
  // Between two cells of a row the hexes meet on a vertical edge; the corner above that edge
  // belongs to the row above, which is shifted: a wall hex's top corner pokes between the
  // two hexes above it. Sample the wall (9, 3) (even row): its top corner and its two sides.
  const [cx, cy] = hexCentre(9, 3);
  const [top, left, right] = await pixelsAt('#canvas', [[cx, cy - CORNER * 0.85], [cx - 0.45, cy], [cx + 0.45, cy]]);
  check('hex: a wall hex reaches up to its pointy top corner', hex.walls[3 * 20 + 9] === '1' && same(top, WALL) && same(left, WALL) && same(right, WALL),
        JSON.stringify([top, left, right]));

  let answer = await runSearch();
  const hexCli = cli(path.join(maps, 'hex_20x14.map'), '--from', answer.start.join(','), '--to', answer.goal.join(','));
  check('hex: the page\'s A* cost = pathlab solve on the hex map', Math.abs(Number(await stat('cost')) - hexCli.cost) < 1e-6,
        `${await stat('cost')} vs ${hexCli.cost}`);
  const axial = ([x, y]) => [x - (y - (y & 1)) / 2, y];
  const hexSteps = answer.path.every((c, k) => {
    if (k === 0) return true;
    const [q0, r0] = axial(answer.path[k - 1]), [q1, r1] = axial(c);
    return (Math.abs(q1 - q0) + Math.abs(r1 - r0) + Math.abs(q1 - q0 + r1 - r0)) / 2 === 1;
  });
  check('hex: every step of the path is one hex move', hexSteps && answer.path.length > 1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'map_kinds_hex.png') });

  // Flow mode on hex: a click on the hex centre of (10, 7), an odd row, picks that cell.
  await page.check('#flow-mode');
  const flowReq = page.waitForRequest((r) => r.url().endsWith('/api/flow'));
  await clickAt(...hexCentre(10, 7));
  const flowBody = (await flowReq).postDataJSON();
  check('hex flow: a click at a hex centre picks that hex', JSON.stringify(flowBody.goals) === '[[10,7]]', JSON.stringify(flowBody.goals));
  await waitText('flow-status', /reach a goal/);
  const [goalPx] = await pixelsAt('#canvas', [hexCentre(10, 7)]);
  check('hex flow: the goal is shaded red at its hex', same(goalPx, GOAL), JSON.stringify(goalPx));
  // Arrows: drawn on the overlay, dark or light, around the goal's hex neighbours.
  const arrows = await page.$eval('#overlay', (cv) => {
    const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  check('hex flow: arrows are drawn', arrows > 500, String(arrows));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'map_kinds_hex_flow.png') });
  await page.uncheck('#flow-mode');

  // ---- walls on hex edges: the page's geometry puts them on the edge the two hexes share ------
  {
    const geo = await import(new URL('../../web/js/geometry.js', import.meta.url).href);
    const g = geo.makeGeometry({ width: 6, height: 5, layout: 'pointy-odd-r' });
    // Direction codes 0..5 of ALGORITHMS.md from (2, 1) (odd row) and (2, 2) (even row): the
    // neighbour (x, y) pairs written out here, the shared edge = the two corners both hexes have.
    const nbrs = { 1: [[3, 1], [3, 0], [2, 0], [1, 1], [2, 2], [3, 2]], 2: [[3, 2], [2, 1], [1, 1], [1, 2], [1, 3], [2, 3]] };
    const corners = (x, y) => { const [cx, cy] = hexCentre(x, y); return [0, 1, 2, 3, 4, 5].map((k) => [cx + CORNER * Math.cos(Math.PI / 6 + k * Math.PI / 3), cy + CORNER * Math.sin(Math.PI / 6 + k * Math.PI / 3)]); };
    const bad = [];
    for (const y of [1, 2]) {
      for (let d = 0; d < 6; d++) {
        const [nx, ny] = nbrs[y][d];
        const shared = corners(2, y).filter(([a, b]) => corners(nx, ny).some(([c, e]) => Math.hypot(a - c, b - e) < 1e-9));
        const ends = g.edge(2, y, String(d));
        const match = shared.length === 2 && ends.every(([a, b]) => shared.some(([c, e]) => Math.hypot(a - c, b - e) < 1e-9));
        if (!match) bad.push({ y, d, ends, shared });
      }
    }
    check('hex edges: the page draws a wall on hex side d on the edge shared with neighbour d', bad.length === 0, JSON.stringify(bad));
  }

  // ---- thin walls: lines on cell edges ----------------------------------------------------
  const fences = await loadMap('fences_12x8.tmx');
  check('fences: the API lists 16 edge walls', fences.edge_walls && fences.edge_walls.length === 16,
        JSON.stringify(fences.edge_walls));
  // The long fence runs between columns 7 and 8 from row 1 down: a line at x = 8 cells.
  const onEdge = await countNear('#overlay', EDGE, [7.9, 1.2, 8.1, 6.8]);
  const offEdge = await countNear('#overlay', EDGE, [6.2, 1.2, 7.8, 6.8]);
  check('fences: a line is drawn on the edge between columns 7 and 8, none inside the cells', onEdge > 20 && offEdge === 0,
        `${onEdge} on, ${offEdge} off`);
  check('fences: no line where there is no fence (row 0 between columns 7 and 8)',
        (await countNear('#overlay', EDGE, [7.9, 0.1, 8.1, 0.9])) === 0);
  answer = await runSearch();
  const fenceCli = cli(path.join(maps, 'fences_12x8.tmx'));
  check('fences: the page\'s cost = pathlab solve (the path goes round the fences)',
        Math.abs(answer.cost - fenceCli.cost) < 1e-6 && Math.abs(Number(await stat('cost')) - fenceCli.cost) < 1e-3,
        `${answer.cost} vs ${fenceCli.cost}`);
  check('fences: the path crosses column 7|8 only at row 0 (the fence\'s gap)',
        answer.path.every((c, k) => k === 0 || !((answer.path[k - 1][0] === 7 && c[0] === 8) || (answer.path[k - 1][0] === 8 && c[0] === 7))
          || (c[1] === 0 && answer.path[k - 1][1] === 0)), JSON.stringify(answer.path));

  // ---- a layered map: floors side by side, cells with their floor, the link marked -------------
  const tower = await loadMap('tower_2floors.json');
  check('layered: the API gives 2 floors of 10 rows and cells [x, y, layer]',
        tower.layers === 2 && tower.layer_height === 10 && JSON.stringify(tower.start) === '[1,1,0]' &&
        JSON.stringify(tower.goal) === '[6,4,1]', JSON.stringify({ l: tower.layers, h: tower.layer_height, s: tower.start, g: tower.goal }));
  const size = await page.$eval('#canvas', (cv) => ({ w: cv.width, h: cv.height, cp: Number(cv.dataset.cellPixels), layers: cv.dataset.layers }));
  check('layered: the floors are drawn side by side (2 x 16 cells and a gap wide, 10 rows high)',
        size.layers === '2' && size.w === 33 * size.cp && size.h === 10 * size.cp, JSON.stringify(size));
  // Floor 1's wall ring of its inner room: (3, 2) is a wall on floor 1 and free on floor 0.
  const [f0, f1] = await pixelsAt('#canvas', [[3.5, 2.5], [17 + 3.5, 2.5]]);
  check('layered: floor 0 and floor 1 each show their own cells', !same(f0, WALL) && same(f1, WALL), JSON.stringify([f0, f1]));
  answer = await runSearch();
  check('layered: the solve answers every path cell with its floor',
        answer.path.length > 2 && answer.path.every((c) => c.length === 3), JSON.stringify(answer.path));
  const towerCli = cli(path.join(maps, 'tower_2floors.json'));
  check('layered: the page\'s cost = pathlab solve', Math.abs(answer.cost - towerCli.cost) < 1e-6, `${answer.cost} vs ${towerCli.cost}`);
  const taken = await page.$eval('#canvas', (cv) => cv.dataset.linksTaken);
  check('layered: the page found the link the path takes', taken === '[[[13,8,0],[13,8,1]]]', taken);
  check('layered: the message says where the path changes floor', /takes a link: 0:13,8 → 1:13,8/.test(await text('message')),
        await text('message'));
  // The link's ends are ringed in the link colour (floor 0 at x 13.5, floor 1 at 17 + 13.5).
  const ring0 = await countNear('#overlay', LINK, [12.5, 7.5, 14.5, 9.5]);
  const ring1 = await countNear('#overlay', LINK, [29.5, 7.5, 31.5, 9.5]);
  check('layered: both ends of the link taken are marked', ring0 > 30 && ring1 > 30, `${ring0}, ${ring1}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'map_kinds_layered.png') });

  // A click on floor 1 picks a cell of floor 1: flow goals travel as [x, y, layer].
  await page.check('#flow-mode');
  const req = page.waitForRequest((r) => r.url().endsWith('/api/flow'));
  await clickAt(17 + 6.5, 4.5);
  const goals = (await req).postDataJSON().goals;
  check('layered flow: a click on floor 1 picks [x, y, 1]', JSON.stringify(goals) === '[[6,4,1]]', JSON.stringify(goals));
  await waitText('flow-status', /reach a goal/);
  const [foot] = await pixelsAt('#canvas', [[13.5, 8.5]]);
  check('layered flow: floor 0 reaches the goal on floor 1 (the stairs\' foot is shaded)',
        !same(foot, WALL) && !same(foot, [250, 250, 250]), JSON.stringify(foot));
  await page.uncheck('#flow-mode');

  // Plain maps are drawn as before.
  await loadMap('seed_maze.txt');
  check('plain: the maze is square again', (await page.$eval('#canvas', (cv) => cv.dataset.layout)) === 'square');
  check('no errors in the page', errors.length === 0, errors.join(' | '));
} catch (e) {
  check('map kinds test ran to the end', false, e.stack);
} finally {
  await context.close();
  server.kill();
  fs.rmSync(profile, { recursive: true, force: true });
}
finish();
