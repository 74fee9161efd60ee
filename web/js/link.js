// The Link game view (连连看): the server owns the rules (POST /api/link/play removes a pair
// only when a line with at most two turns joins it, /hint, /shuffle, /solve); the page keeps the
// board between requests, draws it on a canvas with a one-cell margin for lines that run
// outside, and keeps the score and the clock. Pointer events only, so a touch screen plays too.
import * as api from './api.js';

const $ = (id) => document.getElementById(id);
const canvas = $('link-canvas');
const ctx = canvas.getContext('2d');

const LINE_MS = 350;      // how long a connecting line shows before its tiles go
const SOLVE_MS = 260;     // per move of the solver's animation
const HINT_MS = 2500;     // how long a hint stays highlighted
const FLASH_MS = 450;     // a pair that does not connect flashes red
const COMBO_MS = 4000;    // pairs closer than this in time make a combo
const POINTS = { pair: 10, combo: 5, hint: -5, shuffle: -10 };

// The render module's hues (libs/render): the same kind has the same colour in PNGs and here.
const HUES = [[30, 100, 230], [20, 150, 60], [140, 60, 200], [240, 140, 0],
              [220, 60, 150], [0, 170, 210], [130, 150, 0], [150, 90, 40]];
function kindStyle(kind) {
  const code = kind.charCodeAt(0);
  const faded = Math.floor(code / HUES.length) % 2 === 1;
  const [r, g, b] = HUES[code % HUES.length].map((c) => (faded ? Math.round(c + (255 - c) * 0.55) : c));
  return { fill: `rgb(${r},${g},${b})`, ink: faded ? '#191919' : '#ffffff' };
}

const game = {
  board: null,        // {width, height, rows: [string…]}
  gravity: 'none',
  cp: 32,             // canvas pixels per cell
  selected: null,     // [x, y]
  line: null,         // {points, until}
  flash: null,        // {cells, until}
  hint: null,         // {a, b, points, until}
  score: 0, combo: 0, lastPairAt: 0,
  started: 0, stoppedAt: 0,
  busy: false,        // a request is in flight: taps wait
  token: 0,           // bumped by a new game: an old animation stops
  finished: false,
};

const at = (b, x, y) => (x < 0 || y < 0 || x >= b.width || y >= b.height ? '.' : b.rows[y][x]);
const tiles = (b) => b.rows.reduce((n, r) => n + [...r].filter((c) => c !== '.').length, 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cellText = ([x, y]) => `(${x},${y})`;
const clock = (ms) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function setMessage(text) { $('link-message').textContent = text; }
function banner(text, action, onAction) {
  $('link-banner').hidden = !text;
  $('link-banner-text').textContent = text || '';
  const button = $('link-banner-action');
  button.hidden = !action;
  button.textContent = action || '';
  button.onclick = onAction || null;
}

function addScore(points) {
  game.score = Math.max(0, game.score + points);
  $('link-score').textContent = String(game.score);
}

function updateStatus(now = performance.now()) {
  if (!game.board) return;
  $('link-tiles').textContent = String(tiles(game.board));
  $('link-combo').textContent = game.combo > 0 ? `×${game.combo + 1}` : '–';
  const end = game.finished ? game.stoppedAt : now;
  $('link-time').textContent = clock(Math.max(0, end - game.started));
}

// ---- drawing -------------------------------------------------------------------------------
/** Pixels per cell: the board and its ring fill the stage's width (and the window's height on
 * a wide screen), 14 to 56 pixels. */
function fit() {
  const b = game.board;
  if (!b) return;
  const stage = $('link-stage');
  const wide = window.innerWidth > 720;
  const availW = Math.max(160, stage.clientWidth - 4);
  const availH = wide ? Math.max(200, window.innerHeight - stage.getBoundingClientRect().top - 90) : Infinity;
  game.cp = Math.max(14, Math.min(56, Math.floor(Math.min(availW / (b.width + 2), availH / (b.height + 2)))));
  canvas.width = (b.width + 2) * game.cp;
  canvas.height = (b.height + 2) * game.cp;
  canvas.dataset.cell = String(game.cp);
}

function publish() {
  // What the tests (and anyone curious) can read without decoding pixels.
  const b = game.board;
  canvas.dataset.width = String(b.width);
  canvas.dataset.height = String(b.height);
  canvas.dataset.rows = b.rows.join('/');
}

const centre = ([x, y]) => [(x + 1.5) * game.cp, (y + 1.5) * game.cp];

function outline([x, y], colour, width) {
  const cp = game.cp;
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.strokeRect((x + 1) * cp + width / 2, (y + 1) * cp + width / 2, cp - width, cp - width);
}

function polyline(points, colour, width, dash = []) {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.setLineDash(dash);
  ctx.beginPath();
  points.forEach((p, i) => { const [px, py] = centre(p); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
  ctx.stroke();
  ctx.restore();
}

function draw(now) {
  const b = game.board;
  if (!b) return;
  const cp = game.cp;
  ctx.fillStyle = '#ece4d2';  // the ring around the board, where lines may run
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#fafafa';
  ctx.fillRect(cp, cp, b.width * cp, b.height * cp);
  const line = game.line && game.line.until > now ? game.line : null;
  const hint = game.hint && game.hint.until > now ? game.hint : null;
  if (!hint && game.hint) { game.hint = null; delete canvas.dataset.hint; }
  const lw = Math.max(3, cp / 7);
  if (line) polyline(line.points, '#e65000', lw);
  if (hint) polyline(hint.points, '#00a0e0', lw, [lw * 1.5, lw]);
  const inset = Math.max(1, Math.round(cp / 14));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `bold ${Math.round(cp * 0.58)}px system-ui, sans-serif`;
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const kind = b.rows[y][x];
      if (kind === '.') continue;
      const style = kindStyle(kind);
      ctx.fillStyle = style.fill;
      ctx.beginPath();
      const [tx, ty, ts] = [(x + 1) * cp + inset, (y + 1) * cp + inset, cp - 2 * inset];
      if (ctx.roundRect) ctx.roundRect(tx, ty, ts, ts, inset * 2);
      else ctx.rect(tx, ty, ts, ts);  // browsers before 2023
      ctx.fill();
      ctx.fillStyle = style.ink;
      ctx.fillText(kind, (x + 1.5) * cp, (y + 1.5) * cp + 1);
    }
  }
  const w = Math.max(3, Math.round(cp / 9));
  if (hint) { outline(hint.a, '#00a0e0', w); outline(hint.b, '#00a0e0', w); }
  if (line) for (const c of [line.points[0], line.points[line.points.length - 1]]) outline(c, '#e65000', w);
  if (game.flash && game.flash.until > now) for (const c of game.flash.cells) outline(c, '#e60000', w);
  if (game.selected) outline(game.selected, '#ffd400', w);
}

function frame(now) {
  if (!$('link-view').hidden) {
    draw(now);
    updateStatus(now);
  }
  requestAnimationFrame(frame);
}

// ---- the game ------------------------------------------------------------------------------
function start(board, note) {
  game.token++;
  game.board = board;
  game.selected = game.line = game.flash = game.hint = null;
  game.score = 0;
  game.combo = 0;
  game.lastPairAt = 0;
  game.started = performance.now();
  game.finished = false;
  game.busy = false;
  addScore(0);
  banner('');
  delete canvas.dataset.hint;
  fit();
  publish();
  updateStatus();
  setMessage(note);
}

async function newGame() {
  game.gravity = $('link-gravity').value;
  const name = $('link-board').value;
  try {
    if (name) {
      const found = boards.find((b) => b.name === name);
      start({ width: found.width, height: found.height, rows: found.rows.slice() },
            `${name}: ${found.width}×${found.height}, gravity ${game.gravity}`);
      return;
    }
    const seedText = $('link-seed').value.trim();
    const seed = seedText === '' ? Math.floor(Math.random() * 1e9) : Number(seedText);
    const request = { width: Number($('link-width').value), height: Number($('link-height').value),
                      kinds: Number($('link-kinds').value), seed };
    const res = await api.linkGenerate(request);
    start(res.board, `new ${request.width}×${request.height} board, ${request.kinds} kinds, seed ${seed}, gravity ${game.gravity}`);
  } catch (e) {
    setMessage(e.message);
  }
}

function win(bySolver) {
  game.finished = true;
  game.stoppedAt = performance.now();
  const time = clock(game.stoppedAt - game.started);
  const text = bySolver ? `Cleared by the solver (${time}).` : `You cleared the board in ${time} with ${game.score} points!`;
  banner(text, 'New game', newGame);
  setMessage(text);
}

function afterMove(res, bySolver) {
  game.board = res.board;
  publish();
  updateStatus();
  if (res.won) { win(bySolver); return; }
  if (res.deadlocked) {
    banner('No moves left: shuffle the tiles to go on.', 'Shuffle', () => shuffle());
    setMessage('deadlocked: no pair connects');
  }
}

async function tryPair(a, b) {
  const token = game.token;
  game.busy = true;
  try {
    const res = await api.linkPlay({ board: game.board, a, b, gravity: game.gravity });
    if (token !== game.token) return;
    game.selected = null;
    game.hint = null;
    delete canvas.dataset.hint;
    const now = performance.now();
    game.line = { points: res.points, until: now + LINE_MS };
    game.combo = game.lastPairAt && now - game.lastPairAt < COMBO_MS ? game.combo + 1 : 0;
    game.lastPairAt = now;
    const gained = POINTS.pair + POINTS.combo * game.combo;
    addScore(gained);
    setMessage(`${res.kind}: ${cellText(a)} – ${cellText(b)}, ${res.turns} turn${res.turns === 1 ? '' : 's'}, +${gained}`);
    await sleep(LINE_MS);
    if (token !== game.token) return;
    afterMove(res, false);
  } catch (e) {
    if (token !== game.token) return;
    game.selected = null;
    if (e.status === 422) {
      game.flash = { cells: [a, b], until: performance.now() + FLASH_MS };
      setMessage(e.message);
    } else {
      setMessage(`error: ${e.message}`);
    }
  } finally {
    if (token === game.token) game.busy = false;
  }
}

function cellAt(ev) {
  const r = canvas.getBoundingClientRect();
  const px = (ev.clientX - r.left) * (canvas.width / r.width);
  const py = (ev.clientY - r.top) * (canvas.height / r.height);
  return [Math.floor(px / game.cp) - 1, Math.floor(py / game.cp) - 1];
}

canvas.addEventListener('pointerdown', (ev) => {
  ev.preventDefault();
  if (!game.board || game.busy || game.finished) return;
  const [x, y] = cellAt(ev);
  if (at(game.board, x, y) === '.') { game.selected = null; return; }
  const s = game.selected;
  if (!s) { game.selected = [x, y]; return; }
  if (s[0] === x && s[1] === y) { game.selected = null; return; }
  tryPair(s, [x, y]);
});
canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());

async function hint() {
  if (!game.board || game.busy || game.finished) return;
  game.busy = true;
  try {
    const res = await api.linkHint(game.board);
    if (res.move) {
      game.hint = { a: res.move.a, b: res.move.b, points: res.points, until: performance.now() + HINT_MS };
      canvas.dataset.hint = `${res.move.a.join(',')}:${res.move.b.join(',')}`;
      addScore(POINTS.hint);
      setMessage(`hint: ${res.move.kind} ${cellText(res.move.a)} – ${cellText(res.move.b)} (${POINTS.hint})`);
    } else if (res.deadlocked) {
      banner('No moves left: shuffle the tiles to go on.', 'Shuffle', () => shuffle());
      setMessage('no hint: deadlocked');
    }
  } catch (e) {
    setMessage(e.message);
  } finally {
    game.busy = false;
  }
}

async function shuffle() {
  if (!game.board || game.busy || game.finished) return;
  game.busy = true;
  try {
    const res = await api.linkShuffle(game.board, Math.floor(Math.random() * 1e9));
    if (!res.shuffled) { setMessage('cannot shuffle: no arrangement of these tiles has a move'); return; }
    game.board = res.board;
    game.selected = game.hint = null;
    delete canvas.dataset.hint;
    publish();
    addScore(POINTS.shuffle);
    banner('');
    setMessage(`shuffled (${POINTS.shuffle})`);
  } catch (e) {
    setMessage(e.message);
  } finally {
    game.busy = false;
  }
}

/** Asks the solver for a clearing sequence, then plays it move by move through /play, so each
 * line is drawn as the server answers it (gravity included). */
async function solve() {
  if (!game.board || game.busy || game.finished) return;
  const token = game.token;
  game.busy = true;
  game.selected = game.hint = null;
  try {
    setMessage('solving…');
    const res = await api.linkSolve({ board: game.board, gravity: game.gravity });
    if (token !== game.token) return;
    if (res.status !== 'solved') {
      setMessage(res.status === 'unsolvable'
        ? `no sequence clears this board (${res.nodes} boards tried): shuffle?`
        : `the solver gave up after ${res.nodes} boards`);
      if (res.status === 'unsolvable') banner('This board cannot be cleared.', 'Shuffle', () => shuffle());
      return;
    }
    setMessage(`solution: ${res.moves.length} moves (${res.nodes} boards tried)`);
    for (const [i, m] of res.moves.entries()) {
      const step = await api.linkPlay({ board: game.board, a: m.a, b: m.b, gravity: game.gravity });
      if (token !== game.token) return;
      game.line = { points: step.points, until: performance.now() + SOLVE_MS };
      setMessage(`solver: move ${i + 1} of ${res.moves.length}, ${m.kind} ${cellText(m.a)} – ${cellText(m.b)}`);
      await sleep(SOLVE_MS);
      if (token !== game.token) return;
      afterMove(step, true);
    }
  } catch (e) {
    if (token === game.token) setMessage(e.message);
  } finally {
    if (token === game.token) game.busy = false;
  }
}

// ---- controls ------------------------------------------------------------------------------
let boards = [];
let loaded = null;
async function load() {
  try {
    boards = (await api.linkBoards()).boards.filter((b) => !b.error);
    for (const b of boards) $('link-board').add(new Option(`${b.name} (${b.width}×${b.height})`, b.name));
  } catch (e) {
    setMessage(e.message);
  }
  await newGame();
}

$('link-new').addEventListener('click', newGame);
$('link-hint').addEventListener('click', hint);
$('link-shuffle').addEventListener('click', shuffle);
$('link-solve').addEventListener('click', solve);
$('link-board').addEventListener('change', () => {
  $('link-generate-fields').hidden = $('link-board').value !== '';
});
$('link-gravity').addEventListener('change', () => {
  game.gravity = $('link-gravity').value;
  setMessage(`gravity ${game.gravity} from the next pair on`);
});
window.addEventListener('resize', () => { if (game.board && !$('link-view').hidden) fit(); });

function shown(view) {
  if (view !== 'link') return;
  if (!loaded) loaded = load();
  else fit();
}
document.addEventListener('pathlab:view', (ev) => shown(ev.detail));
shown(document.body.dataset.view);  // the view switch ran before this module
requestAnimationFrame(frame);
