// The static page's API (`make site`): a classic Web Worker that runs pathlab::api compiled to
// WebAssembly (js/site) and answers every request api.js would send to `pathlab serve`, with the
// same status and JSON, because it is the same code. The page posts {id, method, path, body}
// (body: a string, an ArrayBuffer or null) and gets {id, status, text} back, or {id, failed} when
// the module could not load or broke. Beside it in the site: ../wasm/pathlab_site.{js,wasm} and
// ../files.json, the maps and scenarios the site ships (registered before the first request).
'use strict';
importScripts('../wasm/pathlab_site.js');

const site = new URL('../', self.location.href);
const encoder = new TextEncoder(), decoder = new TextDecoder();

/** Calls f(pointers, bytesPointer, size) with the strings (NUL-terminated) and the bytes copied
 * into the module's memory, and frees them after. */
function copied(M, strings, bytes, f) {
  const ptrs = strings.map((s) => {
    const n = M.lengthBytesUTF8(s) + 1, p = M._malloc(n);
    M.stringToUTF8(s, p, n);
    return p;
  });
  const b = M._malloc(Math.max(1, bytes.length));
  M.HEAPU8.set(bytes, b);
  try {
    return f(ptrs, b, bytes.length);
  } finally {
    M._free(b);
    ptrs.forEach((p) => M._free(p));
  }
}

const ready = (async () => {
  // The shipped files download while the module compiles.
  const files = fetch(new URL('files.json', site)).then((r) => {
    if (!r.ok) throw new Error(`files.json: HTTP ${r.status}`);
    return r.json();
  }).then((list) => Promise.all([
    ...list.maps.map((name) => ['map', `maps/${name}`, name]),
    ...list.scenarios.map((name) => ['scenario', `scenarios/${name}`, name]),
  ].map(async ([kind, path, name]) => {
    const r = await fetch(new URL(path, site));
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
    return [kind, name, new Uint8Array(await r.arrayBuffer())];
  })));
  const M = await createPathlabSite({ locateFile: (file) => new URL(`wasm/${file}`, site).href });
  for (const [kind, name, bytes] of await files) {
    copied(M, [kind, name], bytes, ([k, n], b, size) => M._pathlab_site_add_file(k, n, b, size));
  }
  return M;
})();

self.onmessage = async ({ data }) => {
  try {
    const M = await ready;
    const body = data.body == null ? new Uint8Array(0)
      : typeof data.body === 'string' ? encoder.encode(data.body) : new Uint8Array(data.body);
    const status = copied(M, [data.method, data.path], body,
                          ([method, path], b, size) => M._pathlab_site_call(method, path, b, size));
    // HEAPU8 is read after the call: the memory may have grown during it.
    const at = M._pathlab_site_body(), size = M._pathlab_site_body_size();
    self.postMessage({ id: data.id, status, text: decoder.decode(M.HEAPU8.subarray(at, at + size)) });
  } catch (e) {
    self.postMessage({ id: data.id, failed: `the page's WebAssembly module failed: ${e.message}` });
  }
};
