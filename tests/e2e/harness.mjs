// What every browser test shares: `pathlab serve` on a free loopback port, the options that run
// Debian's Chromium headless, and a PASS/FAIL tally that sets the exit code.
import { spawn } from 'node:child_process';

/// Chromium flags for a headless run with no network chatter of its own.
export const chromiumOptions = {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

/// Starts `pathlab serve --port 0` and resolves to {server, url} once it prints its URL.
export async function startServer(pathlab) {
  const server = spawn(pathlab, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => { const m = /http:\/\/\S+/.exec(String(d)); if (m) resolve(m[0]); });
    server.on('exit', () => reject(new Error('server exited')));
  });
  return { server, url };
}

let passed = 0, failed = 0;
/// Records one check and prints PASS/FAIL with its name.
export function check(name, ok, detail = '') {
  if (ok) { passed++; console.log(`PASS ${name}`); } else { failed++; console.log(`FAIL ${name} ${detail}`); }
}
/// Prints the tally and exits 1 when a check failed.
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/// Serves DIR with Python's plain static file server (`python3 -m http.server`) on a free
/// loopback port and resolves to {server, url}: nothing but files, as any static host.
export async function startStaticServer(dir) {
  const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir],
                       { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => { const m = /port (\d+)/.exec(String(d)); if (m) resolve(`http://127.0.0.1:${m[1]}/`); });
    server.on('exit', () => reject(new Error('the static file server exited')));
  });
  return { server, url };
}

/// Pixels of these exact colours ([r, g, b] each) on each canvas matching the selector, one count
/// a canvas (anti-aliased edges do not count).
export const countColours = (page, selector, colours) => page.$$eval(selector, (cvs, cols) => cvs.map((cv) => {
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 255 && cols.some(([r, g, b]) => d[i] === r && d[i + 1] === g && d[i + 2] === b)) n++;
  }
  return n;
}), colours);
