import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));

/** The folders of apps/api/src that `folder`'s source files import, by their relative imports. */
function foldersImportedBy(folder: string): Set<string> {
  const imported = new Set<string>();
  for (const file of readdirSync(join(src, folder))) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = readFileSync(join(src, folder, file), 'utf8');
    for (const [, path] of text.matchAll(/from '\.\.\/([\w-]+)\//g)) imported.add(path as string);
  }
  return imported;
}

/** http assembles the server over the procedures (trpc), which authenticate through auth: one way down. */
describe('imports between auth, trpc and http', () => {
  it('finds the imports it checks', () => {
    expect([...foldersImportedBy('http')]).toEqual(expect.arrayContaining(['auth', 'trpc']));
    expect([...foldersImportedBy('trpc')]).toContain('auth');
  });

  it('run http → trpc → auth, never back', () => {
    expect([...foldersImportedBy('auth')].filter((f) => f === 'http' || f === 'trpc')).toEqual([]);
    expect([...foldersImportedBy('trpc')].filter((f) => f === 'http')).toEqual([]);
  });
});

/**
 * streams holds what the SSE routes (http) and the tRPC subscriptions (routers) share: both import it, it
 * imports neither, so either transport can change without the other.
 */
describe('imports of streams', () => {
  it('finds the imports it checks', () => {
    expect([...foldersImportedBy('http')]).toContain('streams');
    expect([...foldersImportedBy('routers')]).toContain('streams');
  });

  it('are made by http and the routers, and streams imports neither', () => {
    expect([...foldersImportedBy('streams')].filter((f) => f === 'http' || f === 'routers')).toEqual([]);
    expect([...foldersImportedBy('trpc')].filter((f) => f === 'streams')).toEqual([]);
  });
});
