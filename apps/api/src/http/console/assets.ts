import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

export type ConsoleAsset = {
  body: Buffer;
  /** The same bytes gzipped, for a client that accepts it (made on first request, then kept). */
  gzipped: () => Buffer | null;
  mediaType: string;
  /** Vite names files under /assets by their content hash: they never change under that name. */
  immutable: boolean;
};

export type ConsoleBundle = { indexHtml: string; assets: Map<string, ConsoleAsset> };

/** The console's build output (apps/console/dist), or null when it was not built. */
export function consoleDist(): string | null {
  try {
    const root = dirname(createRequire(import.meta.url).resolve('@verdict/console/package.json'));
    const dist = join(root, 'dist');
    return existsSync(join(dist, 'index.html')) ? dist : null;
  } catch {
    return null;
  }
}

/**
 * Reads the whole build into memory once (a few hundred KiB; the graph layout chunk is the largest):
 * every request is then a map lookup, with no file system path built from a URL.
 */
export function loadConsoleBundle(dist: string): ConsoleBundle {
  const assets = new Map<string, ConsoleAsset>();
  for (const file of filesUnder(dist)) {
    const urlPath = `/${relative(dist, file).split(sep).join('/')}`;
    if (urlPath === '/index.html') continue;
    const ext = extname(file);
    const body = readFileSync(file);
    let gzipped: Buffer | null | undefined;
    assets.set(urlPath, {
      body,
      gzipped: () => {
        if (gzipped === undefined) gzipped = COMPRESSIBLE.has(ext) ? gzipSync(body, { level: 9 }) : null;
        return gzipped;
      },
      mediaType: MEDIA_TYPES[ext] ?? 'application/octet-stream',
      immutable: urlPath.startsWith('/assets/'),
    });
  }
  return { indexHtml: readFileSync(join(dist, 'index.html'), 'utf8'), assets };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}
