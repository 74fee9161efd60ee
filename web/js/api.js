// The JSON API (see docs/http.md): every call returns parsed JSON or throws an Error carrying
// the API's message (and the HTTP status as `status`). Two transports, one API (pathlab::api):
// `pathlab serve` answers over HTTP; the static page (`make site`, which marks index.html with
// <meta name="pathlab-backend" content="worker">) asks a Web Worker (worker.js) running the same
// API compiled to WebAssembly. Either way the page never waits on a search: every call is async.
const viaWorker = document.querySelector('meta[name="pathlab-backend"]')?.content === 'worker';
/** 'worker' in the static page, 'server' behind `pathlab serve`. */
export const backend = viaWorker ? 'worker' : 'server';

let worker = null, nextId = 0;
const pending = new Map();  // request id -> {resolve, reject}
function startWorker() {
  worker = new Worker(new URL('./worker.js', import.meta.url));
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.failed) p.reject(new Error(data.failed));
    else p.resolve({ status: data.status, text: data.text });
  };
  worker.onerror = (e) => {
    e.preventDefault();
    const error = new Error(`the page's WebAssembly worker failed: ${e.message || 'it did not load'}`);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
}
if (viaWorker) startWorker();  // at once: the module loads while the page does

/** The worker's answer to one request, as {status, text}. */
function ask(path, options) {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, method: options.method || 'GET', path, body: options.body ?? null });
  });
}

async function call(path, options = {}) {
  let status, body;
  if (viaWorker) {
    const answer = await ask(path, options);
    status = answer.status;
    try { body = JSON.parse(answer.text); } catch { body = { error: `HTTP ${status}` }; }
  } else {
    const res = await fetch(path, options);
    status = res.status;
    body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  }
  if (status < 200 || status > 299) throw Object.assign(new Error(body.error || `HTTP ${status}`), { status });
  return body;
}

export const listAlgorithms = () => call('/api/algorithms');
export const listMaps = () => call('/api/maps');
export const fetchMap = (name, cell = 1) =>
  call(`/api/maps/${encodeURIComponent(name)}?cell=${cell}`);
export const parseMap = (name, bytes, cell = 1) =>
  call(`/api/parse?name=${encodeURIComponent(name)}&cell=${cell}`, {
    method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes,
  });
export const solve = (request) =>
  call('/api/solve', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request),
  });

// Simulation sessions: the server runs the world, the page draws the states it answers.
const post = (path, body) => call(path, {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});
export const listScenarios = () => call('/api/scenarios');
export const simCreate = (request) => post('/api/sim', request);
export const simStep = (id, ticks) => post(`/api/sim/${encodeURIComponent(id)}/step`, { ticks });
export const simObstacle = (id, obstacle) => post(`/api/sim/${encodeURIComponent(id)}/obstacle`, obstacle);
export const simTarget = (id, request) => post(`/api/sim/${encodeURIComponent(id)}/target`, request);
export const simDelete = (id) => call(`/api/sim/${encodeURIComponent(id)}`, { method: 'DELETE' });
// Crowds of flow agents: a new rally point for every flow agent still on its way (the answer is
// the state plus "field", the new goal's flow field, and "sent"), and the field an agent follows.
export const simGoal = (id, goal) => post(`/api/sim/${encodeURIComponent(id)}/goal`, { goal });
export const simField = (id, agent) =>
  call(`/api/sim/${encodeURIComponent(id)}/field?agent=${encodeURIComponent(agent)}`);

// Units and query shapes: the movement range of a unit.
export const reach = (request) => post('/api/reach', request);
// Flow fields: every cell's distance to the nearest goal and its first move toward it.
export const flow = (request) => post('/api/flow', request);
// Editable maps kept by the server: edits go through the library's edit API, and the server's
// finder repairs its caches; each answer gives the edit, repair and query times.
const session = (id) => `/api/mapsession/${encodeURIComponent(id)}`;
export const mapSessionCreate = (map) => post('/api/mapsession', { map });
export const mapSessionEdit = (id, edits) => post(`${session(id)}/edit`, { edits });
export const mapSessionSolve = (id, request) => post(`${session(id)}/solve`, request);
export const mapSessionDelete = (id) => call(session(id), { method: 'DELETE' });

/** Trace codes beyond the search module's event types (see pathlab::json::compact_trace). */
export const LOS_CLEAR = 5, LOS_BLOCKED = 6;
const SECOND_CELL = 7;

/**
 * Decodes the compact trace: every value is zigzag(cell - previous cell) * 8 + code, with
 * cell = y * width + x and code 0 opened, 1 updated, 2 closed, 3 iteration, 4 meet, 5 line of
 * sight that sees through, 6 one that is blocked, 7 the second cell of the line of sight before.
 * Gives one entry per event: `others[i]` is the second cell of a line-of-sight event, else -1.
 */
export function decodeTrace(values) {
  const types = new Uint8Array(values.length);
  const cells = new Int32Array(values.length);
  const others = new Int32Array(values.length).fill(-1);
  let cell = 0, n = 0;
  for (const v of values) {
    const zig = Math.floor(v / 8), code = v % 8;
    cell += zig % 2 === 0 ? zig / 2 : -(zig + 1) / 2;
    if (code === SECOND_CELL) {
      if (n > 0) others[n - 1] = cell;
      continue;
    }
    types[n] = code;
    cells[n] = cell;
    n++;
  }
  return { types: types.subarray(0, n), cells: cells.subarray(0, n), others: others.subarray(0, n) };
}

// The Link game: stateless, every request carries the board {width, height, rows}.
export const linkBoards = () => call('/api/link/boards');
export const linkGenerate = (request) => post('/api/link/generate', request);
export const linkConnect = (request) => post('/api/link/connect', request);
export const linkHint = (board) => post('/api/link/hint', { board });
export const linkMoves = (board) => post('/api/link/moves', { board });
export const linkShuffle = (board, seed) => post('/api/link/shuffle', { board, seed });
export const linkSolve = (request) => post('/api/link/solve', request);
export const linkPlay = (request) => post('/api/link/play', request);
