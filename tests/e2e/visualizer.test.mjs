// Browser test of the web visualizer: Playwright (playwright-core) drives Debian's Chromium
// headless against `pathlab serve` on a free loopback port.
// Usage: node visualizer.test.mjs PATHLAB_BINARY OUT_DIR   (OUT_DIR receives screenshot.png)
import { chromium } from 'playwright-core';
import { check, chromiumOptions, countColours as countColoursOn, finish, startServer } from './harness.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [pathlab, outDir] = process.argv.slice(2);

const { server, url } = await startServer(pathlab);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlab-e2e-'));
const context = await chromium.launchPersistentContext(profile, { ...chromiumOptions, acceptDownloads: true });
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
const stat = (k) => page.textContent(`#stats td[data-k=${k}]`);
const message = (re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('message').textContent),
                                             re.source, { timeout: 30000 });
// Pixels of exact colours on the canvases (the segment overlays draw with the render module's
// palette colours).
const countColours = (selector, colours) => countColoursOn(page, selector, colours);
const LINE = [230, 80, 0], SMOOTHED = [220, 0, 200], SIGHT = [[0, 190, 60], [230, 0, 0]];
// The colour at the centre of every cell of the main canvas, row-major.
const cellPixels = (cells) => page.$eval('#canvas', (cv, n) => {
  const cp = cv.width / n, d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data, out = [];
  for (let y = 0; y < cv.height / cp; y++) {
    for (let x = 0; x < n; x++) {
      const i = (Math.floor((y + 0.5) * cp) * cv.width + Math.floor((x + 0.5) * cp)) * 4;
      out.push(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    }
  }
  return out;
}, cells);
// Requests the test makes fail on purpose: Chromium logs each as a console error.
let expectedFailures = 0;

try {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('seed_maze'));
  check('the page loads the bundled maze', true);

  // Draw a wall on a free cell off the start's row: (20,2) in the users' maze.
  const box = await page.locator('#canvas').boundingBox();
  const cp = box.width / 30;
  await page.mouse.click(box.x + 20.5 * cp, box.y + 2.5 * cp);

  await page.fill('#speed', '100');
  await page.click('#run');
  await page.waitForFunction(() => document.querySelector('#stats td[data-k=status]').textContent === 'found',
                             null, { timeout: 30000 });
  const pageCost = Number(await stat('cost'));

  // The same map, saved from the page, solved by the CLI.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-text')]);
  const saved = path.join(profile, 'edited.txt');
  await download.saveAs(saved);
  const text = fs.readFileSync(saved, 'utf8');
  check('the drawn wall is in the saved map', text.split('\n')[3][20] === '1', JSON.stringify(text.split('\n')[3]));
  const cli = JSON.parse(execFileSync(pathlab, ['solve', saved, '--json']).toString());
  check('A* cost on the page = pathlab solve --json on the same map', Math.abs(pageCost - cli.cost) < 1e-3,
        `${pageCost} vs ${cli.cost}`);
  check('expanded shown = expanded by the CLI', Number(await stat('expanded')) === cli.expanded);

  // Race three algorithms side by side; every optimal one must show the CLI's cost.
  await page.click('#race');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'race finished',
                             null, { timeout: 30000 });
  const rows = await page.$$eval('#race-results tbody tr', (trs) => trs.map((tr) =>
    [...tr.children].map((td) => td.textContent)));
  check('race: three lanes and three result rows',
        rows.length === 3 && (await page.locator('#race-lanes canvas:not(.overlay)').count()) === 3, JSON.stringify(rows));
  const byName = Object.fromEntries(rows.map((r) => [r[0], r]));
  check('race: astar and dijkstra both show the optimal cost',
        Math.abs(Number(byName.astar?.[2]) - cli.cost) < 1e-3 && Math.abs(Number(byName.dijkstra?.[2]) - cli.cost) < 1e-3,
        JSON.stringify(rows));
  check('race: dijkstra expands more cells than astar', Number(byName.dijkstra?.[4]) > Number(byName.astar?.[4]));

  // Theta*: line-of-sight checks flash while the trace plays; the path is straight segments
  // between turning cells and costs less than A*'s on the same map.
  const algoNames = await page.$$eval('#algorithm option', (os) => os.map((o) => o.value));
  check('the algorithm picker offers theta, lazytheta and anyangle-exact',
        ['theta', 'lazytheta', 'anyangle-exact'].every((a) => algoNames.includes(a)), JSON.stringify(algoNames));
  await page.selectOption('#algorithm', 'theta');
  await page.fill('#speed', '1');
  await page.click('#run');
  await message(/^theta: \d+ events/);
  await page.click('#pause');
  await page.click('#step');
  const [sight] = await countColours('#overlay', SIGHT);
  check('theta: the paused animation shows a line-of-sight check', sight > 0, `${sight} pixels`);
  await page.fill('#speed', '100');
  await page.click('#pause');  // resume
  await message(/^theta: found$/);
  const thetaCost = Number(await stat('cost'));
  check('theta: cost lower than astar on the same map', thetaCost > 0 && thetaCost < pageCost - 1e-6,
        `${thetaCost} vs ${pageCost}`);
  check('theta: line-of-sight checks in the stats', Number(await stat('los_checks')) > 0);
  const [line] = await countColours('#overlay', [LINE]);
  const [sightAfter] = await countColours('#overlay', SIGHT);
  check('theta: the path is drawn as segments, the checks are gone', line > 0 && sightAfter === 0,
        `${line} line, ${sightAfter} sight pixels`);

  // The smooth toggle asks again for what is shown and adds the smoothed cost.
  check('no smoothed cost before the toggle', (await stat('smoothed_cost')) === '–');
  await page.check('#smooth');
  await page.waitForFunction(() => document.querySelector('#stats td[data-k=smoothed_cost]').textContent !== '–',
                             null, { timeout: 30000 });
  check('smooth: theta smoothed cost <= its cost', Number(await stat('smoothed_cost')) <= thetaCost + 1e-3);
  await page.selectOption('#algorithm', 'astar');
  await page.click('#run');
  await message(/^astar: found$/);
  const astarSmoothed = Number(await stat('smoothed_cost'));
  check('smooth: astar smoothed cost below its cost', astarSmoothed > 0 && astarSmoothed < Number(await stat('cost')) - 1e-6,
        `${astarSmoothed} vs ${await stat('cost')}`);
  const [magenta] = await countColours('#overlay', [SMOOTHED]);
  check('smooth: the smoothed path is drawn in its own colour', magenta > 0, `${magenta} pixels`);

  // Race the any-angle searches against A*, smoothing on.
  const picks = page.locator('.race-algo');
  for (const [k, a] of ['theta', 'lazytheta', 'anyangle-exact', 'astar'].entries()) await picks.nth(k).selectOption(a);
  await page.click('#race');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'race finished',
                             null, { timeout: 30000 });
  const anyRows = await page.$$eval('#race-results tbody tr', (trs) => trs.map((tr) =>
    [...tr.children].map((td) => td.textContent)));
  const any = Object.fromEntries(anyRows.map((r) => [r[0], r]));
  check('race: theta and lazytheta cost less than astar',
        Number(any.theta?.[2]) < Number(any.astar?.[2]) && Number(any.lazytheta?.[2]) < Number(any.astar?.[2]),
        JSON.stringify(anyRows));
  check('race: every row has a status and a smoothed cost (or the server\'s message)',
        anyRows.length === 4 && anyRows.every((r) => r[1] !== '' && (r[1] !== 'found' || r[6] !== '–')),
        JSON.stringify(anyRows));
  const laneLines = await countColours('#race-lanes canvas.overlay', [LINE]);
  check('race: the any-angle lanes draw their segments', laneLines.filter((n) => n > 0).length >= 2,
        JSON.stringify(laneLines));

  // Chase mode: the arrow keys move the start and the path re-solves.
  await page.check('#chase');
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('chase'));
  const before = await stat('cost');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => {
    const c = document.querySelector('#stats td[data-k=cost]').textContent;
    return c !== b && c !== '–';
  }, before, { timeout: 10000 });
  check('chase mode: the arrow keys move the start and the cost changes', (await stat('cost')) !== before);

  // Units: the bundled maze again (start 7,2, goal 9,9: a room whose one door, 9,11, is a
  // single cell wide). A unit of radius 1.2 cannot pass that door: the page shades the cells it
  // cannot use and answers as the CLI does for the same unit.
  await page.uncheck('#chase');
  await page.uncheck('#smooth');
  await page.selectOption('#algorithm', 'astar');
  await page.selectOption('#map-select', 'seed_maze.txt');
  await message(/seed_maze/);
  const maze = path.join(process.cwd(), '..', '..', 'maps', 'seed_maze.txt');
  const mazeFile = fs.existsSync(maze) ? maze : path.join(profile, 'maze.txt');
  if (mazeFile !== maze) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download-text')]);
    await dl.saveAs(mazeFile);
  }
  const cliJson = (args) => {
    try {
      return JSON.parse(execFileSync(pathlab, args).toString());
    } catch (e) {  // exit 1 (no path) still prints the JSON
      return JSON.parse(e.stdout.toString());
    }
  };
  await page.fill('#unit-radius', '1.2');
  await page.click('#run');
  await message(/^astar: (found|no_path)$/);
  const cliUnit = cliJson(['solve', mazeFile, '--radius', '1.2', '--json']);
  check('unit radius 1.2: the status and cost of pathlab solve --radius 1.2',
        (await stat('status')) === cliUnit.status && Math.abs(Number(await stat('cost')) - cliUnit.cost) < 1e-3,
        `${await stat('status')} ${await stat('cost')} vs ${cliUnit.status} ${cliUnit.cost}`);
  const [shaded] = await countColours('#canvas', [[180, 180, 200]]);
  check('unit radius 1.2: the cells it cannot use are shaded', shaded > 0, `${shaded} pixels`);
  await page.fill('#unit-radius', '0');
  await page.click('#run');
  await message(/^astar: found$/);
  const [unshaded] = await countColours('#canvas', [[180, 180, 200]]);
  check('radius 0: no shading', unshaded === 0, `${unshaded} pixels`);
  const mazeCost = Number(await stat('cost'));

  // Movement range: every cell within the budget, as pathlab reach counts them.
  await page.fill('#range-budget', '6');
  await page.click('#range');
  await message(/^movement range: \d+ cells/);
  const shown = Number(/(\d+) cells/.exec(await page.textContent('#message'))[1]);
  const cliReach = cliJson(['reach', mazeFile, '--budget', '6', '--json']);
  const [rangePixels] = await countColours('#canvas', [[255, 224, 138]]);
  check('movement range: the cells of pathlab reach, shaded', shown === cliReach.cells.length && rangePixels > 0,
        `${shown} vs ${cliReach.cells.length}, ${rangePixels} pixels`);

  // Live repair: walls drawn go to the server's map; the kept finder repairs and answers.
  const repair = (re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('repair-stats').textContent),
                                              re.source, { timeout: 30000 });
  await page.check('#live-repair');
  await repair(/query .* found$/);
  check('live repair: the first answer is the path on the unedited map', Math.abs(Number(await stat('cost')) - mazeCost) < 1e-6);
  const mcp = (await page.locator('#canvas').boundingBox()).width / 30;
  const door = { position: { x: 9.5 * mcp, y: 11.5 * mcp } };  // scrolled into view first
  await page.locator('#canvas').click(door);  // wall the room's door
  await repair(/^1 edit .*repair .*no_path$/);
  check('live repair: walling the door leaves no path, with edit and repair times shown', true);
  await page.locator('#canvas').click(door);  // and open it again
  await repair(/^1 edit .*found$/);
  check('live repair: reopening the door gives the old cost again', Math.abs(Number(await stat('cost')) - mazeCost) < 1e-6,
        `${await stat('cost')} vs ${mazeCost}`);
  await page.uncheck('#live-repair');

  // Flow field: a goal clicked on the hybrid map; the page shows as many reachable cells as
  // pathlab flow counts, shades them and draws their arrows; a goal on a wall shows the error.
  await page.selectOption('#map-select', 'hybrid_30x20.txt');
  await message(/hybrid_30x20/);
  const hybrid = path.join(process.cwd(), '..', '..', 'maps', 'hybrid_30x20.txt');
  const hybridFile = fs.existsSync(hybrid) ? hybrid : path.join(profile, 'hybrid.txt');
  if (hybridFile !== hybrid) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download-text')]);
    await dl.saveAs(hybridFile);
  }
  const flowStatus = (re) => page.waitForFunction((src) => new RegExp(src).test(document.getElementById('flow-status').textContent),
                                                  re.source, { timeout: 30000 });
  await page.check('#flow-mode');
  await flowStatus(/^click the map to pick goals$/);
  const plain = await cellPixels(30);
  const [overlayBefore] = await page.$$eval('#overlay', (cvs) => cvs.map((cv) =>
    cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data.filter((v, i) => i % 4 === 3 && v > 0).length));
  const fcp = (await page.locator('#canvas').boundingBox()).width / 30;
  await page.locator('#canvas').click({ position: { x: 25.5 * fcp, y: 10.5 * fcp } });
  await flowStatus(/^\d+ cells reach a goal · built in [\d.]+ µs$/);
  const flowShown = Number(/^(\d+)/.exec(await page.textContent('#flow-status'))[1]);
  const cliFlow = cliJson(['flow', hybridFile, '--to', '25,10', '--json']);
  check('flow: the page shows the reachable count of pathlab flow --to 25,10', flowShown === cliFlow.reachable,
        `${flowShown} vs ${cliFlow.reachable}`);
  const shadedNow = await cellPixels(30);
  const changed = shadedNow.filter((c, i) => c !== plain[i]).length;
  check('flow: every reachable cell is shaded, the goal red', changed >= cliFlow.reachable &&
        shadedNow[10 * 30 + 25] === '215,30,30', `${changed} cells changed, goal ${shadedNow[10 * 30 + 25]}`);
  check('flow: near cells light, far cells dark', (() => {
    const sum = (c) => c.split(',').map(Number).reduce((a, b) => a + b, 0);
    return sum(shadedNow[10 * 30 + 24]) > sum(shadedNow[0]) + 150;  // beside the goal, the far corner
  })(), `${shadedNow[10 * 30 + 24]} vs ${shadedNow[0]}`);
  const [overlayAfter] = await page.$$eval('#overlay', (cvs) => cvs.map((cv) =>
    cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data.filter((v, i) => i % 4 === 3 && v > 0).length));
  check('flow: arrows are drawn over the cells', overlayAfter > overlayBefore + 1000, `${overlayBefore} -> ${overlayAfter}`);
  const [wallAnswer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/flow')),
    page.locator('#canvas').click({ position: { x: 22.5 * fcp, y: 0.5 * fcp } }),  // (22,0) is a wall
  ]);
  expectedFailures++;
  const wallError = (await wallAnswer.json()).error;
  await page.waitForFunction((m) => document.getElementById('flow-status').textContent === m, wallError);
  check('flow: a goal on a wall shows the server\'s message', wallAnswer.status() === 422 && /wall/.test(wallError),
        `${wallAnswer.status()} ${wallError}`);
  check('flow: the field of the goals before stays', (await cellPixels(30))[10 * 30 + 25] === '215,30,30');
  await page.click('#flow-clear');
  await flowStatus(/^click the map to pick goals$/);
  const cleared = await cellPixels(30);
  check('flow: clearing the goals takes the shading away',
        cleared.filter((c, i) => c !== plain[i]).length === 0);
  await page.locator('#canvas').click({ position: { x: 25.5 * fcp, y: 10.5 * fcp } });
  await flowStatus(/cells reach a goal/);
  // Sectors: a unit shift-clicked at (2,2), 8-cell sectors: the field only on the sectors on its
  // way, as pathlab flow --from builds it.
  await page.check('#flow-sectors');
  await page.selectOption('#flow-sector', '8');
  await page.locator('#canvas').click({ position: { x: 2.5 * fcp, y: 2.5 * fcp }, modifiers: ['Shift'] });
  await flowStatus(/^\d+ cells reach a goal · \d+ of 12 sectors built · built in/);
  const sectorText = await page.textContent('#flow-status');
  const cliSectors = cliJson(['flow', hybridFile, '--to', '25,10', '--from', '2,2', '--sector', '8', '--json']);
  const builtShown = Number(/· (\d+) of 12 sectors/.exec(sectorText)[1]);
  check('flow: sectors — the page shows pathlab flow --from\'s corridor (cells and sectors built)',
        builtShown === cliSectors.sectors_built.filter((b) => b === 1).length &&
        Number(/^(\d+)/.exec(sectorText)[1]) === cliSectors.reachable && cliSectors.reachable < cliFlow.reachable,
        `${sectorText} vs ${cliSectors.reachable} cells, ${cliSectors.sectors_built}`);
  await page.uncheck('#flow-sectors');
  await flowStatus(/^\d+ cells reach a goal · built in/);

  fs.mkdirSync(outDir, { recursive: true });
  await page.screenshot({ path: path.join(outDir, 'screenshot.png'), fullPage: true });
  check('screenshot saved', fs.statSync(path.join(outDir, 'screenshot.png')).size > 1000);
  // Leaving flow mode brings the search view's map back.
  await page.uncheck('#flow-mode');
  check('flow: leaving flow mode shows the map again',
        (await cellPixels(30)).filter((c, i) => c !== plain[i]).length === 2);  // the S and G markers
  const unexpected = errors.filter((e) => !(/status of 422/.test(e) && expectedFailures-- > 0));
  check('no errors in the page', unexpected.length === 0, JSON.stringify(unexpected));
} catch (e) {
  check('browser test ran to the end', false, e.message);
} finally {
  await context.close();
  server.kill('SIGINT');
  fs.rmSync(profile, { recursive: true, force: true });
}
finish();
