// The playground: GET / and /playground serve a page that explores and calls this node's contract in a browser.
// Everything it needs comes from this server (no CDN): the HTML shell and stylesheet (playground/page.ts) and the
// compiled browser modules beside tsc's output of this file (playground/app.js, playground/schema-check.js) and the two contract
// modules they import (contract/json.js, contract/refs.js, served where the browser resolves their relative
// imports). The page only talks to its own origin, which the Content-Security-Policy enforces.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { projectRoot } from '../contract/root.js';
import type { RouteHandler } from './http.js';
import { PLAYGROUND_CSS, PLAYGROUND_HTML } from './playground/page.js';

/** Browser modules by URL path, as compiled files relative to tsc's output of this one. */
const SCRIPTS: Record<string, string> = {
  '/playground/app.js': 'playground/app.js',
  '/playground/schema-check.js': 'playground/schema-check.js',
  '/contract/json.js': '../contract/json.js',
  '/contract/refs.js': '../contract/refs.js',
};

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(res: ServerResponse, contentType: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(200, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...extra,
  });
  res.end(body);
}

function notBuilt(res: ServerResponse, file: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `playground script ${file} is not compiled; run npm run build` } });
  res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Routes for startHttpServer's `routes`: the page at / and /playground, its stylesheet and scripts. */
export function playgroundRoutes(): Record<string, RouteHandler> {
  // tsc's output, also when this module runs from the CLI's bundle (scripts/bundle.mjs), which holds no browser module.
  const dir = join(projectRoot(), 'dist', 'src', 'transport');
  const cache = new Map<string, Promise<string>>();
  const script = (file: string): RouteHandler => async (_req, res) => {
    let text = cache.get(file);
    if (!text) {
      text = readFile(join(dir, file), 'utf8').then((js) => js.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'));
      cache.set(file, text);
      text.catch(() => cache.delete(file));
    }
    let body: string;
    try {
      body = await text;
    } catch {
      notBuilt(res, file);
      return;
    }
    send(res, 'text/javascript; charset=utf-8', body);
  };
  const page: RouteHandler = (_req, res) =>
    send(res, 'text/html; charset=utf-8', PLAYGROUND_HTML, { 'Content-Security-Policy': CSP, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
  const routes: Record<string, RouteHandler> = {
    '/': page,
    '/playground': page,
    '/playground/': page,
    '/playground/style.css': (_req, res) => send(res, 'text/css; charset=utf-8', PLAYGROUND_CSS),
  };
  for (const [url, file] of Object.entries(SCRIPTS)) routes[url] = script(file);
  return routes;
}
