/**
 * The page's files, read once at start and served from memory: `index.html` and `style.css` from
 * `static/`, the page's compiled modules from `page/` under `/app/`. Modules load as native ES
 * modules (no bundler): a handful of small files over loopback, each revalidated by ETag.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Scripts and styles only from the inspector itself; images from anywhere (an agent's icon, an image
 * artifact given by URL) or inline (image artifacts given as bytes); downloads through blob: URLs.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  'img-src * data: blob:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

function load(
  dir: URL,
  prefix: string,
  into: Map<string, Asset>,
  only: (name: string) => boolean,
): void {
  const path = fileURLToPath(dir);
  if (!existsSync(path))
    throw new Error(
      `the inspector's page is missing at ${path}; build the package first (npm run build)`,
    );
  for (const name of readdirSync(path)) {
    if (!only(name)) continue;
    const body = readFileSync(new URL(name, dir));
    const ext = name.slice(name.lastIndexOf('.'));
    into.set(`${prefix}${name}`, {
      body,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    });
  }
}

/** The page's files by URL path. */
export function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  load(new URL('./static/', import.meta.url), '/', assets, (n) => /\.(html|css|svg)$/.test(n));
  load(new URL('./page/', import.meta.url), '/app/', assets, (n) => n.endsWith('.js'));
  const index = assets.get('/index.html');
  if (index) assets.set('/', index);
  return assets;
}

/** Serves one asset (304 when the page has it already); false when there is none at that path. */
export function serveAsset(
  assets: Map<string, Asset>,
  path: string,
  ifNoneMatch: string | undefined,
  res: ServerResponse,
): boolean {
  const a = assets.get(path);
  if (!a) return false;
  const headers: Record<string, string> = {
    'content-type': a.type,
    etag: a.etag,
    // Revalidated on every load, so a rebuilt inspector is picked up at once; a 304 costs nothing here.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  if (a.type.startsWith('text/html')) headers['content-security-policy'] = CSP;
  if (ifNoneMatch === a.etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  res.writeHead(200, { ...headers, 'content-length': String(a.body.length) });
  res.end(a.body);
  return true;
}
