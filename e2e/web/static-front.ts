/**
 * The built web app served from an origin of its own, as a CDN would serve it: its files, the
 * single-page fallback, and a Settings.json whose API_URL points at the backend on another origin.
 * Nothing is proxied: every call the app makes to the backend must go there by itself.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from './helpers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface StaticFront {
  url: string;
  close(): Promise<void>;
}

export async function serveFront(port: number, settings: Record<string, unknown>): Promise<StaticFront> {
  const dist = path.join(REPO_ROOT, 'apps/web/dist');
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://front').pathname);
    if (pathname === '/Settings.json') {
      response.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-cache' });
      response.end(JSON.stringify(settings));
      return;
    }
    const file = path.join(dist, path.normalize(pathname));
    const inside = file.startsWith(dist + path.sep);
    const found = inside && fs.existsSync(file) && fs.statSync(file).isFile();
    if (!found && path.extname(pathname)) {
      response.writeHead(404).end();
      return;
    }
    const served = found ? file : path.join(dist, 'index.html');
    response.writeHead(200, { 'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream' });
    fs.createReadStream(served).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
