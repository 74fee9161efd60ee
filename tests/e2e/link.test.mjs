// Browser test of the Link game view: Playwright (playwright-core) drives Debian's Chromium
// headless against `pathlab serve` on a free loopback port. The server owns the rules; the test
// asks the API which pairs connect (as a player would need a hint to know), then plays them with
// the pointer — the mouse on a desktop-sized page, taps on a phone-sized touch screen.
// Usage: node link.test.mjs PATHLAB_BINARY OUT_DIR   (OUT_DIR receives link.png, link-phone.png)
import { chromium } from 'playwright-core';
import { check, chromiumOptions, finish, startServer } from './harness.mjs';
import fs from 'node:fs';
import path from 'node:path';

const [pathlab, outDir] = process.argv.slice(2);

const { server, url } = await startServer(pathlab);
const browser = await chromium.launch(chromiumOptions);
const errors = [];
async function open(options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/422/.test(m.text())) errors.push(m.text()); });
  return { context, page };
}
const apiPost = async (p, body) => {
  const res = await fetch(new URL(p, url), { method: 'POST', body: JSON.stringify(body) });
  return res.json();
};

// The board as the page holds it (published on the canvas's data attributes).
const boardOf = (page) => page.$eval('#link-canvas', (cv) => ({
  width: Number(cv.dataset.width), height: Number(cv.dataset.height), rows: (cv.dataset.rows || '').split('/'),
}));
const tileCount = (b) => b.rows.join('').replace(/\./g, '').length;
const waitRows = (page, pred, arg, timeout = 30000) =>
  page.waitForFunction(([src, a]) => {
    const cv = document.getElementById('link-canvas');
    return cv.dataset.rows !== undefined && new Function('rows', 'arg', src)(cv.dataset.rows.split('/'), a);
  }, [pred, arg], { timeout });
const waitText = (page, selector, re, timeout = 30000) => page.waitForFunction(
  ([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''),
  [selector, re.source], { timeout });
/** Page coordinates of a board cell's centre (the canvas may be scaled by CSS). */
async function cellPoint(page, [x, y]) {
  const box = await page.locator('#link-canvas').boundingBox();
  const b = await boardOf(page);
  const s = box.width / (b.width + 2);
  return [box.x + (x + 1.5) * s, box.y + (y + 1.5) * s];
}
const countColour = (page, [r, g, b]) => page.$eval('#link-canvas', (cv, [r0, g0, b0]) => {
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === r0 && d[i + 1] === g0 && d[i + 2] === b0) n++;
  return n;
}, [r, g, b]);
async function newGame(page, width, height, kinds, seed) {
  await page.selectOption('#link-board', '');
  await page.fill('#link-width', String(width));
  await page.fill('#link-height', String(height));
  await page.fill('#link-kinds', String(kinds));
  await page.fill('#link-seed', String(seed));
  await page.click('#link-new');
  await waitText(page, '#link-message', new RegExp(`seed ${seed}\\b`));
  await waitRows(page, 'return rows.length === arg[1] && rows[0].length === arg[0]', [width, height]);
}
/** Two tiles of different kinds (which never connect). */
function mismatch(b) {
  const cells = [];
  b.rows.forEach((r, y) => [...r].forEach((k, x) => { if (k !== '.') cells.push([x, y, k]); }));
  const first = cells[0];
  const other = cells.find((c) => c[2] !== first[2]);
  return [[first[0], first[1]], [other[0], other[1]]];
}

try {
  fs.mkdirSync(outDir, { recursive: true });
  const { context, page } = await open({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.click('#views button[data-view=link]');
  await waitRows(page, 'return rows.length > 0 && rows[0].length > 0');
  check('the Link tab opens with a board', await page.isVisible('#link-canvas') && !(await page.isVisible('#canvas')));
  const bundled = await page.$$eval('#link-board option', (os) => os.map((o) => o.value));
  check('the bundled boards are offered', bundled.includes('link_8x10.txt') && bundled.includes('link_12x20.txt'),
        JSON.stringify(bundled));

  // A new game from the form: the board the server deals for that seed.
  await newGame(page, 8, 6, 6, 7);
  let board = await boardOf(page);
  const dealt = await apiPost('/api/link/generate', { width: 8, height: 6, kinds: 6, seed: 7 });
  check('new game renders the dealt board', JSON.stringify(board.rows) === JSON.stringify(dealt.board.rows));
  check('score 0, 48 tiles shown', (await page.textContent('#link-score')) === '0' &&
        (await page.textContent('#link-tiles')) === '48');
  const cp = Number(await page.$eval('#link-canvas', (cv) => cv.dataset.cell));
  const dims = await page.$eval('#link-canvas', (cv) => [cv.width, cv.height]);
  check('the canvas has a one-cell margin around the board', dims[0] === 10 * cp && dims[1] === 8 * cp, `${dims} cp ${cp}`);

  // A pair that connects (the API's hint): both tiles go, the score grows.
  const h = await apiPost('/api/link/hint', { board });
  const [ax, ay] = await cellPoint(page, h.move.a);
  const [bx, by] = await cellPoint(page, h.move.b);
  await page.mouse.click(ax, ay);
  await page.mouse.click(bx, by);
  await waitRows(page, 'return rows.join("").replace(/\\./g, "").length === 46');
  board = await boardOf(page);
  check('clicking two connectable tiles removes them',
        board.rows[h.move.a[1]][h.move.a[0]] === '.' && board.rows[h.move.b[1]][h.move.b[0]] === '.');
  check('the score increases', Number(await page.textContent('#link-score')) >= 10, await page.textContent('#link-score'));
  check('the tile count follows', (await page.textContent('#link-tiles')) === '46');

  // A pair that does not connect (different kinds): nothing is removed.
  const [p, q] = mismatch(board);
  const scoreBefore = await page.textContent('#link-score');
  for (const c of [p, q]) { const [x, y] = await cellPoint(page, c); await page.mouse.click(x, y); }
  await waitText(page, '#link-message', /do not connect/);
  const after = await boardOf(page);
  check('a non-connectable pair stays', tileCount(after) === 46 && JSON.stringify(after.rows) === JSON.stringify(board.rows));
  check('and scores nothing', (await page.textContent('#link-score')) === scoreBefore);

  // Hint: a pair is highlighted (its outline and dashed line in the hint colour), at a cost.
  const beforeHint = Number(await page.textContent('#link-score'));
  await page.click('#link-hint');
  await page.waitForFunction(() => document.getElementById('link-canvas').dataset.hint, null, { timeout: 10000 });
  const expected = await apiPost('/api/link/hint', { board: after });
  const shownHint = await page.$eval('#link-canvas', (cv) => cv.dataset.hint);
  check('hint highlights the first connectable pair', shownHint === `${expected.move.a}:${expected.move.b}`,
        `${shownHint} vs ${JSON.stringify(expected.move)}`);
  // Drawn on the next frame (later on a loaded machine): poll for up to 10 s.
  let hintPixels = await countColour(page, [0, 160, 224]);
  for (const t0 = Date.now(); hintPixels <= 20 && Date.now() - t0 < 10000;) {
    await page.waitForTimeout(50);
    hintPixels = await countColour(page, [0, 160, 224]);
  }
  check('the hint is drawn', hintPixels > 20, `${hintPixels} pixels`);
  check('a hint costs 5 points', Number(await page.textContent('#link-score')) === Math.max(0, beforeHint - 5));
  await page.screenshot({ path: path.join(outDir, 'link.png'), fullPage: true });

  // Deadlock: a board with no move offers a shuffle (the server's deal replaced by a stuck one).
  await page.route('**/api/link/generate', (route) => route.fulfill({
    contentType: 'application/json',
    body: JSON.stringify({ board: { width: 2, height: 2, rows: ['AB', 'BA'] }, kinds: 2, seed: 99 }),
  }));
  await page.fill('#link-seed', '99');
  await page.click('#link-new');
  await waitRows(page, 'return rows.join("/") === "AB/BA"');
  await page.unroute('**/api/link/generate');
  await page.click('#link-hint');
  await waitText(page, '#link-banner-text', /No moves left/);
  check('deadlock: the message offers Shuffle', (await page.textContent('#link-banner-action')) === 'Shuffle');
  await page.click('#link-banner-action');
  await waitText(page, '#link-message', /shuffled/);
  const shuffled = await boardOf(page);
  const moves = await apiPost('/api/link/moves', { board: shuffled });
  check('the shuffle leaves a move and the same tiles', moves.count > 0 &&
        [...shuffled.rows.join('')].sort().join('') === 'AABB' && await page.isHidden('#link-banner'));

  // Solve: the solver's moves play one by one until the board is clear and the win shows.
  await newGame(page, 4, 4, 4, 3);
  await page.click('#link-solve');
  await waitText(page, '#link-message', /solver: move 1 of 8/, 15000);
  const midway = tileCount(await boardOf(page));
  await waitText(page, '#link-banner-text', /Cleared by the solver/, 30000);
  const cleared = await boardOf(page);
  check('solve animates move by move', midway === 16 || midway === 14, `${midway}`);
  check('solve clears the board and shows the win message', tileCount(cleared) === 0 &&
        (await page.textContent('#link-tiles')) === '0' && await page.isVisible('#link-banner'));
  await context.close();

  // A phone: 390 x 844 CSS pixels, touch only.
  const phone = await open({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await phone.page.goto(`${url}#link`);
  await waitRows(phone.page, 'return rows.length > 0 && rows[0].length > 0');
  await newGame(phone.page, 8, 10, 8, 21);
  const box = await phone.page.locator('#link-canvas').boundingBox();
  const scrollW = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  check('phone: the board fits the screen\'s width', box.x >= 0 && box.x + box.width <= 390 && box.width > 250 &&
        scrollW <= 390, `box ${JSON.stringify(box)} scrollWidth ${scrollW}`);
  const pb = await boardOf(phone.page);
  const ph = await apiPost('/api/link/hint', { board: pb });
  for (const c of [ph.move.a, ph.move.b]) {
    const [x, y] = await cellPoint(phone.page, c);
    await phone.page.touchscreen.tap(x, y);
  }
  await waitRows(phone.page, 'return rows.join("").replace(/\\./g, "").length === 78');
  check('phone: tapping two connectable tiles removes them', Number(await phone.page.textContent('#link-score')) >= 10);
  const [pp, pq] = mismatch(await boardOf(phone.page));
  for (const c of [pp, pq]) { const [x, y] = await cellPoint(phone.page, c); await phone.page.touchscreen.tap(x, y); }
  await waitText(phone.page, '#link-message', /do not connect/);
  check('phone: a tapped pair that does not connect stays', tileCount(await boardOf(phone.page)) === 78);
  const buttons = await phone.page.$$eval('#link-view button', (bs) => bs.filter((b) => b.offsetParent)
    .map((b) => b.getBoundingClientRect()).map((r) => r.right));
  check('phone: every button is on the screen', buttons.length >= 4 && buttons.every((r) => r <= 390), `${buttons}`);
  await phone.page.screenshot({ path: path.join(outDir, 'link-phone.png'), fullPage: true });
  await phone.context.close();

  check('no errors in the page', errors.length === 0, JSON.stringify(errors));
} catch (e) {
  check('browser test ran to the end', false, e.stack || e.message);
} finally {
  await browser.close();
  server.kill('SIGINT');
}
finish();
