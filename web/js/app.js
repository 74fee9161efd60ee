// The visualizer: a map model, a canvas drawn cell by cell (only changed cells are repainted,
// so a 512x512 search animates smoothly), editing with the mouse, trace animation, and chase
// mode. Segments (any-angle paths, smoothed paths, line-of-sight checks) go on a transparent
// overlay canvas over each grid canvas: the cells repaint one by one underneath, and the
// overlay is cleared and redrawn whole. The browser never runs a search itself: it asks the server.
// Flow mode: clicks pick goals, the server answers the flow field (POST /api/flow), and the map
// shows every cell's distance to the nearest goal with an arrow for its first move (flow.js).
// Map kinds (geometry.js): hex maps are drawn as hexes, walls on cell edges as lines on the
// overlay, a layered map's floors side by side with its links ringed; the page keeps grid cells
// (floors stacked as the API stacks them) and speaks [x, y, layer] to the API.
// Free points: with an algorithm that takes any point (GET /api/algorithms "points":
// anyangle-exact) on a plain square map, S and G may sit anywhere in free space: dragging them
// puts them at the mouse's exact position in map units, the request sends those fractional
// coordinates (POST /api/solve between points) and the path is drawn from them.
import * as api from './api.js';
import * as flowDraw from './flow.js';
import { makeGeometry } from './geometry.js';

const OPENED = 0, UPDATED = 1, CLOSED = 2;
const COLOURS = {
  free: '#fafafa', wall: '#34343f', open: '#96e196', path: '#ff8c00', start: '#00a03c', goal: '#d71e1e',
  // The render module's palette: kLine, kSmoothed, kSightClear, kSightBlocked.
  line: '#e65000', smoothed: '#dc00c8', sightClear: '#00be3c', sightBlocked: '#e60000',
  // Units: cells the unit cannot use, a movement range, and the terrain classes.
  unitBlocked: '#b4b4c8', range: '#ffe08a',
  // Map kinds: walls on cell edges, links (stairs, portals) and the links a path takes.
  edgeWall: '#202028', link: '#7a3cc8', linkTaken: '#7a3cc8',
};
const CLASS_COLOURS = { T: '#4f8f4f', W: '#4f7fbf', S: '#8f7f5f' };
const TERRAIN = ['#ece4d2', '#e0d4bb', '#d4c4a5', '#c8b48f', '#bca479', '#b09463', '#a4844d', '#967650'];
const CLOSED_SHADES = Array.from({ length: 64 }, (_, k) => {
  const t = k / 63, mix = (a, b) => Math.round(a + (b - a) * t);
  return `rgb(${mix(130, 170)},${mix(190, 90)},${mix(255, 210)})`;
});

const $ = (id) => document.getElementById(id);
const canvas = $('canvas');

// A panel is one canvas showing one search (the main view, or one lane of a race), with its
// overlay for segments; `shown` is the result whose path is drawn.
function makePanel(cv, overlay) {
  return {
    canvas: cv, ctx: cv.getContext('2d'), overlay, octx: overlay.getContext('2d'),
    marks: null, order: null, anim: null, shown: null,
  };
}
const main = makePanel(canvas, $('overlay'));

const state = {
  map: null,        // {name, width, height, walls: Uint8Array, terrain: Float32Array|null, start, goal}
  cp: 8,            // pixels per cell
  race: [],         // panels of the current race
  paused: false,
  drag: null,       // 'start' | 'goal' | 'paint'
  paintValue: 1,
  last: null,       // run or race: what the smooth toggle repeats
  // Bumped by each new map, search, race and chase: an answer that comes back after a newer one
  // was asked for (or after the map changed) is dropped instead of overwriting what is shown.
  epoch: 0,
  unitBlocked: null,  // Uint8Array: cells the current unit cannot use (from the server)
  range: null,        // Uint8Array: cells of the last movement range
  session: null,      // live repair: the server's map session id
  pending: [],        // live repair: edits not sent yet
  // Flow mode: the goals picked, the field answered for `accepted` (the goals it was built for),
  // and a token that drops answers a newer request has overtaken.
  flow: { goals: [], units: [], accepted: [], field: null, token: 0 },
  pointAlgorithms: new Set(),  // the algorithms that take any point (GET /api/algorithms)
};
const flowOn = () => $('flow-mode').checked;
/** Whether S and G may be points off the cell centres for `algorithm`: the free points box, an
 * algorithm that takes any point, a plain square map. */
function pointsAllowed(algorithm = $('algorithm').value) {
  return state.pointAlgorithms.has(algorithm) && !!state.map && state.map.geo.simple;
}
const pointsOn = (algorithm) => $('free-points').checked && pointsAllowed(algorithm);
/** The free points box is offered only where it applies. */
function updateFreePoints() {
  const box = $('free-points');
  box.disabled = !pointsAllowed();
  box.title = box.disabled ? `needs an algorithm that takes any point (${[...state.pointAlgorithms].join(', ')}) on a plain square map` : '';
  if (state.map) drawOverlay(main);
}

function setMessage(text) { $('message').textContent = text; }
const formatValue = (v) => (v === undefined || v === null ? '–'
  : (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v)));
function showStats(r) {
  for (const td of document.querySelectorAll('#stats td')) td.textContent = formatValue(r ? r[td.dataset.k] : undefined);
}

// ---- the map model ---------------------------------------------------------------------
function loadMap(m) {
  const n = m.width * m.height;
  // Hex layouts, walls on cell edges, floors and links (geometry.js): the page keeps grid cells
  // [x, y] (a layered map's floors stacked as the API stacks them) and the API's own fields to
  // send back with every request.
  const geo = makeGeometry(m);
  const kind = {
    layout: m.layout || 'square', layers: m.layers || null, layer_height: m.layer_height || null,
    edge_walls: m.edge_walls || null, links: m.links || null,
  };
  const edges = (m.edge_walls || []).map((e) => [...geo.fromWire(e.slice(0, -1)), e[e.length - 1]]);
  const links = (m.links || []).map((l) => ({ ...l, from: geo.fromWire(l.from), to: geo.fromWire(l.to) }));
  if (m.start) m.start = geo.fromWire(m.start);
  if (m.goal) m.goal = geo.fromWire(m.goal);
  const walls = new Uint8Array(n);
  for (let i = 0; i < n; i++) walls[i] = m.walls.charCodeAt(i) === 49 ? 1 : 0;
  const terrain = m.terrain ? Float32Array.from(m.terrain) : null;
  const classes = m.classes ? m.classes.split('') : null;  // '@' wall, '.' ground, 'T', ...
  const free = (c) => c && !walls[c[1] * m.width + c[0]];
  let start = free(m.start) ? m.start : null, goal = free(m.goal) ? m.goal : null;
  if (!start || !goal) {  // no markers: first and last free cells
    const cells = [];
    for (let i = 0; i < n; i++) if (!walls[i]) cells.push([i % m.width, Math.floor(i / m.width)]);
    start = start || cells[0];
    goal = goal || cells[cells.length - 1];
  }
  state.map = {
    name: m.name, width: m.width, height: m.height, walls, terrain, classes, start, goal,
    geo, kind, edges, links,
    // Free points: S and G in map units, or null (the centre of their cell).
    points: { start: null, goal: null },
  };
  state.epoch++;
  state.unitBlocked = null;
  state.range = null;
  state.race = [];  // a race on the old map stops, and its lanes go
  $('race-view').hidden = true;
  state.flow = { goals: [], units: [], accepted: [], field: null, token: state.flow.token + 1 };
  setFlowStatus(flowOn() ? 'click the map to pick goals' : '');
  dropSession();
  if ($('live-repair').checked) setTimeout(toggleLiveRepair);  // a session for the new map
  state.cp = Math.max(1, Math.floor(Math.min(800 / geo.width, 600 / geo.height)));
  canvas.width = main.overlay.width = Math.ceil(geo.width * state.cp);
  canvas.height = main.overlay.height = Math.ceil(geo.height * state.cp);
  // What the tests (and curious users) read: the map's kind as the page drew it.
  canvas.dataset.layout = geo.layout;
  canvas.classList.toggle('map-kind', !geo.simple);
  canvas.dataset.layers = String(geo.layers);
  canvas.dataset.cellPixels = String(state.cp);
  delete canvas.dataset.linksTaken;
  clearSearch();
  updateFreePoints();
}

const index = (x, y) => y * state.map.width + x;
const isWall = (x, y) => state.map.walls[index(x, y)] === 1;
const inside = (x, y) => state.map.geo.inside(x, y);

// ---- drawing: one cell at a time ---------------------------------------------------------
/** Flow mode (main panel): goals red, cells shaded by the field's distance, else the map. */
function flowCellColour(i) {
  const m = state.map, x = i % m.width, y = Math.floor(i / m.width), f = state.flow;
  if (f.goals.some((g) => g[0] === x && g[1] === y)) return COLOURS.goal;
  const shade = f.field ? flowDraw.cellColour(f.field, i) : null;
  if (shade) return shade;
  const cls = m.classes ? m.classes[i] : null;
  if (m.walls[i] && !(cls in CLASS_COLOURS)) return COLOURS.wall;
  if (cls in CLASS_COLOURS) return CLASS_COLOURS[cls];
  const t = m.terrain ? m.terrain[i] : 1;
  return t > 1 ? TERRAIN[Math.min(7, Math.max(0, Math.round(t) - 2))] : COLOURS.free;
}
function cellColour(p, i) {
  if (p === main && flowOn()) return flowCellColour(i);
  const m = state.map, x = i % m.width, y = Math.floor(i / m.width);
  if (m.start[0] === x && m.start[1] === y) return COLOURS.start;
  if (m.goal[0] === x && m.goal[1] === y) return COLOURS.goal;
  const cls = m.classes ? m.classes[i] : null;
  if (m.walls[i] && !(cls in CLASS_COLOURS)) return COLOURS.wall;
  if (state.unitBlocked && state.unitBlocked[i]) return cls in CLASS_COLOURS ? CLASS_COLOURS[cls] : COLOURS.unitBlocked;
  const mark = p.marks[i];
  if (mark === 3) return COLOURS.path;
  if (mark === 2) {
    const total = Math.max(1, p.anim ? p.anim.closedTotal - 1 : 1);
    return CLOSED_SHADES[Math.min(63, Math.floor((p.order[i] * 63) / total))];
  }
  if (mark === 1) return COLOURS.open;
  if (p === main && state.range && state.range[i]) return COLOURS.range;
  if (cls in CLASS_COLOURS) return CLASS_COLOURS[cls];
  const t = m.terrain ? m.terrain[i] : 1;
  return t > 1 ? TERRAIN[Math.min(7, Math.max(0, Math.round(t) - 2))] : COLOURS.free;
}
function drawCell(i, p = main) {
  const w = state.map.width, cp = p.cp || state.cp, g = state.map.geo;
  if (g.simple) {
    p.ctx.fillStyle = cellColour(p, i);
    p.ctx.fillRect((i % w) * cp, Math.floor(i / w) * cp, cp, cp);
    return;
  }
  const x = i % w, y = Math.floor(i / w);
  if (g.between(y)) return;  // the wall rows between floors are not drawn
  const c = p.ctx;
  c.fillStyle = cellColour(p, i);
  const pts = g.outline(x, y);
  if (!g.hex) {
    c.fillRect(pts[0][0] * cp, pts[0][1] * cp, cp, cp);
    return;
  }
  c.beginPath();
  pts.forEach(([u, v], k) => (k ? c.lineTo(u * cp, v * cp) : c.moveTo(u * cp, v * cp)));
  c.closePath();
  c.fill();
  // The hex's own colour over its outline too, so that no seam shows between neighbours.
  c.strokeStyle = c.fillStyle;
  c.lineWidth = 1;
  c.stroke();
}
function resetPanel(p) {
  const n = state.map.width * state.map.height;
  p.marks = new Uint8Array(n);
  p.order = new Uint32Array(n);
  p.anim = null;
  p.shown = null;
  for (let i = 0; i < n; i++) drawCell(i, p);
  drawOverlay(p);
}

// ---- drawing: segments on the overlay -------------------------------------------------------
/** Straight segments through points in map units (cell (x,y) spans [x,x+1]), a dot per vertex. */
function strokePolyline(p, points, colour) {
  if (!points || points.length === 0) return;
  const cp = p.cp || state.cp, o = p.octx;
  o.strokeStyle = o.fillStyle = colour;
  o.lineWidth = Math.max(1.5, cp * 0.25);
  o.lineJoin = o.lineCap = 'round';
  o.beginPath();
  points.forEach(([x, y], k) => (k ? o.lineTo(x * cp, y * cp) : o.moveTo(x * cp, y * cp)));
  o.stroke();
  const r = Math.max(1.5, cp * 0.2);
  for (const [x, y] of points) {
    o.beginPath();
    o.arc(x * cp, y * cp, r, 0, 2 * Math.PI);
    o.fill();
  }
}

/** Free points: S and G as rings at their exact position (their cells stay coloured). */
function drawFreePoints(p) {
  if (!pointsOn()) return;
  const o = p.octx, cp = p.cp || state.cp, pts = state.map.points;
  o.save();
  o.lineWidth = Math.max(1.5, cp * 0.12);
  for (const [which, colour] of [['start', COLOURS.start], ['goal', COLOURS.goal]]) {
    const [x, y] = pts[which] || state.map.geo.centre(...state.map[which]);
    o.strokeStyle = colour;
    o.beginPath();
    o.arc(x * cp, y * cp, Math.max(3, cp * 0.35), 0, 2 * Math.PI);
    o.stroke();
  }
  o.restore();
}

/** The map's own marks: walls on cell edges as lines, each link's ends as rings joined by a
 * dotted line (one-way links with an arrow head), each floor's number. */
function drawMapFeatures(p) {
  const m = state.map, g = m.geo, o = p.octx, cp = p.cp || state.cp;
  if (m.edges.length) {
    o.save();
    o.strokeStyle = COLOURS.edgeWall;
    o.lineWidth = Math.max(2, cp * 0.18);
    o.lineCap = 'round';
    o.beginPath();
    for (const [x, y, side] of m.edges) {
      const [[x0, y0], [x1, y1]] = g.edge(x, y, side);
      o.moveTo(x0 * cp, y0 * cp);
      o.lineTo(x1 * cp, y1 * cp);
    }
    o.stroke();
    o.restore();
  }
  if (g.layers > 1) {
    o.save();
    o.fillStyle = COLOURS.link;
    o.font = `bold ${Math.max(10, Math.min(16, cp))}px sans-serif`;
    o.textBaseline = 'top';
    for (let l = 0; l < g.layers; l++) {
      const [u, v] = g.floorOrigin(l);
      o.fillText(`floor ${l}`, u * cp + 2, v * cp + 2);
    }
    o.restore();
  }
  if (m.links.length) {
    o.save();
    o.strokeStyle = COLOURS.link;
    o.lineWidth = Math.max(1.5, cp * 0.1);
    const r = Math.max(3, cp * 0.3);
    for (const l of m.links) {
      const [ax, ay] = g.centre(l.from[0], l.from[1]), [bx, by] = g.centre(l.to[0], l.to[1]);
      o.setLineDash([]);
      for (const [u, v] of [[ax, ay], [bx, by]]) {
        o.beginPath();
        o.arc(u * cp, v * cp, r, 0, 2 * Math.PI);
        o.stroke();
      }
      o.setLineDash([2, 4]);
      o.beginPath();
      o.moveTo(ax * cp, ay * cp);
      o.lineTo(bx * cp, by * cp);
      o.stroke();
      if (l.oneway) arrowHead(o, ax * cp, ay * cp, bx * cp, by * cp, r);
    }
    o.restore();
  }
}
/** An arrow head at (bx, by) - r along the segment from (ax, ay). */
function arrowHead(o, ax, ay, bx, by, r) {
  const len = Math.hypot(bx - ax, by - ay);
  if (len === 0) return;
  const ux = (bx - ax) / len, uy = (by - ay) / len, tx = bx - ux * r, ty = by - uy * r, h = r * 1.2;
  o.setLineDash([]);
  o.beginPath();
  o.moveTo(tx - h * (ux - uy * 0.6), ty - h * (uy + ux * 0.6));
  o.lineTo(tx, ty);
  o.lineTo(tx - h * (ux + uy * 0.6), ty - h * (uy - ux * 0.6));
  o.stroke();
}

/** Whether two grid cells are a move apart on the map (else the path took a link between them). */
function adjacent(a, b) {
  const g = state.map.geo;
  if (g.floorOf(a[1]) !== g.floorOf(b[1])) return false;
  const [ax, ay] = g.centre(a[0], a[1]), [bx, by] = g.centre(b[0], b[1]);
  return Math.hypot(bx - ax, by - ay) < 1.5;  // neighbours are 1 (or sqrt 2) apart
}
/** The links a path takes: [from, to] grid cells of each step that is no move on the map. */
function linksTaken(path) {
  const out = [];
  for (let k = 1; k < path.length; k++) if (!adjacent(path[k - 1], path[k])) out.push([path[k - 1], path[k]]);
  return out;
}
/** On a map that is not plain square: the path through its cells' centres, and every link it
 * takes as a thick dashed line between the link's ends, with a ring at each end. */
function strokeCellPath(p, path) {
  const g = state.map.geo, cp = p.cp || state.cp, o = p.octx;
  if (!path || path.length === 0) return;
  o.save();
  o.strokeStyle = COLOURS.line;
  o.lineWidth = Math.max(1.5, cp * 0.2);
  o.lineJoin = o.lineCap = 'round';
  o.beginPath();
  path.forEach((c, k) => {
    const [u, v] = g.centre(c[0], c[1]);
    if (k === 0 || !adjacent(path[k - 1], c)) o.moveTo(u * cp, v * cp);
    else o.lineTo(u * cp, v * cp);
  });
  o.stroke();
  o.strokeStyle = COLOURS.linkTaken;
  o.lineWidth = Math.max(2.5, cp * 0.25);
  for (const [a, b] of linksTaken(path)) {
    const [ax, ay] = g.centre(a[0], a[1]), [bx, by] = g.centre(b[0], b[1]);
    o.setLineDash([Math.max(4, cp * 0.5), Math.max(3, cp * 0.3)]);
    o.beginPath();
    o.moveTo(ax * cp, ay * cp);
    o.lineTo(bx * cp, by * cp);
    o.stroke();
    o.setLineDash([]);
    for (const [u, v] of [[ax, ay], [bx, by]]) {
      o.beginPath();
      o.arc(u * cp, v * cp, Math.max(4, cp * 0.45), 0, 2 * Math.PI);
      o.stroke();
    }
    arrowHead(o, ax * cp, ay * cp, bx * cp, by * cp, Math.max(4, cp * 0.45));
  }
  o.restore();
}

/** The latest line-of-sight check while a trace plays, the path's segments once it is done. */
function drawOverlay(p) {
  const o = p.octx, cp = p.cp || state.cp, g = state.map.geo;
  o.clearRect(0, 0, p.overlay.width, p.overlay.height);
  drawMapFeatures(p);
  if (p === main && flowOn()) {
    const f = state.flow.field;
    if (f) {
      flowDraw.drawArrows(o, f, cp, g);
      if (g.simple) flowDraw.drawSectors(o, f, cp);
      flowDraw.drawGoals(o, f, cp, g);
    }
    if ($('flow-sectors').checked) flowDraw.drawUnits(o, state.flow.units, cp, g);
    return;
  }
  const a = p.anim;
  if (a && !a.done && a.sight >= 0) {
    const w = state.map.width, centre = (i) => g.centre(i % w, Math.floor(i / w)).map((v) => v * cp);
    const [x0, y0] = centre(a.cells[a.sight]), [x1, y1] = centre(a.others[a.sight]);
    o.strokeStyle = a.types[a.sight] === api.LOS_CLEAR ? COLOURS.sightClear : COLOURS.sightBlocked;
    o.lineWidth = Math.max(1, cp * 0.15);
    o.lineCap = 'round';
    o.beginPath();
    o.moveTo(x0, y0);
    o.lineTo(x1, y1);
    o.stroke();
  }
  const r = p.shown;
  if (p === main) drawFreePoints(p);
  if (!r) return;
  if (!g.simple) {  // points are in square map units: draw through the cells' own centres
    strokeCellPath(p, r.cells);
    return;
  }
  // As in the renders: the smoothed path under the any-angle one, so its colour shows only
  // where smoothing found a shortcut.
  strokePolyline(p, r.smoothed_points, COLOURS.smoothed);
  if (r.any_angle) strokePolyline(p, r.points, COLOURS.line);
}
function clearSearch() {
  resetPanel(main);
  showStats(null);
  delete canvas.dataset.points;
}

/** Marks the path's cells (an any-angle path's turning cells) and draws its segments. */
function showPath(p, r) {
  const g = state.map.geo;
  r.cells = r.path.map((c) => g.fromWire(c));  // grid cells ([x, y, layer] on layered maps)
  for (const [x, y] of r.cells) {
    const i = index(x, y);
    p.marks[i] = 3;
    drawCell(i, p);
  }
  p.shown = r;
  drawOverlay(p);
  if (p === main) {
    // What the tests read: the path's points in map units as drawn.
    canvas.dataset.points = JSON.stringify(r.points || []);
    const taken = g.layers > 1 || state.map.links.length ? linksTaken(r.cells) : [];
    canvas.dataset.linksTaken = JSON.stringify(taken.map(([a, b]) => [g.toWire(a), g.toWire(b)]));
    return taken.map(([a, b]) => `${g.label(a)} → ${g.label(b)}`);
  }
  return [];
}

function startAnimation(p, r) {
  const { types, cells, others } = api.decodeTrace(r.trace || []);
  let closedTotal = 0;
  for (const t of types) if (t === CLOSED) closedTotal++;
  p.anim = { types, cells, others, next: 0, closedTotal, closedSeen: 0, sight: -1, result: r };
}

// ---- search and animation ----------------------------------------------------------------
function mapRequest() {
  const m = state.map;
  let walls = '';
  for (let i = 0; i < m.walls.length; i++) walls += m.walls[i] ? '1' : '0';
  return {
    width: m.width, height: m.height, walls, terrain: m.terrain ? Array.from(m.terrain) : null,
    classes: m.classes ? m.classes.join('') : null, ...m.kind,
  };
}
/** The unit of the Unit panel: radius and class costs (the server checks them). */
function unitRequest() {
  const radius = parseFloat($('unit-radius').value);
  const costs = $('unit-class-cost').value.trim();
  return { radius: Number.isFinite(radius) ? radius : 0, class_cost: costs || null };
}
/** A free point as the API reads one: [x, y] with a fractional number ([10, 4] is a cell). A
 * point on a grid corner goes a billionth of a cell off, which the library's hold of points
 * (1/4096 of a cell) takes back. */
const wirePoint = ([x, y]) => (Number.isInteger(x) && Number.isInteger(y) ? [x + 1e-9, y] : [x, y]);
/** S or G as the request sends it: its free point when free points apply, else its cell. */
function endpoint(which, algorithm) {
  const m = state.map, p = m.points[which];
  return p && pointsOn(algorithm) ? wirePoint(p) : m.geo.toWire(m[which]);
}
function request(trace, algorithm = $('algorithm').value) {
  const m = state.map;
  const weight = parseFloat($('weight').value);
  // Between points the path is already taut: smoothing takes cells only.
  const points = pointsOn(algorithm) && !!(m.points.start || m.points.goal);
  return {
    map: mapRequest(),
    start: endpoint('start', algorithm), goal: endpoint('goal', algorithm), algorithm,
    heuristic: $('heuristic').value || null, weight: Number.isFinite(weight) ? weight : null,
    diagonal: $('diagonal').value, trace, smooth: !points && $('smooth').checked, ...unitRequest(),
  };
}
/** Keeps the cells the answer's unit cannot use, repainting when they change. */
function setUnitBlocked(r) {
  const s = r.unit_blocked;
  const next = s ? Uint8Array.from(s, (ch) => (ch === '1' ? 1 : 0)) : null;
  const same = (!next && !state.unitBlocked) ||
    (next && state.unitBlocked && next.every((v, i) => v === state.unitBlocked[i]));
  state.unitBlocked = next;
  if (!same) for (let i = 0; i < state.map.walls.length; i++) drawCell(i);
}

async function run() {
  leaveFlowMode();
  clearSearch();
  state.last = run;
  const epoch = ++state.epoch;
  setMessage('searching…');
  try {
    const r = await api.solve(request(true));
    if (epoch !== state.epoch) return;
    state.range = null;
    setUnitBlocked(r);
    startAnimation(main, r);
    state.paused = false;
    setMessage(`${r.algorithm}: ${main.anim.types.length} events`);
    requestAnimationFrame(() => tick(main.anim));
  } catch (e) {
    if (epoch === state.epoch) setMessage(e.message);
  }
}

/** Applies events on panel p until `count` more cells are expanded. */
function applyEvents(count, p = main) {
  const a = p.anim, sight = a.sight;
  while (count > 0 && a.next < a.types.length) {
    const t = a.types[a.next], c = a.cells[a.next];
    a.next++;
    if (t === api.LOS_CLEAR || t === api.LOS_BLOCKED) {
      if (a.others[a.next - 1] >= 0) a.sight = a.next - 1;
      continue;
    }
    if (t === CLOSED) {
      p.marks[c] = 2;
      p.order[c] = a.closedSeen++;
      count--;
    } else if ((t === OPENED || t === UPDATED) && p.marks[c] !== 2) {
      p.marks[c] = 1;
    } else {
      continue;
    }
    drawCell(c, p);
  }
  if (a.next >= a.types.length && !a.done) finish(p);
  else if (a.sight !== sight) drawOverlay(p);
}

function finish(p) {
  const a = p.anim, r = a.result;
  a.done = true;
  const taken = showPath(p, r);
  if (p === main) {
    showStats(r);
    setMessage(`${r.algorithm}: ${r.status}${taken.length ? ` · takes ${taken.length === 1 ? 'a link' : `${taken.length} links`}: ${taken.join(', ')}` : ''}`);
  }
}

// Each animation loop serves one trace: a new run (or the smooth toggle's) ends the old loop
// instead of running two at once.
function tick(a) {
  if (!a || a !== main.anim || a.done || state.paused) return;
  // The speed slider spreads a search over ~12 s (1) down to ~0.3 s (100).
  const seconds = 12 / Math.pow(1.038, Number($('speed').value));
  applyEvents(Math.max(1, Math.ceil(a.closedTotal / (seconds * 60))));
  requestAnimationFrame(() => tick(a));
}

// ---- racing: up to four algorithms side by side, in lockstep ------------------------------
async function race() {
  const algos = [...document.querySelectorAll('.race-algo')].map((x) => x.value).filter(Boolean);
  if (algos.length < 2) { setMessage('pick two to four algorithms to race'); return; }
  leaveFlowMode();
  const m = state.map;
  state.last = race;
  const epoch = ++state.epoch;
  setMessage(`racing ${algos.join(', ')}…`);
  // One algorithm the server refuses (an unknown or unfinished one) must not cancel the race:
  // its lane and row show the server's message instead.
  const settled = await Promise.allSettled(algos.map((a) => api.solve(request(true, a))));
  if (epoch !== state.epoch) return;
  if (settled.every((s) => s.status === 'rejected')) {
    setMessage(settled[0].reason.message);
    return;
  }
  const lanes = $('race-lanes');
  lanes.replaceChildren();
  const cp = Math.max(1, Math.floor(Math.min(420 / m.geo.width, 320 / m.geo.height)));
  state.race = [];
  settled.forEach((s, k) => {
    const fig = document.createElement('figure');
    const cap = document.createElement('figcaption');
    cap.textContent = algos[k];
    fig.append(cap);
    lanes.append(fig);
    if (s.status === 'rejected') {
      const msg = document.createElement('p');
      msg.className = 'lane-error';
      msg.textContent = s.reason.message;
      fig.append(msg);
      return;
    }
    const board = document.createElement('div');
    board.className = 'board';
    const cv = document.createElement('canvas'), overlay = document.createElement('canvas');
    overlay.className = 'overlay';
    cv.classList.toggle('map-kind', !m.geo.simple);
    cv.width = overlay.width = Math.ceil(m.geo.width * cp);
    cv.height = overlay.height = Math.ceil(m.geo.height * cp);
    board.append(cv, overlay);
    fig.append(board);
    const p = makePanel(cv, overlay);
    p.cp = cp;
    resetPanel(p);
    startAnimation(p, s.value);
    state.race.push(p);
  });
  const body = $('race-results').querySelector('tbody');
  body.replaceChildren();
  settled.forEach((s, k) => {
    const r = s.value;
    const cells = r
      ? [r.algorithm, r.status, r.cost.toFixed(3), r.moves, r.expanded, r.los_checks,
        r.smoothed_cost === undefined ? '–' : r.smoothed_cost.toFixed(3), Math.round(r.time_us)]
      : [algos[k], s.reason.message, '–', '–', '–', '–', '–', '–'];
    const tr = document.createElement('tr');
    if (!r) tr.className = 'error';
    for (const v of cells) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.append(td);
    }
    body.append(tr);
  });
  $('race-view').hidden = false;
  const lanesNow = state.race;
  requestAnimationFrame(() => raceTick(lanesNow, epoch));
}

function raceTick(lanesNow, epoch) {
  if (lanesNow !== state.race) return;
  const live = state.race.filter((p) => !p.anim.done);
  if (live.length === 0) {  // said only if nothing newer has been asked for since
    if (epoch === state.epoch) setMessage('race finished');
    return;
  }
  // Lockstep: every lane expands the same number of cells per frame.
  const longest = Math.max(...state.race.map((p) => p.anim.closedTotal));
  const seconds = 12 / Math.pow(1.038, Number($('speed').value));
  const count = Math.max(1, Math.ceil(longest / (seconds * 60)));
  for (const p of live) applyEvents(count, p);
  requestAnimationFrame(() => raceTick(lanesNow, epoch));
}

// ---- editing -----------------------------------------------------------------------------
function cellAt(ev) {
  const r = canvas.getBoundingClientRect(), g = state.map.geo;
  if (g.simple) return [Math.floor((ev.clientX - r.left) / state.cp), Math.floor((ev.clientY - r.top) / state.cp)];
  return g.pick((ev.clientX - r.left) / state.cp, (ev.clientY - r.top) / state.cp) || [-1, -1];
}
function tool() { return document.querySelector('input[name=tool]:checked').value; }
/** The mouse's position in map units (cell (x, y) spans [x, x + 1] x [y, y + 1]). */
function pointAt(ev) {
  const r = canvas.getBoundingClientRect();
  return [(ev.clientX - r.left) / state.cp, (ev.clientY - r.top) / state.cp];
}
/** Moves S or G to cell c (free points: to point p in it; without, to the cell's centre). */
function moveEndpoint(which, c, p = null) {
  const m = state.map, old = m[which];
  m[which] = c;
  m.points[which] = p;
  drawCell(index(old[0], old[1]));
  drawCell(index(c[0], c[1]));
  drawOverlay(main);
}
/** Free points: S or G dragged to the mouse, when the mouse is over free space. */
function dragPoint(which, ev) {
  const p = pointAt(ev), x = Math.min(Math.floor(p[0]), state.map.width - 1);
  const y = Math.min(Math.floor(p[1]), state.map.height - 1);
  if (!inside(x, y) || isWall(x, y)) return;
  moveEndpoint(which, [x, y], p);
}

function paint(x, y) {
  if (!inside(x, y)) return;
  const m = state.map, i = index(x, y);
  if ((m.start[0] === x && m.start[1] === y) || (m.goal[0] === x && m.goal[1] === y)) return;
  if (tool() === 'terrain') {
    if (!m.terrain) m.terrain = new Float32Array(m.walls.length).fill(1);
    m.walls[i] = 0;
    m.terrain[i] = Math.max(1, Number($('terrain-cost').value) || 1);
  } else {
    m.walls[i] = state.paintValue;
    if (m.classes) m.classes[i] = state.paintValue ? '@' : '.';
  }
  main.marks[i] = 0;
  drawCell(i);
  if (state.session) {
    state.pending.push(tool() === 'terrain'
      ? { kind: 'terrain', cell: m.geo.toWire([x, y]), cost: m.terrain[i] }
      : { kind: m.walls[i] ? 'wall' : 'free', cell: m.geo.toWire([x, y]) });
  }
}

canvas.addEventListener('pointerdown', (ev) => {
  if (!state.map) return;
  const [x, y] = cellAt(ev);
  if (!inside(x, y)) return;
  if (flowOn()) {  // flow mode: a click adds or removes a goal (shift: a unit), nothing is dragged
    if (ev.shiftKey && $('flow-sectors').checked) pickFlowUnit(x, y);
    else pickFlowGoal(x, y);
    return;
  }
  const m = state.map;
  state.drag = null;
  if (m.start[0] === x && m.start[1] === y) state.drag = 'start';
  else if (m.goal[0] === x && m.goal[1] === y) state.drag = 'goal';
  if (state.drag && pointsOn()) dragPoint(state.drag, ev);  // free points: where the click is
  else if (!state.drag) {
    state.drag = 'paint';
    state.paintValue = tool() === 'erase' ? 0 : (tool() === 'wall' ? (isWall(x, y) ? 0 : 1) : 0);
    paint(x, y);
  }
  canvas.setPointerCapture(ev.pointerId);
});
canvas.addEventListener('pointermove', (ev) => {
  if (!state.drag) return;
  const [x, y] = cellAt(ev);
  if (state.drag === 'paint') return paint(x, y);
  if (pointsOn()) return dragPoint(state.drag, ev);
  if (!inside(x, y) || isWall(x, y)) return;
  const old = state.map[state.drag];
  if (old[0] === x && old[1] === y) return;
  moveEndpoint(state.drag, [x, y]);
});
canvas.addEventListener('pointerup', () => {
  const moved = state.drag === 'start' || state.drag === 'goal';
  const painted = state.drag === 'paint';
  state.drag = null;
  if (moved && $('chase').checked) chase();
  if (state.session && (moved || painted)) liveRepair();
});

// ---- units: movement range, live repair on the server's copy of the map --------------------
async function range() {
  const budget = parseFloat($('range-budget').value);
  leaveFlowMode();
  try {
    const g = state.map.geo;
    const r = await api.reach({ map: mapRequest(), start: g.toWire(state.map.start), budget,
                                diagonal: $('diagonal').value, ...unitRequest() });
    clearSearch();
    state.range = new Uint8Array(state.map.walls.length);
    // [x, y, cost], or [x, y, layer, cost] on a layered map.
    for (const c of r.cells) {
      const [x, y] = g.fromWire(g.layers > 1 ? c.slice(0, 3) : c);
      state.range[index(x, y)] = 1;
    }
    for (let i = 0; i < state.range.length; i++) drawCell(i);
    setMessage(`movement range: ${r.cells.length} cells within ${budget}`);
  } catch (e) {
    setMessage(e.message);
  }
}

function dropSession() {
  if (state.session) api.mapSessionDelete(state.session).catch(() => {});
  state.session = null;
  state.pending = [];
}
let repairing = Promise.resolve();
/** Sends the edits drawn since the last call, then solves on the server's map: the finder kept
 * there repairs its caches. Calls run one after another. */
function liveRepair() {
  repairing = repairing.then(async () => {
    if (!state.session) return;
    const edits = state.pending;
    state.pending = [];
    try {
      if (edits.length) await api.mapSessionEdit(state.session, edits);
      const { map, ...query } = request(false);
      const r = await api.mapSessionSolve(state.session, query);
      clearSearch();
      setUnitBlocked(r);
      if (r.status === 'found') showPath(main, r);
      showStats(r);
      const us = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(0));
      $('repair-stats').textContent = `${r.edits} edit${r.edits === 1 ? '' : 's'} ${us(r.edit_us)} µs · ` +
        `repair ${us(r.repair_us)} µs · query ${us(r.time_us)} µs · ${r.status}`;
      setMessage(`live repair: ${r.status}`);
    } catch (e) {
      setMessage(e.message);
    }
  });
  return repairing;
}
async function toggleLiveRepair() {
  dropSession();
  $('repair-stats').textContent = '';
  if (!$('live-repair').checked || !state.map) return;
  try {
    state.session = (await api.mapSessionCreate(mapRequest())).id;
    await liveRepair();
  } catch (e) {
    setMessage(e.message);
  }
}

// ---- flow mode: goals picked on the map, the server's flow field drawn over it ----------------
function setFlowStatus(text) { $('flow-status').textContent = text; }
function redrawFlow() {
  for (let i = 0; i < state.map.walls.length; i++) drawCell(i);
  drawOverlay(main);
}
/** Asks the server for the field to the goals picked; on an error the last field stays, with
 * its goals, and the server's message is shown. */
async function buildFlow() {
  const f = state.flow, token = ++f.token;
  if (f.goals.length === 0) {
    f.field = null;
    f.accepted = [];
    redrawFlow();
    setFlowStatus('click the map to pick goals');
    return;
  }
  const goals = f.goals.map((g) => [...g]);
  const sight = parseFloat($('flow-sight').value);
  setFlowStatus(`building the field to ${goals.length} goal${goals.length > 1 ? 's' : ''}…`);
  try {
    // Sectors with units placed: the field only on the sectors on their way.
    const sectored = $('flow-sectors').checked && f.units.length > 0
      ? { units: f.units.map((u) => state.map.geo.toWire(u)), sector: Number($('flow-sector').value) } : {};
    const r = await api.flow({
      map: mapRequest(), goals: goals.map((c) => state.map.geo.toWire(c)), diagonal: $('diagonal').value,
      ...(Number.isFinite(sight) ? { sight } : {}), ...unitRequest(), ...sectored,
    });
    if (token !== f.token || !flowOn() || f !== state.flow) return;
    r.goals = r.goals.map((c) => state.map.geo.fromWire(c));
    f.field = flowDraw.prepare(r);
    f.accepted = goals;
    redrawFlow();
    setFlowStatus(flowDraw.summary(r));
  } catch (e) {
    if (token !== f.token || f !== state.flow) return;
    f.goals = f.accepted.map((g) => [...g]);
    redrawFlow();
    setFlowStatus(e.message);
  }
}
function pickFlowUnit(x, y) {
  if (!inside(x, y)) return;
  const f = state.flow, k = f.units.findIndex((u) => u[0] === x && u[1] === y);
  if (k >= 0) f.units.splice(k, 1);
  else f.units.push([x, y]);
  if (f.goals.length) buildFlow();
  else redrawFlow();
}
function pickFlowGoal(x, y) {
  if (!inside(x, y)) return;
  const f = state.flow, k = f.goals.findIndex((g) => g[0] === x && g[1] === y);
  if (k >= 0) f.goals.splice(k, 1);
  else f.goals.push([x, y]);
  drawCell(index(x, y));
  buildFlow();
}
/** The checkbox changed: flow mode shows the field (built again for the goals kept), and
 * leaving it brings the search view back. */
function setFlowMode() {
  const f = state.flow;
  f.token++;
  f.field = null;
  f.accepted = [];
  if (flowOn()) {
    state.range = null;
    if ($('chase').checked) $('chase').checked = false;
    if ($('live-repair').checked) {
      $('live-repair').checked = false;
      toggleLiveRepair();
    }
  }
  clearSearch();
  if (flowOn()) buildFlow();
  else setFlowStatus(f.goals.length ? `${f.goals.length} goal${f.goals.length > 1 ? 's' : ''} kept` : '');
}
function leaveFlowMode() {
  if (!flowOn()) return;
  $('flow-mode').checked = false;
  setFlowMode();
}

// ---- chase mode: arrows move the start, WASD the goal, the path re-solves live --------------
let chasing = false, chaseAgain = false;
async function chase() {
  if (chasing) { chaseAgain = true; return; }
  chasing = true;
  const epoch = ++state.epoch;
  try {
    const r = await api.solve(request(false));
    if (epoch === state.epoch) {  // else a new map or search came first: this answer is stale
      clearSearch();
      if (r.status === 'found') showPath(main, r);
      showStats(r);
      setMessage(`chase: ${r.status}`);
    }
  } catch (e) {
    if (epoch === state.epoch) setMessage(e.message);
  }
  chasing = false;
  if (chaseAgain) { chaseAgain = false; chase(); }
}
const KEYS = {
  ArrowUp: ['start', 0, -1], ArrowDown: ['start', 0, 1], ArrowLeft: ['start', -1, 0], ArrowRight: ['start', 1, 0],
  w: ['goal', 0, -1], s: ['goal', 0, 1], a: ['goal', -1, 0], d: ['goal', 1, 0],
};
document.addEventListener('keydown', (ev) => {
  if (document.body.dataset.view !== 'search') return;  // the other views have their own input
  if (!$('chase').checked || flowOn() || !state.map || !(ev.key in KEYS)) return;
  if (ev.target instanceof HTMLInputElement && ev.target.type !== 'checkbox') return;
  ev.preventDefault();
  const [which, dx, dy] = KEYS[ev.key];
  const m = state.map, [x, y] = m[which];
  if (!inside(x + dx, y + dy) || isWall(x + dx, y + dy)) return;
  moveEndpoint(which, [x + dx, y + dy]);
  chase();
});

// ---- files -------------------------------------------------------------------------------
function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}
function asText() {  // the users' format: a ruler, then 1 wall, 8 start, 9 goal, $ ends a row
  const m = state.map;
  const rows = ['----+'.repeat(Math.ceil(m.width / 5)).slice(0, m.width)];
  for (let y = 0; y < m.height; y++) {
    let row = '';
    for (let x = 0; x < m.width; x++) {
      row += (m.start[0] === x && m.start[1] === y) ? '8' : (m.goal[0] === x && m.goal[1] === y) ? '9'
        : isWall(x, y) ? '1' : ' ';
    }
    rows.push(row + '$');
  }
  return rows.join('\n') + '\n';
}
function asMovingAi() {
  // A hex map keeps its layout (Moving AI "type hex-..."); a layered map is saved as its stacked
  // grid (floors one under the other, wall rows between them) without its links.
  const m = state.map, type = m.geo.hex ? `hex-${m.geo.layout}` : 'octile';
  const rows = [`type ${type}`, `height ${m.height}`, `width ${m.width}`, 'map'];
  for (let y = 0; y < m.height; y++) {
    let row = '';
    for (let x = 0; x < m.width; x++) row += isWall(x, y) ? '@' : '.';
    rows.push(row);
  }
  return rows.join('\n') + '\n';
}

// ---- wiring ------------------------------------------------------------------------------
async function loadNamed(name) {
  try {
    const cell = name.endsWith('.png') || name.endsWith('.bmp') || name.endsWith('.jpg')
      ? Number($('cell').value) || 1 : 1;
    loadMap(await api.fetchMap(name, cell));
    setMessage(`${name}: ${mapSize()}`);
  } catch (e) {
    setMessage(e.message);
  }
}
/** "W×H", with the layout and floors of a map that is not plain square. */
function mapSize() {
  const m = state.map, g = m.geo;
  const size = `${m.width}×${g.layerHeight}`;
  const kind = [g.hex ? `${g.layout} hexes` : '', g.layers > 1 ? `${g.layers} floors` : '',
    m.edges.length ? `${m.edges.length} edge walls` : '', m.links.length ? `${m.links.length} links` : '']
    .filter(Boolean).join(', ');
  return kind ? `${size} (${kind})` : size;
}

async function init() {
  $('backend-note').hidden = api.backend !== 'worker';
  const [algos, maps] = await Promise.all([api.listAlgorithms(), api.listMaps()]);
  // ★ least cost, ∠ any-angle: straight segments between turning points.
  const label = (a) => `${a.name}${a.optimal ? ' ★' : ''}${a.any_angle ? ' ∠' : ''}`;
  for (const a of algos.algorithms) $('algorithm').add(new Option(label(a), a.name));
  $('algorithm').value = 'astar';
  state.pointAlgorithms = new Set(algos.points || []);
  $('algorithm').addEventListener('change', updateFreePoints);
  $('free-points').addEventListener('change', updateFreePoints);
  const picks = document.querySelectorAll('.race-algo');
  picks.forEach((sel, k) => {
    sel.add(new Option('—', ''));
    for (const a of algos.algorithms) sel.add(new Option(label(a), a.name));
    sel.value = ['astar', 'dijkstra', 'greedy', ''][k];
  });
  $('race').addEventListener('click', race);
  for (const name of maps.maps) $('map-select').add(new Option(name, name));
  $('map-select').value = maps.maps.includes('seed_maze.txt') ? 'seed_maze.txt' : maps.maps[0];
  $('map-select').addEventListener('change', () => loadNamed($('map-select').value));
  $('cell').value = 4;  // the bundled cave image has 4 pixels per cell
  await loadNamed($('map-select').value);
  $('run').addEventListener('click', run);
  $('range').addEventListener('click', range);
  $('live-repair').addEventListener('change', () => {
    if ($('live-repair').checked) leaveFlowMode();
    toggleLiveRepair();
  });
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    if (!state.paused) requestAnimationFrame(() => tick(main.anim));
  });
  $('step').addEventListener('click', () => {
    if (!main.anim) return;
    state.paused = true;
    $('pause').textContent = 'Resume';
    applyEvents(1);
  });
  $('clear').addEventListener('click', clearSearch);
  $('chase').addEventListener('change', () => {
    if ($('chase').checked) { leaveFlowMode(); canvas.focus(); chase(); }
  });
  $('flow-mode').addEventListener('change', setFlowMode);
  $('flow-clear').addEventListener('click', () => {
    state.flow.goals = [];
    state.flow.units = [];
    if (flowOn()) buildFlow();
    else setFlowStatus('');
  });
  // The unit, the diagonal rule and the sight range shape the field: build it again.
  for (const id of ['unit-radius', 'unit-class-cost', 'diagonal', 'flow-sight', 'flow-sectors', 'flow-sector']) {
    $(id).addEventListener('change', () => { if (flowOn() && state.flow.goals.length) buildFlow(); });
  }
  // Smoothing is the server's: toggling it asks again for what is on screen.
  $('smooth').addEventListener('change', () => {
    if ($('chase').checked) chase();
    else if (state.last) state.last();
  });
  $('upload').addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    try {
      loadMap(await api.parseMap(f.name, await f.arrayBuffer(), Number($('cell').value) || 1));
      setMessage(`${f.name}: ${mapSize()}`);
    } catch (e) {
      setMessage(e.message);
    }
  });
  $('download-text').addEventListener('click', () => download('map.txt', asText()));
  $('download-movingai').addEventListener('click', () => download('map.map', asMovingAi()));
}

init().catch((e) => setMessage(e.message));
