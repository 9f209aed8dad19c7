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

/** Every source file under routers/, with its path from there. */
function routerFiles(dir = join(src, 'routers')): { name: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routerFiles(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [{ name: path.slice(src.length + 1), text: readFileSync(path, 'utf8') }];
  });
}

/** The domain operations a file calls: `services.<feature>.<operation>`, each once. */
const operationsCalledBy = (text: string) =>
  new Set([...text.matchAll(/services\.(\w+)\.(\w+)/g)].map((match) => `${match[1]}.${match[2]}`));

/**
 * A procedure is the edge of one domain operation: what a request does is decided in core, where the other
 * ways in (the engine, the operator's commands) find it too. The edge's own work (credentials, budgets,
 * headers) is auth's.
 */
describe('procedures', () => {
  it('are found, with the operations they call', () => {
    const files = routerFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(operationsCalledBy(files.map((file) => file.text).join('\n')).size).toBeGreaterThan(80);
    expect([...operationsCalledBy('a(ctx.services.x.y); ctx.services.x.y(); ctx.services.z.w()')]).toEqual([
      'x.y',
      'z.w',
    ]);
  });

  it('each call one operation of core, named in full', () => {
    // Taken apart (`const { a, b } = ctx.services`), the calls would escape the count below.
    expect(routerFiles().filter((file) => /\}\s*=\s*ctx\.services\b/.test(file.text))).toEqual([]);
    const many = routerFiles()
      .map((file) => ({ file: file.name, calls: [...operationsCalledBy(file.text)] }))
      .filter((found) => found.calls.length > 1);
    expect(many).toEqual([]);
  });
});
