// The playground: GET / and /playground serve a page that explores and calls this node's contract in a browser.
// The page is an app of its own (playground/, built by its own tsconfig into dist/playground/); the node serves
// its files from the project: the HTML shell and stylesheet as written (playground/index.html, style.css), its
// compiled modules and the two shared contract modules they import (dist/shared/contract/json.js, refs.js, served
// where the browser resolves their relative imports). Nothing comes from a CDN, and the page only talks to its
// own origin, which the Content-Security-Policy enforces.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { projectRoot } from '../../shared/contract/root.js';
import type { RouteHandler } from './http.js';

/** The playground's compiled modules, by name (playground/<name>.ts). */
const MODULES = ['app', 'contract', 'dom', 'history', 'method-list', 'method-view', 'response', 'rpc', 'schema-check'];
/** The shared contract modules they import (shared/contract/<name>.ts). */
const SHARED = ['json', 'refs'];

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

const PAGE_HEADERS = { 'Content-Security-Policy': CSP, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' };

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
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `playground file ${file} is missing; run npm run build` } });
  res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Routes for startHttpServer's `routes`: the page at / and /playground, its stylesheet and scripts. */
export function playgroundRoutes(): Record<string, RouteHandler> {
  const root = projectRoot();
  const cache = new Map<string, Promise<string>>();
  /** Serves `file` (relative to the project root), read once; a script without its source map comment. */
  const serve = (file: string, contentType: string, extra?: Record<string, string>): RouteHandler => async (_req, res) => {
    let text = cache.get(file);
    if (!text) {
      text = readFile(join(root, file), 'utf8').then((body) => body.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'));
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
    send(res, contentType, body, extra);
  };
  const page = serve('playground/index.html', 'text/html; charset=utf-8', PAGE_HEADERS);
  const routes: Record<string, RouteHandler> = {
    '/': page,
    '/playground': page,
    '/playground/': page,
    '/playground/style.css': serve('playground/style.css', 'text/css; charset=utf-8'),
  };
  const script = 'text/javascript; charset=utf-8';
  for (const name of MODULES) routes[`/playground/${name}.js`] = serve(`dist/playground/${name}.js`, script);
  for (const name of SHARED) routes[`/shared/contract/${name}.js`] = serve(`dist/shared/contract/${name}.js`, script);
  return routes;
}
