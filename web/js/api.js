// The server's JSON API (see the README): every call returns parsed JSON or throws an Error
// carrying the server's message.
async function call(path, options = {}) {
  const res = await fetch(path, options);
  const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
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

/** Decodes the compact trace: v = zigzag(cell - previous) * 8 + type. */
export function decodeTrace(values) {
  const types = new Uint8Array(values.length);
  const cells = new Int32Array(values.length);
  let cell = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const zig = Math.floor(v / 8);
    types[i] = v % 8;
    cell += zig % 2 === 0 ? zig / 2 : -(zig + 1) / 2;
    cells[i] = cell;
  }
  return { types, cells };
}
