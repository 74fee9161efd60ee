// Drawing a flow field answered by the server (POST /api/flow, /api/sim/ID/goal and /field):
// every reachable cell shaded by its distance (near light, far dark), an arrow per cell for its
// first move when cells are big enough on screen (cells that see a goal point straight at it),
// and the goals marked. Shared by the search view (flow mode) and the simulation view (crowds).
// Nothing here computes a field: the page only draws what the server sent.

/** Direction codes 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, 7 NE (y grows downwards). */
export const DIRECTIONS = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
/** Arrows are drawn from this many pixels per cell on. */
export const ARROW_MIN_CP = 10;
export const GOAL_COLOUR = '#d71e1e';

// The distance ramp: pale yellow near the goals, through teal, to dark blue far from them.
const STOPS = [[255, 247, 188], [161, 218, 180], [65, 182, 196], [34, 94, 168], [23, 37, 110]];
const SHADES = 64;
const RAMP = Array.from({ length: SHADES }, (_, k) => {
  const t = (k / (SHADES - 1)) * (STOPS.length - 1), s = Math.min(STOPS.length - 2, Math.floor(t)), u = t - s;
  const [a, b] = [STOPS[s], STOPS[s + 1]];
  return a.map((v, c) => Math.round(v + (b[c] - v) * u));
});
const RAMP_CSS = RAMP.map(([r, g, b]) => `rgb(${r},${g},${b})`);

/** The ramp's colours as [r, g, b] (the tests look for them on the canvas). */
export const rampColours = () => RAMP.map((c) => [...c]);

/**
 * Adds what drawing needs to a field answer: `far` (the largest finite distance) and `goalSet`
 * (cell indices of the goals). Returns the same object.
 */
export function prepare(field) {
  let far = 0;
  for (const d of field.distance) if (d !== null && d > far) far = d;
  field.far = far;
  field.goalSet = new Set(field.goals.map(([x, y]) => y * field.width + x));
  return field;
}

/** The ramp's index for cell i, or -1 where no goal is reachable. */
function shadeIndex(field, i) {
  const d = field.distance[i];
  if (d === null || d === undefined) return -1;
  return field.far > 0 ? Math.min(SHADES - 1, Math.round((d / field.far) * (SHADES - 1))) : 0;
}
/** The CSS colour of cell i (goals red), or null where no goal is reachable. */
export function cellColour(field, i) {
  if (field.goalSet.has(i)) return GOAL_COLOUR;
  const k = shadeIndex(field, i);
  return k < 0 ? null : RAMP_CSS[k];
}

/** Where cell (x, y)'s centre is drawn, in pixels: on `geo` (geometry.js) when given. */
function centreOf(geo, x, y, cp) {
  if (!geo) return [(x + 0.5) * cp, (y + 0.5) * cp];
  const [u, v] = geo.centre(x, y);
  return [u * cp, v * cp];
}

/** The unit vector of cell i's arrow on a map that is not plain square (geometry.js), 'link'
 * where its first move takes a link, or null. */
function arrowOnGeometry(field, i, geo) {
  const w = field.width, x = i % w, y = Math.floor(i / w);
  const seen = field.sees ? field.sees[i] : -1;
  let to;
  if (seen !== undefined && seen >= 0 && field.goals[seen]) {
    to = field.goals[seen];
  } else {
    const dir = field.direction[i];
    if (dir === geo.linkCode) return 'link';
    to = geo.step(x, y, dir);
    if (!to) return null;
  }
  const [ax, ay] = geo.centre(x, y), [bx, by] = geo.centre(to[0], to[1]);
  const len = Math.hypot(bx - ax, by - ay);
  return len > 0 ? [(bx - ax) / len, (by - ay) / len] : null;
}

/** The unit vector of cell i's arrow, or null (no move, or a goal itself). */
function arrowOf(field, i, geo) {
  if (geo && !geo.simple) return arrowOnGeometry(field, i, geo);
  const w = field.width, x = i % w, y = Math.floor(i / w);
  const seen = field.sees ? field.sees[i] : -1;
  let dx, dy;
  if (seen !== undefined && seen >= 0 && field.goals[seen]) {
    // A cell that sees goal k walks straight at it: the arrow points at the goal's centre.
    dx = field.goals[seen][0] - x;
    dy = field.goals[seen][1] - y;
  } else {
    const dir = field.direction[i];
    if (dir === undefined || dir < 0 || dir > 7) return null;
    [dx, dy] = DIRECTIONS[dir];
  }
  const len = Math.hypot(dx, dy);
  return len > 0 ? [dx / len, dy / len] : null;
}

/** Shades every reachable cell on ctx (cp pixels per cell, goals red). */
export function drawShading(ctx, field, cp) {
  const n = field.width * field.height;
  for (let i = 0; i < n; i++) {
    const c = cellColour(field, i);
    if (!c) continue;
    ctx.fillStyle = c;
    ctx.fillRect((i % field.width) * cp, Math.floor(i / field.width) * cp, cp, cp);
  }
}

/**
 * An arrow per cell with a move (none when cells are smaller than ARROW_MIN_CP pixels). On a map
 * that is not plain square, `geo` (geometry.js) places the cells: hex arrows point at the
 * neighbour their code names, and a cell whose first move takes a link gets a ring instead.
 */
export function drawArrows(ctx, field, cp, geo = null) {
  if (cp < ARROW_MIN_CP) return;
  const n = field.width * field.height, half = 0.32 * cp, head = Math.max(3, 0.22 * cp);
  // Dark arrows on the light (near) half of the ramp, light ones on the dark half: one path each.
  const paths = [new Path2D(), new Path2D()];
  for (let i = 0; i < n; i++) {
    if (field.goalSet.has(i)) continue;
    const k = shadeIndex(field, i);
    if (k < 0) continue;
    const a = arrowOf(field, i, geo);
    if (!a) continue;
    const [cx, cy] = centreOf(geo, i % field.width, Math.floor(i / field.width), cp);
    if (a === 'link') {  // take the link here
      const p = paths[k < SHADES / 2 ? 0 : 1];
      p.moveTo(cx + 0.22 * cp, cy);
      p.arc(cx, cy, 0.22 * cp, 0, 2 * Math.PI);
      continue;
    }
    const [ux, uy] = a;
    const tx = cx + ux * half, ty = cy + uy * half;
    const p = paths[k < SHADES / 2 ? 0 : 1];
    p.moveTo(cx - ux * half, cy - uy * half);
    p.lineTo(tx, ty);
    p.moveTo(tx - head * (ux - uy * 0.6), ty - head * (uy + ux * 0.6));
    p.lineTo(tx, ty);
    p.lineTo(tx - head * (ux + uy * 0.6), ty - head * (uy - ux * 0.6));
  }
  ctx.save();
  ctx.lineWidth = Math.max(1, cp * 0.07);
  ctx.lineCap = ctx.lineJoin = 'round';
  ctx.strokeStyle = 'rgba(25, 25, 35, 0.7)';
  ctx.stroke(paths[0]);
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.8)';
  ctx.stroke(paths[1]);
  ctx.restore();
}

/** A ring around every goal, so that they show at any zoom. */
export function drawGoals(ctx, field, cp, geo = null) {
  ctx.save();
  ctx.lineWidth = Math.max(2, cp * 0.12);
  for (const [gx, gy] of field.goals) {
    const r = Math.max(5, cp * 0.65);
    const [x, y] = centreOf(geo, gx, gy, 1).map((v) => v - 0.5);
    ctx.strokeStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc((x + 0.5) * cp, (y + 0.5) * cp, r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = GOAL_COLOUR;
    ctx.beginPath();
    ctx.arc((x + 0.5) * cp, (y + 0.5) * cp, r + ctx.lineWidth, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.restore();
}

/** A sectored field's sectors: built ones (the corridor) outlined solid, the others dashed. */
export function drawSectors(ctx, field, cp) {
  if (!field.sectors_built) return;
  const side = field.sector * cp;
  ctx.save();
  ctx.lineWidth = 2;
  for (let k = 0; k < field.sectors_built.length; k++) {
    const x = (k % field.sectors_x) * side, y = Math.floor(k / field.sectors_x) * side;
    const built = field.sectors_built[k] === 1;
    ctx.setLineDash(built ? [] : [4, 4]);
    ctx.strokeStyle = built ? 'rgba(0, 150, 60, 0.95)' : 'rgba(0, 150, 60, 0.35)';
    ctx.strokeRect(x + 1, y + 1, side - 2, side - 2);
  }
  ctx.restore();
}

/** The units a sectored field was built from, as blue dots. */
export function drawUnits(ctx, units, cp, geo = null) {
  ctx.save();
  ctx.fillStyle = '#1e64e6';
  for (const [ux, uy] of units) {
    const [x, y] = centreOf(geo, ux, uy, 1).map((v) => v - 0.5);
    ctx.beginPath();
    ctx.arc((x + 0.5) * cp, (y + 0.5) * cp, Math.max(3, cp * 0.35), 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
}

/** "N cells reach a goal · built in T µs", with "S of T sectors built" for a sectored field. */
export function summary(field) {
  const us = field.time_us < 10 ? field.time_us.toFixed(2) : field.time_us.toFixed(0);
  const sectors = field.sectors_built
    ? ` · ${field.sectors_built.filter((b) => b === 1).length} of ${field.sectors_built.length} sectors built`
    : '';
  return `${field.reachable} cell${field.reachable === 1 ? '' : 's'} reach a goal${sectors} · built in ${us} µs`;
}
