// The simulation view: the server runs a World (POST /api/sim, then /step, /obstacle, /target)
// and this module only draws the states it answers: the grid, the obstacles present, the agents
// (red while colliding) with their plans, current sub-goals and force arrows, and a ring flashing
// where a replan happened. Playback asks for as many ticks as the chosen rate has made due, with
// one request in flight at a time, so a slow server slows the picture instead of queueing.
// Crowds of flow agents: the flow field they follow is drawn under them (GET /api/sim/ID/field),
// and a click sets their rally point (POST /api/sim/ID/goal, which answers the new field).
import * as api from './api.js';
import * as flowDraw from './flow.js';

const COLOURS = {
  free: '#fafafa', wall: '#34343f', obstacle: 'rgba(90, 90, 110, 0.85)', obstacleEdge: '#2a2a36',
  colliding: '#e60000', force: '#ff8c00', target: '#d71e1e', subgoal: '#ffffff',
  local_replan: '#ffd400', global_replan: '#c000ff', stall: '#8a8a8a', collision: '#e60000',
};
// Agent colours: none of them red (colliding) or orange (force).
const AGENT_COLOURS = ['#1f6fd1', '#1a9e77', '#7b4fd6', '#0098a8', '#5b7b1a', '#b03c96', '#3d5a80'];
const EVENT_NAMES = {
  local_replan: 'local replan', global_replan: 'global replan', stall: 'stall',
  collision: 'collision', arrived: 'arrived',
};
const FLASH_MS = 700;
const DRIVE_SPEED = 1.5;  // cells/s: slower than the shipped chaser, so it can catch up
const DROPS = {
  disc: { kind: 'disc', radius: 0.5 },
  'big-disc': { kind: 'disc', radius: 1 },
  // An L whose corner is where the click was.
  l: { kind: 'polygon', points: [[-0.5, -0.5], [2.5, -0.5], [2.5, 0.5], [0.5, 0.5], [0.5, 2.5], [-0.5, 2.5]] },
  segment: { kind: 'segment', points: [[0, -1.5], [0, 1.5]] },
};
const KEYS = {
  ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
  w: [0, -1], s: [0, 1], a: [-1, 0], d: [1, 0], W: [0, -1], S: [0, 1], A: [-1, 0], D: [1, 0],
};

const $ = (id) => document.getElementById(id);
const canvas = $('sim-canvas');
const ctx = canvas.getContext('2d');

const sim = {
  session: null,    // the POST /api/sim answer: id, grid, dt, agents' static info
  state: null,      // the latest state
  background: null, // the grid, drawn once per session
  cp: 20,           // pixels per cell
  playing: false,
  busy: false,      // a step request in flight
  request: null,    // its promise
  due: 0,           // simulated seconds owed to the playback rate
  lastFrame: 0,
  flashes: [],      // {x, y, kind, until}
  replans: { local: 0, global: 0 },
  keys: new Set(),
  driving: [0, 0],
  loadToken: 0,
  flow: false,      // the session has flow agents
  field: null,      // the flow field shown: {answer, agent (index) or null, rally [x, y] or null}
  fieldLayer: null, // the field drawn once, under the agents
  fieldToken: 0,
  tableAt: 0,       // when the agents' table was last filled (a big crowd refills it 4 times a second)
  tableTimer: null,
  stateAt: 0,       // when the latest state came
  tween: null,      // {from: positions, at, span}: see tweened()
};

function setMessage(text) { $('sim-message').textContent = text; }
const fmt = (v, digits = 2) => (typeof v === 'number' ? v.toFixed(digits) : '–');

// ---- drawing ------------------------------------------------------------------------------
function drawBackground() {
  const g = sim.session.grid, cp = sim.cp;
  const bg = document.createElement('canvas');
  bg.width = g.width * cp;
  bg.height = g.height * cp;
  const b = bg.getContext('2d');
  b.fillStyle = COLOURS.free;
  b.fillRect(0, 0, bg.width, bg.height);
  b.fillStyle = COLOURS.wall;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) if (g.walls.charCodeAt(y * g.width + x) === 49) b.fillRect(x * cp, y * cp, cp, cp);
  }
  b.strokeStyle = 'rgba(0, 0, 0, 0.06)';  // a faint lattice: cells are the map's units
  b.lineWidth = 1;
  b.beginPath();
  for (let x = 1; x < g.width; x++) { b.moveTo(x * cp + 0.5, 0); b.lineTo(x * cp + 0.5, bg.height); }
  for (let y = 1; y < g.height; y++) { b.moveTo(0, y * cp + 0.5); b.lineTo(bg.width, y * cp + 0.5); }
  b.stroke();
  sim.background = bg;
}

const px = ([x, y]) => [x * sim.cp, y * sim.cp];

/** Draws the field shown once into its own layer: shading (a little transparent, so the lattice
 * shows through), arrows where cells are big enough, and rings at the goals. */
function drawFieldLayer() {
  sim.fieldLayer = null;
  const f = sim.field && sim.field.answer, g = sim.session && sim.session.grid;
  if (!f || !g || f.width !== g.width || f.height !== g.height) return;
  const layer = document.createElement('canvas');
  layer.width = g.width * sim.cp;
  layer.height = g.height * sim.cp;
  const l = layer.getContext('2d');
  l.globalAlpha = 0.85;
  flowDraw.drawShading(l, f, sim.cp);
  l.globalAlpha = 1;
  flowDraw.drawArrows(l, f, sim.cp);
  flowDraw.drawGoals(l, f, sim.cp);
  sim.fieldLayer = layer;
}

function drawObstacle(o) {
  const cp = sim.cp;
  ctx.fillStyle = COLOURS.obstacle;
  ctx.strokeStyle = COLOURS.obstacleEdge;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  if (o.kind === 'disc') {
    const [x, y] = px(o.centre);
    ctx.arc(x, y, o.radius * cp, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  } else if (o.kind === 'segment') {
    ctx.strokeStyle = COLOURS.obstacle;
    ctx.lineWidth = Math.max(3, cp * 0.18);
    ctx.lineCap = 'round';
    ctx.moveTo(...px(o.points[0]));
    ctx.lineTo(...px(o.points[1]));
    ctx.stroke();
  } else {
    o.points.forEach((p, k) => (k ? ctx.lineTo(...px(p)) : ctx.moveTo(...px(p))));
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}

function drawArrow(from, to, colour) {
  const [x0, y0] = px(from), [x1, y1] = px(to);
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 2) return;
  const ux = (x1 - x0) / len, uy = (y1 - y0) / len, head = Math.min(8, len * 0.4);
  ctx.strokeStyle = ctx.fillStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.6, y1 - uy * head * 0.6);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
  ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
  ctx.closePath();
  ctx.fill();
}

function drawGoal(p, chase) {
  const [x, y] = px(p), r = Math.max(4, sim.cp * 0.3);
  ctx.strokeStyle = ctx.fillStyle = COLOURS.target;
  ctx.lineWidth = 2;
  ctx.beginPath();
  if (chase) {  // a moving target: a filled diamond
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y);
    ctx.closePath();
    ctx.fill();
  } else {      // a fixed goal: a cross
    ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r);
    ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r);
    ctx.stroke();
  }
}

function drawAgent(a, info, colour, at = a.position) {
  const cp = sim.cp;
  if (!a.arrived && a.plan.length > a.subgoal) {
    // The plan from where the agent is, through the sub-goals still ahead.
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1.5, cp * 0.08);
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(...px(at));
    for (const p of a.plan.slice(a.subgoal)) ctx.lineTo(...px(p));
    ctx.stroke();
    ctx.setLineDash([]);
    const [sx, sy] = px(a.plan[a.subgoal]);
    ctx.beginPath();
    ctx.arc(sx, sy, Math.max(4, cp * 0.22), 0, 2 * Math.PI);
    ctx.fillStyle = COLOURS.subgoal;
    ctx.fill();
    ctx.lineWidth = 2.5;
    ctx.stroke();
  }
  const [x, y] = px(at);
  ctx.globalAlpha = a.arrived ? 0.35 : 1;
  ctx.beginPath();
  ctx.arc(x, y, Math.max(3, info.radius * cp), 0, 2 * Math.PI);
  ctx.fillStyle = a.colliding ? COLOURS.colliding : colour;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#111';
  ctx.stroke();
  ctx.globalAlpha = 1;
  if (!a.arrived) {
    // The force arrow: one cell per unit of force up to three cells.
    const [fx, fy] = a.force, f = Math.hypot(fx, fy), k = f > 3 ? 3 / f : 1;
    drawArrow(at, [at[0] + fx * k, at[1] + fy * k], COLOURS.force);
  }
}

/** Where agent k is drawn: while playing with answers further apart than a few frames (a big
 * crowd's state is a large answer), the agents glide from the previous answer's positions to
 * the latest ones over the time between the two answers, instead of jumping. */
function tweened(k, a, now) {
  const t = sim.tween;
  if (!t || !t.from[k]) return a.position;
  const u = Math.min(1, (now - t.at) / t.span);
  if (u >= 1) return a.position;
  const [x0, y0] = t.from[k];
  return [x0 + (a.position[0] - x0) * u, y0 + (a.position[1] - y0) * u];
}

function draw(now = performance.now()) {
  if (!sim.session || !sim.state) return;
  const cp = sim.cp;
  ctx.drawImage(sim.background, 0, 0);
  if (sim.fieldLayer && $('sim-show-field').checked) ctx.drawImage(sim.fieldLayer, 0, 0);
  for (const o of sim.state.obstacles) drawObstacle(o);
  const infos = sim.session.agentsById;
  const goalsDrawn = new Set();  // a crowd shares its goal: one mark each
  sim.state.agents.forEach((a, k) => {
    const key = `${a.goal[0]},${a.goal[1]}`;
    if (!a.arrived && !goalsDrawn.has(key)) {
      goalsDrawn.add(key);
      drawGoal(a.goal, infos[a.id].chase);
    }
    drawAgent(a, infos[a.id], AGENT_COLOURS[k % AGENT_COLOURS.length], tweened(k, a, now));
  });
  // Replans, stalls and collisions flash as rings that widen and fade.
  sim.flashes = sim.flashes.filter((f) => f.until > now);
  for (const f of sim.flashes) {
    const age = 1 - (f.until - now) / FLASH_MS;
    const [x, y] = px(f.position);
    ctx.globalAlpha = 1 - age;
    ctx.strokeStyle = COLOURS[f.kind] || COLOURS.stall;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(x, y, cp * (0.5 + 1.2 * age), 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

// ---- the numbers -------------------------------------------------------------------------
function showState(table = true) {
  const st = sim.state;
  $('sim-time').textContent = `${fmt(st.time)} s`;
  $('sim-ticks').textContent = String(st.ticks);
  $('sim-obstacles').textContent = String(st.obstacles.length);
  $('sim-arrived').textContent = `${st.agents.filter((a) => a.arrived).length} / ${st.agents.length}`;
  $('sim-tick-us').textContent = st.tick_us.ticks ? fmt(st.tick_us.mean, 1) : '–';
  let local = 0, global = 0;
  for (const a of st.agents) { local += a.metrics.local_replans; global += a.metrics.global_replans; }
  $('sim-replans').textContent = `${local} / ${global}`;
  // A crowd of hundreds: the table (not the numbers above, nor the picture) lags by up to 0.25 s.
  const now = performance.now();
  if (!table && st.agents.length > 100 && now - sim.tableAt < 250) {
    // Skipped: filled at the end of the 0.25 s, so that a paused crowd's table is current too.
    if (!sim.tableTimer) {
      sim.tableTimer = setTimeout(() => { sim.tableTimer = null; if (sim.state) showState(true); },
                                  250 - (now - sim.tableAt));
    }
    return;
  }
  sim.tableAt = now;
  const body = $('sim-agents').querySelector('tbody');
  const rows = body.children;
  st.agents.forEach((a, k) => {
    let tr = rows[k];
    if (!tr) {
      tr = document.createElement('tr');
      for (let c = 0; c < 10; c++) tr.append(document.createElement('td'));
      body.append(tr);
    }
    const info = sim.session.agentsById[a.id], m = a.metrics;
    const status = a.arrived ? `arrived ${fmt(m.time)} s` : a.colliding ? 'colliding' : 'moving';
    const cells = [a.id, info.planner, status, `${fmt(a.goal[0])}, ${fmt(a.goal[1])}`, fmt(m.path_length),
      fmt(m.optimal_length), m.stalls, m.local_replans, m.global_replans, m.collisions];
    cells.forEach((v, c) => { if (tr.children[c].textContent !== String(v)) tr.children[c].textContent = v; });
    tr.className = (a.arrived ? 'arrived' : a.colliding ? 'colliding' : '') +
      (sim.field && sim.field.agent === k ? ' shown-field' : '');
    tr.dataset.agent = a.id;
    if (info.planner === 'flow') tr.dataset.flow = '';
    else delete tr.dataset.flow;
  });
  while (rows.length > st.agents.length) body.lastChild.remove();
}

function noteEvents(events) {
  const now = performance.now(), list = $('sim-events');
  for (const e of events) {
    if (e.kind !== 'arrived') sim.flashes.push({ position: e.position, kind: e.kind, until: now + FLASH_MS });
    if (e.kind === 'local_replan') sim.replans.local += e.count;
    if (e.kind === 'global_replan') sim.replans.global += e.count;
  }
  // The log keeps the latest 30 lines; a chase replans at every turn of its target, so a long
  // step may bring many: only its last ones are listed.
  for (const e of events.slice(-30)) {
    const li = document.createElement('li');
    li.className = e.kind;
    li.textContent = `${fmt(e.time)} s — agent ${e.agent}: ${EVENT_NAMES[e.kind] || e.kind}`
      + (e.count > 1 ? ` ×${e.count}` : '');
    list.prepend(li);
  }
  while (list.children.length > 30) list.lastChild.remove();
}

function apply(st) {
  const now = performance.now(), span = now - sim.stateAt;
  const old = sim.state;
  sim.tween = sim.playing && old && old.agents.length === st.agents.length && span > 100 && span < 2000
    ? { from: old.agents.map((a, k) => tweened(k, a, now)), at: now, span } : null;
  sim.stateAt = now;
  sim.state = st;
  noteEvents(st.events || []);
  showState(false);
  if (st.finished && sim.playing) {
    pause();
    const arrived = st.agents.filter((a) => a.arrived).length;
    setMessage(`finished at ${fmt(st.time)} s: ${arrived} of ${st.agents.length} arrived`);
  }
}

// ---- the session ---------------------------------------------------------------------------
async function load() {
  const token = ++sim.loadToken;
  pause();
  const file = $('sim-scenario').value;
  if (!file) return;
  setMessage(`loading ${file}…`);
  const old = sim.session;
  try {
    const request = { scenario: file };
    if ($('sim-planner').value) request.planner = $('sim-planner').value;
    const s = await api.simCreate(request);
    if (token !== sim.loadToken) { api.simDelete(s.id).catch(() => {}); return; }
    s.agentsById = Object.fromEntries(s.agents.map((a) => [a.id, a]));
    sim.session = s;
    sim.flashes = [];
    sim.replans = { local: 0, global: 0 };
    sim.cp = Math.max(4, Math.floor(Math.min(800 / s.grid.width, 600 / s.grid.height)));
    canvas.width = s.grid.width * sim.cp;
    canvas.height = s.grid.height * sim.cp;
    drawBackground();
    $('sim-events').replaceChildren();
    $('sim-agents').querySelector('tbody').replaceChildren();
    const chase = s.agents.some((a) => a.chase);
    $('sim-drive').disabled = !chase;
    if (!chase) $('sim-drive').checked = false;
    sim.driving = [0, 0];
    // Flow agents: clicks set the rally point by default, and the field the first one follows
    // is shown (fetched below).
    sim.flow = s.agents.some((a) => a.planner === 'flow');
    $('sim-flow-controls').hidden = !sim.flow;
    $('sim-click').value = sim.flow ? 'rally' : 'obstacle';
    sim.field = null;
    sim.fieldLayer = null;
    $('sim-field').textContent = '';
    sim.tableAt = 0;
    sim.state = null;
    apply(s.state);
    draw();
    setMessage(`${s.name} — ${s.agents.length} agent${s.agents.length > 1 ? 's' : ''}, dt ${s.dt} s`);
    if (old) api.simDelete(old.id).catch(() => {});
    if (sim.flow) await showField(s.agents.findIndex((a) => a.planner === 'flow'));
  } catch (e) {
    setMessage(e.message);
  }
}

// ---- flow fields -----------------------------------------------------------------------------
/** Shows the field agent `index` follows (GET /api/sim/ID/field). */
async function showField(index) {
  const session = sim.session, token = ++sim.fieldToken;
  if (!session) return;
  try {
    const f = await api.simField(session.id, index);
    if (session !== sim.session || token !== sim.fieldToken) return;
    setField({ answer: f, agent: index, rally: null });
    const id = session.agents[index].id, [gx, gy] = f.goals[0] || ['–', '–'];
    $('sim-field').textContent = `agent ${id}'s field, goal cell ${gx}, ${gy}: ${flowDraw.summary(f)}`;
  } catch (e) {
    if (session === sim.session && token === sim.fieldToken) $('sim-field').textContent = e.message;
  }
}
function setField(field) {
  flowDraw.prepare(field.answer);
  sim.field = field;
  drawFieldLayer();
  showState(true);
  draw();
}
/** Sends every flow agent still on its way to the centre of the clicked cell. */
async function setRally(at) {
  const session = sim.session, token = ++sim.fieldToken;
  const goal = [Math.floor(at[0]) + 0.5, Math.floor(at[1]) + 0.5];
  try {
    const { field, sent, ...st } = await api.simGoal(session.id, goal);
    if (session !== sim.session) return;
    sim.state = st;
    sim.tween = null;
    if (token === sim.fieldToken) {
      setField({ answer: field, agent: null, rally: goal });
      $('sim-field').textContent = `rally point ${goal[0]}, ${goal[1]}: ${flowDraw.summary(field)}`;
    } else {
      showState(true);
    }
    setMessage(`rally point ${goal[0]}, ${goal[1]}: ${sent} agent${sent === 1 ? '' : 's'} sent`);
  } catch (e) {
    if (session === sim.session) setMessage(e.message);
  }
}

/** Steps `ticks` ticks (one request at a time); false when the request could not be made. */
async function step(ticks) {
  if (!sim.session || sim.busy) return false;
  sim.busy = true;
  const session = sim.session;
  sim.request = api.simStep(session.id, ticks).then((st) => {
    if (session === sim.session) apply(st);
  }, (e) => {
    pause();
    setMessage(e.status === 404 ? 'this simulation has ended on the server: Restart' : e.message);
  }).finally(() => { sim.busy = false; });
  await sim.request;
  return true;
}

function play() {
  if (!sim.session || sim.state.finished) return;
  sim.playing = true;
  sim.due = 0;
  sim.lastFrame = performance.now();
  setMessage(`playing at ${$('sim-speed').value}× real time`);
}
function pause() { sim.playing = false; }

function frame(now) {
  if (sim.playing && sim.session) {
    const rate = Number($('sim-speed').value) || 1;
    sim.due += Math.min(0.25, (now - sim.lastFrame) / 1000) * rate;
    const ticks = Math.floor(sim.due / sim.session.dt + 1e-9);
    if (ticks >= 1 && !sim.busy) {
      sim.due -= ticks * sim.session.dt;
      step(Math.min(500, ticks));
    }
  }
  sim.lastFrame = now;
  if (!document.getElementById('sim-view').hidden) draw(now);
  requestAnimationFrame(frame);
}

// ---- interaction ---------------------------------------------------------------------------
canvas.addEventListener('pointerdown', async (ev) => {
  if (!sim.session) return;
  const r = canvas.getBoundingClientRect();
  const at = [(ev.clientX - r.left) / sim.cp, (ev.clientY - r.top) / sim.cp];
  // One action per click: the rally point for a flow crowd (by default), else a dropped shape.
  if (sim.flow && $('sim-click').value === 'rally') {
    setRally(at);
    return;
  }
  const shape = DROPS[$('sim-shape').value] || DROPS.disc;
  const session = sim.session;
  try {
    const st = await api.simObstacle(session.id, { ...shape, at });
    if (session !== sim.session) return;
    sim.state = st;
    sim.tween = null;
    showState();
    draw();
    setMessage(`dropped ${shape.kind} ${st.added} at ${fmt(at[0], 1)}, ${fmt(at[1], 1)}`);
  } catch (e) {
    setMessage(e.message);
  }
});

async function sendDrive() {
  if (!sim.session) return;
  let vx = 0, vy = 0;
  for (const k of sim.keys) { vx += KEYS[k][0]; vy += KEYS[k][1]; }
  const n = Math.hypot(vx, vy);
  const v = n > 0 ? [(vx / n) * DRIVE_SPEED, (vy / n) * DRIVE_SPEED] : [0, 0];
  if (v[0] === sim.driving[0] && v[1] === sim.driving[1]) return;
  sim.driving = v;
  try {
    await api.simTarget(sim.session.id, { velocity: v });
  } catch (e) {
    setMessage(e.message);
  }
}

const driving = () => !$('sim-view').hidden && $('sim-drive').checked && !$('sim-drive').disabled;
document.addEventListener('keydown', (ev) => {
  if (!driving() || !(ev.key in KEYS)) return;
  if (ev.target instanceof HTMLSelectElement) return;
  ev.preventDefault();
  // Shift changes w to W between keydown and keyup: track the direction's lower-case name.
  sim.keys.add(ev.key.length === 1 ? ev.key.toLowerCase() : ev.key);
  sendDrive();
});
document.addEventListener('keyup', (ev) => {
  if (!(ev.key in KEYS)) return;
  sim.keys.delete(ev.key.length === 1 ? ev.key.toLowerCase() : ev.key);
  if (driving()) sendDrive();
});
window.addEventListener('blur', () => { sim.keys.clear(); if (driving()) sendDrive(); });

// ---- the view switch -------------------------------------------------------------------------
let scenariosLoaded = null;
async function loadScenarios() {
  const { scenarios } = await api.listScenarios();
  const sel = $('sim-scenario');
  for (const s of scenarios) {
    const o = new Option(`${s.file.replace(/\.json$/, '')}${s.chase ? ' (chase)' : ''}`, s.file);
    o.title = s.error || s.name;
    o.disabled = Boolean(s.error);
    sel.add(o);
  }
  const usable = scenarios.filter((s) => !s.error).map((s) => s.file);
  sel.value = usable.includes('hybrid_l_trap.json') ? 'hybrid_l_trap.json' : usable[0] || '';
  await load();
}

const TAGLINES = {
  search: 'draw walls, drag start and goal, watch the search',
  sim: 'drop obstacles in the agents\' way, watch them replan',
  link: 'join two equal tiles with at most two turns',
};
function show(view) {
  document.body.dataset.view = view;
  document.querySelector('header .tagline').textContent = TAGLINES[view];
  for (const b of document.querySelectorAll('#views button')) b.setAttribute('aria-selected', String(b.dataset.view === view));
  $('search-view').hidden = view !== 'search';
  $('sim-view').hidden = view !== 'sim';
  $('link-view').hidden = view !== 'link';
  if (view !== 'sim') pause();
  if (view === 'sim' && !scenariosLoaded) scenariosLoaded = loadScenarios().catch((e) => setMessage(e.message));
  document.dispatchEvent(new CustomEvent('pathlab:view', { detail: view }));  // link.js listens
}

for (const b of document.querySelectorAll('#views button')) b.addEventListener('click', () => show(b.dataset.view));
$('sim-scenario').addEventListener('change', load);
$('sim-planner').addEventListener('change', load);
$('sim-restart').addEventListener('click', load);
$('sim-play').addEventListener('click', play);
$('sim-pause').addEventListener('click', () => { pause(); setMessage('paused'); });
// Step waits for a step that playback has in flight, then asks for exactly one tick.
$('sim-step').addEventListener('click', async () => {
  pause();
  await sim.request;
  await step(1);
  setMessage(`paused at ${fmt(sim.state.time)} s (tick ${sim.state.ticks})`);
});
$('sim-speed').addEventListener('change', () => { if (sim.playing) play(); });
$('sim-show-field').addEventListener('change', () => draw());
// A click on a flow agent's row shows the field that agent follows.
$('sim-agents').querySelector('tbody').addEventListener('click', (ev) => {
  const tr = ev.target.closest('tr');
  if (!tr || !sim.session || !('flow' in tr.dataset)) return;
  const index = [...tr.parentNode.children].indexOf(tr);
  if (index >= 0) showField(index);
});
$('sim-drive').addEventListener('change', () => {
  sim.keys.clear();
  if ($('sim-drive').checked) canvas.focus();
  else sendDrive();  // the target stops where it is
});
show({ '#sim': 'sim', '#link': 'link' }[location.hash] || 'search');
requestAnimationFrame(frame);
