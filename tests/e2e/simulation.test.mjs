// Browser test of the simulation view: Playwright (playwright-core) drives Debian's Chromium
// headless against `pathlab serve` on a free loopback port. The server runs the world; the test
// checks that the page plays it, steps it, drops obstacles into it and drives a chase target.
// Usage: node simulation.test.mjs PATHLAB_BINARY OUT_DIR   (OUT_DIR receives simulation.png)
import { chromium } from 'playwright-core';
import { check, chromiumOptions, finish, startServer } from './harness.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [pathlab, outDir] = process.argv.slice(2);
const scenariosDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'scenarios');

const { server, url } = await startServer(pathlab);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlab-e2e-sim-'));
const context = await chromium.launchPersistentContext(profile, chromiumOptions);
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

const text = (selector) => page.textContent(selector);
// Requests the test makes fail on purpose: Chromium logs each as a console error.
let expectedFailures = 0;
const ticks = async () => Number(await text('#sim-ticks'));
const agentCell = async (column) => page.textContent(`#sim-agents tbody tr:first-child td:nth-child(${column})`);
const goal = async () => (await agentCell(4)).split(',').map(Number);
const waitText = (selector, re, timeout = 30000) => page.waitForFunction(
  ([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''),
  [selector, re.source], { timeout });
// A checksum of the canvas's pixels: it changes when anything drawn moves.
const canvasSum = () => page.$eval('#sim-canvas', (cv) => {
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 4) h = (Math.imul(h, 31) + d[i] * 65536 + d[i + 1] * 256 + d[i + 2]) | 0;
  return h;
});
const pixel = (x, y) => page.$eval('#sim-canvas', (cv, [px, py]) =>
  [...cv.getContext('2d').getImageData(px, py, 1, 1).data], [x, y]);
async function loadScenario(file) {
  await page.selectOption('#sim-scenario', file);
  await page.waitForFunction((f) => {
    const rows = document.querySelectorAll('#sim-agents tbody tr');
    return document.getElementById('sim-ticks').textContent === '0' && rows.length > 0 &&
      !document.getElementById('sim-message').textContent.startsWith('loading');
  }, file, { timeout: 30000 });
}

try {
  await page.goto(url);
  await page.click('#views button[data-view=sim]');
  await waitText('#sim-message', /L-shaped/);
  check('the simulation view opens on hybrid_l_trap', (await page.inputValue('#sim-scenario')) === 'hybrid_l_trap.json');
  check('the search view is hidden', !(await page.isVisible('#canvas')));
  const shipped = fs.readdirSync(scenariosDir).filter((f) => f.endsWith('.json')).length;
  const offered = await page.$$eval('#sim-scenario option', (os) => os.length);
  check('every shipped scenario is offered', offered === shipped, `${offered} of ${shipped}`);
  check('no rally-point controls without flow agents', !(await page.isVisible('#sim-click')));

  // Play until the agent arrives: time advances and the picture moves.
  const sum0 = await canvasSum();
  await page.selectOption('#sim-speed', '16');
  await page.click('#sim-play');
  await page.waitForFunction(() => Number(document.getElementById('sim-ticks').textContent) > 20);
  const sum1 = await canvasSum();
  check('playing moves the picture', sum1 !== sum0);
  await waitText('#sim-agents tbody tr:first-child td:nth-child(3)', /^arrived/, 60000);
  await waitText('#sim-message', /^finished/);
  const t = parseFloat(await text('#sim-time'));
  check('play runs until the agent arrives', t > 1 && (await ticks()) > 20, `${t} s`);
  check('the L obstacle appeared and is counted', Number(await text('#sim-obstacles')) === 1);
  const replans = (await text('#sim-replans')).split('/').map(Number);
  check('replan counters are shown', replans.length === 2 && replans.every(Number.isInteger),
        await text('#sim-replans'));
  check('travelled and optimal lengths are shown', Number(await agentCell(5)) >= Number(await agentCell(6)) - 1e-6 &&
        Number(await agentCell(6)) > 0, `${await agentCell(5)} vs ${await agentCell(6)}`);

  // Step: exactly one tick per click.
  await page.click('#sim-restart');
  await waitText('#sim-ticks', /^0$/);
  for (let k = 1; k <= 3; k++) {
    await page.click('#sim-step');
    await waitText('#sim-message', new RegExp(`tick ${k}\\)`));
    const n = await ticks();
    check(`step ${k}: tick ${k}, time ${k} x 0.05 s`, n === k && (await text('#sim-time')) === `${(0.05 * k).toFixed(2)} s`,
          `${n} ticks, ${await text('#sim-time')}`);
  }

  // Clicking the canvas drops a disc: one more obstacle, drawn where the click was.
  const before = Number(await text('#sim-obstacles'));
  const box = await page.locator('#sim-canvas').boundingBox();
  const width = await page.$eval('#sim-canvas', (cv) => cv.width);
  const cp = width / 30;  // hybrid_30x20
  const [cx, cy] = [1.5 * cp, 18.5 * cp];  // a free cell away from the plan's line
  const under = await pixel(Math.round(cx), Math.round(cy));
  check('the floor is drawn free before the drop', under.slice(0, 3).join() === '250,250,250', `${under}`);
  await page.mouse.click(box.x + cx, box.y + cy);
  await waitText('#sim-message', /^dropped disc/);
  check('dropping a disc adds one obstacle', Number(await text('#sim-obstacles')) === before + 1,
        `${before} -> ${await text('#sim-obstacles')}`);
  // The obstacle colour, rgba(90, 90, 110, 0.85), over the floor. The drawing follows the
  // server's answer by a frame or more (more on a loaded machine): poll for up to 10 s.
  const isDisc = (p) => [114, 114, 131].every((c, k) => Math.abs(p[k] - c) <= 3);
  let over = await pixel(Math.round(cx), Math.round(cy));
  for (const t0 = Date.now(); !isDisc(over) && Date.now() - t0 < 10000;) {
    await page.waitForTimeout(50);
    over = await pixel(Math.round(cx), Math.round(cy));
  }
  check('the disc is drawn where the click was', isDisc(over), `${under} -> ${over}`);
  await page.selectOption('#sim-shape', 'l');
  await page.mouse.click(box.x + 25.5 * cp, box.y + 2.5 * cp);
  await waitText('#sim-message', /^dropped polygon/);
  check('an L polygon drops too', Number(await text('#sim-obstacles')) === before + 2);
  await page.click('#sim-step');
  await waitText('#sim-message', /tick 4\)/);
  check('stepping keeps the dropped obstacles', Number(await text('#sim-obstacles')) === before + 2);

  // Chase: the keyboard drives the target.
  check('the drive toggle is off without a chase', await page.isDisabled('#sim-drive'));
  await loadScenario('chase_target.json');
  check('the drive toggle is on with a chase', await page.isEnabled('#sim-drive'));
  await page.check('#sim-drive');
  const g0 = await goal();
  const drove = page.waitForResponse((r) => r.url().endsWith('/target') && r.ok());
  await page.keyboard.down('ArrowUp');
  await drove;
  for (let k = 1; k <= 10; k++) {
    await page.click('#sim-step');
    await waitText('#sim-message', new RegExp(`tick ${k}\\)`));
  }
  const g1 = await goal();
  const stopped = page.waitForResponse((r) => r.url().endsWith('/target') && r.ok());
  await page.keyboard.up('ArrowUp');
  await stopped;
  check('ArrowUp drives the target up (the route alone would move it right)',
        Math.abs(g1[0] - g0[0]) < 0.006 && Math.abs(g1[1] - (g0[1] - 10 * 0.05 * 1.5)) < 0.006,
        `${g0} -> ${g1}`);
  for (let k = 11; k <= 13; k++) {
    await page.click('#sim-step');
    await waitText('#sim-message', new RegExp(`tick ${k}\\)`));
  }
  const g2 = await goal();
  check('releasing the key stops the target', g2[0] === g1[0] && g2[1] === g1[1], `${g1} -> ${g2}`);
  const right = page.waitForResponse((r) => r.url().endsWith('/target') && r.ok());
  await page.keyboard.down('d');
  await right;
  await page.click('#sim-step');
  await waitText('#sim-message', /tick 14\)/);
  await page.keyboard.up('d');
  check('WASD drives it too', (await goal())[0] > g2[0]);

  // The planner override reaches the server.
  await page.selectOption('#sim-planner', 'apf');
  await waitText('#sim-agents tbody tr:first-child td:nth-child(2)', /^apf$/);
  check('the planner override applies to every agent', (await agentCell(2)) === 'apf');

  fs.mkdirSync(outDir, { recursive: true });
  await page.selectOption('#sim-planner', '');
  await loadScenario('hybrid_five_points.json');
  await page.selectOption('#sim-speed', '4');
  await page.click('#sim-play');
  await page.waitForFunction(() => Number(document.getElementById('sim-ticks').textContent) > 150, null,
                             { timeout: 30000 });
  await page.click('#sim-pause');
  await page.screenshot({ path: path.join(outDir, 'simulation.png'), fullPage: true });
  check('screenshot saved', fs.statSync(path.join(outDir, 'simulation.png')).size > 1000);

  // A crowd of 500 flow agents: the field they follow is drawn under them, a click sets their
  // rally point (every agent on its way is sent), and they walk toward it in real time.
  await page.selectOption('#sim-speed', '1');
  await loadScenario('army_500.json');
  await waitText('#sim-field', /^agent 1's field, goal cell 109, 69: \d+ cells reach a goal/);
  check('army_500: the initial field is shown, clicks set the rally point',
        (await page.isVisible('#sim-click')) && (await page.inputValue('#sim-click')) === 'rally');
  const armyCp = (await page.$eval('#sim-canvas', (cv) => cv.width)) / 120;
  const at = (x, y) => ({ position: { x: x * armyCp, y: y * armyCp } });
  const nearRally = [Math.round(62.5 * armyCp), Math.round(40.5 * armyCp)];  // two cells right of it
  const shadeBefore = await pixel(...nearRally);
  const arrivedBefore = Number((await text('#sim-arrived')).split('/')[0]);
  const [rallied] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/goal')),
    page.locator('#sim-canvas').click(at(60.5, 40.5)),
  ]);
  const rally = await rallied.json();
  const onTheirWay = rally.agents.filter((a) => !a.arrived).length;
  check('rally: "sent" = the agents not yet arrived', rally.sent === onTheirWay && rally.sent === 500 - arrivedBefore,
        `sent ${rally.sent}, ${onTheirWay} on their way, ${arrivedBefore} arrived before`);
  check('rally: every agent heads for the clicked cell\'s centre',
        rally.agents.every((a) => a.arrived || (a.goal[0] === 60.5 && a.goal[1] === 40.5)));
  await waitText('#sim-message', new RegExp(`^rally point 60\\.5, 40\\.5: ${rally.sent} agents sent`));
  await waitText('#sim-field', new RegExp(`^rally point 60\\.5, 40\\.5: ${rally.field.reachable} cells reach a goal`));
  check('rally: a click in rally mode drops no obstacle', Number(await text('#sim-obstacles')) === 0);
  // The new field: pale yellow beside the rally point (teal-blue before, far from the old goal).
  const pale = (p) => p[0] > 220 && p[0] - p[2] > 20;
  let shadeAfter = await pixel(...nearRally);
  for (const t0 = Date.now(); !pale(shadeAfter) && Date.now() - t0 < 10000;) {
    await page.waitForTimeout(50);
    shadeAfter = await pixel(...nearRally);
  }
  check('rally: the new field is drawn', !pale(shadeBefore) && pale(shadeAfter), `${shadeBefore} -> ${shadeAfter}`);
  // The mean field distance of the agents to the rally point, from the page's answers.
  const field = rally.field;
  const meanDistance = (agents) => {
    const ds = agents.filter((a) => !a.arrived)
      .map((a) => field.distance[Math.floor(a.position[1]) * field.width + Math.floor(a.position[0])])
      .filter((d) => d !== null);
    return ds.reduce((a, b) => a + b, 0) / Math.max(1, ds.length);
  };
  const d0 = meanDistance(rally.agents);
  // Real time at 1x: the simulated time that passes over 3 s once the first answers came.
  const time0 = parseFloat(await text('#sim-time'));
  await page.click('#sim-play');
  await page.waitForFunction((t) => parseFloat(document.getElementById('sim-time').textContent) > t + 0.2, time0);
  const time1 = parseFloat(await text('#sim-time')), wall1 = Date.now();
  await page.waitForTimeout(3000);
  const simSeconds = parseFloat(await text('#sim-time')) - time1, wallSeconds = (Date.now() - wall1) / 1000;
  await page.click('#sim-pause');
  check('army_500 plays in real time (1x: simulated seconds >= 0.6 x wall seconds)', simSeconds >= 0.6 * wallSeconds,
        `${simSeconds.toFixed(2)} simulated s in ${wallSeconds.toFixed(2)} s`);
  const [stepped] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/step')),
    page.click('#sim-step'),
  ]);
  const d1 = meanDistance((await stepped.json()).agents);
  check('rally: the agents walk toward the rally point', d1 < d0 - 2, `mean distance ${d0.toFixed(1)} -> ${d1.toFixed(1)}`);
  // Errors are shown, and with the toggle on "drops the shape" a click drops an obstacle instead.
  const [refused] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/goal')),
    page.locator('#sim-canvas').click(at(33.5, 13.5)),  // a wall (the hybrid map scaled 4x)
  ]);
  expectedFailures++;
  const refusal = (await refused.json()).error;
  await page.waitForFunction((m) => document.getElementById('sim-message').textContent === m, refusal);
  check('rally: a point in a wall shows the server\'s message', refused.status() === 422 && /wall/.test(refusal),
        `${refused.status()} ${refusal}`);
  await page.selectOption('#sim-click', 'obstacle');
  await page.locator('#sim-canvas').click(at(100.5, 10.5));  // a free cell off the crowd's way
  await waitText('#sim-message', /^dropped (disc|polygon|segment)/);
  check('drop mode in a flow crowd: the click drops an obstacle', Number(await text('#sim-obstacles')) === 1);

  // The search view still works after a visit here.
  await page.click('#views button[data-view=search]');
  check('back to the search view', await page.isVisible('#canvas') && !(await page.isVisible('#sim-canvas')));
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
