import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { OperatorError } from '../shared/operator-error.ts';
import { copyFolder } from './copy-folder.ts';
import { migrations } from './migrations/index.ts';
import { type TransactionGuardOptions, withoutTransactionTimeout } from './transaction-guard.ts';

/**
 * Creating a PGlite database (initdb in WASM, then the migrations) takes 10–30 s on a small machine;
 * copying a prepared one takes a fraction of a second. `npm install` prepares a template (postinstall:
 * apps/api/src/prepare-embedded.ts) and the first start on an empty DATA_DIR copies it. A template is
 * keyed by the PGlite version and the migrations' source, so a change to either makes the next install
 * or `npm run prepare:embedded` build a new one and start ignore the stale one. Templates are only ever
 * copied, never opened in place: no process ever writes to one after it is built.
 */

const PGLITE_ENTRY = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const PGLITE_ROOT = PGLITE_ENTRY.slice(0, PGLITE_ENTRY.lastIndexOf(`${sep}dist${sep}`));
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(PGLITE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Bump when the way a template is built changes, so older ones are ignored. */
const FORMAT = 1;

/** node_modules/.cache next to the installed PGlite: ignored by git, removed with node_modules. */
export function defaultTemplatesDir(): string {
  return join(dirname(dirname(PGLITE_ROOT)), '.cache', 'verdict-pglite');
}

/**
 * The template folder name for this PGlite and these migrations: their files as written, since compiled
 * code differs between Node's type stripping and a test runner's transform.
 */
let cachedName: string | undefined;
export function templateName(): string {
  cachedName ??= hashedName();
  return cachedName;
}

function hashedName(): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\n`);
  for (const m of migrations) {
    hash.update(`${m.name}\n`).update(readFileSync(join(import.meta.dirname, 'migrations', `${m.name}.ts`)));
  }
  return `pglite-${PGLITE_VERSION}-${hash.digest('hex').slice(0, 16)}`;
}

/** Building a template runs migrations only, which take as long as they take. */
const UNBOUNDED: TransactionGuardOptions = { timeoutMs: 2 ** 31 - 1, onTimeout: () => {} };

const isDatabase = (folder: string) => existsSync(join(folder, 'PG_VERSION'));

/**
 * Builds a database with every migration applied in a scratch folder next to `target`, then renames it
 * into place, so `target` is either absent or complete even if the process dies half-way. Returns false
 * when another process finished first (its copy is kept).
 */
async function buildDatabaseFolder(target: string): Promise<boolean> {
  const scratch = `${target}.building-${randomBytes(4).toString('hex')}`;
  await mkdir(scratch, { recursive: true });
  try {
    const { openPgliteOrm } = await import('./pglite.ts');
    const { orm, release } = await openPgliteOrm(scratch, () => {}, [], UNBOUNDED);
    try {
      await withoutTransactionTimeout(() => orm.migrator.up());
    } finally {
      await orm.close(true);
      await release();
    }
    return await renameUnlessPresent(scratch, target);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Builds this version's template unless it exists, and removes templates of other versions. */
export async function prepareTemplate(templatesDir = defaultTemplatesDir()) {
  const path = join(templatesDir, templateName());
  await mkdir(templatesDir, { recursive: true });
  for (const entry of await readdir(templatesDir)) {
    if (entry !== templateName() && entry.startsWith('pglite-') && !entry.includes('.building-')) {
      await rm(join(templatesDir, entry), { recursive: true, force: true });
    }
  }
  if (isDatabase(path)) return { path, built: false };
  await buildDatabaseFolder(path);
  return { path, built: true };
}

/**
 * Makes sure `folder` holds a database: nothing to do when it does; otherwise a copy of the template, or,
 * without one, a database built here (slow, and said so). The caller holds the DATA_DIR lock.
 */
export async function ensureDatabaseFolder(
  folder: string,
  templatesDir: string | undefined,
  log: (message: string) => void,
): Promise<void> {
  if (isDatabase(folder)) return;
  if (existsSync(folder)) await removeEmptyFolder(folder);
  const started = performance.now();
  const template = join(templatesDir ?? defaultTemplatesDir(), templateName());
  if (isDatabase(template)) {
    log(`creating the embedded database in ${folder} from the template prepared at install`);
    const scratch = `${folder}.copying-${randomBytes(4).toString('hex')}`;
    try {
      await copyFolder(template, scratch);
      await rename(scratch, folder);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  } else {
    log(
      `creating the embedded database in ${folder}; no template was prepared at install ` +
        `(npm install --ignore-scripts?), so this takes 10–30 s, once. ` +
        '`npm run prepare:embedded` prepares one for the next empty DATA_DIR',
    );
    await buildDatabaseFolder(folder);
  }
  log(`embedded database created in ${formatMs(performance.now() - started)}`);
}

/** An empty folder is what an interrupted first start of an earlier version could leave; anything else stays. */
async function removeEmptyFolder(folder: string) {
  try {
    await rmdir(folder);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
    throw new OperatorError(
      `${folder} is not an embedded database (it has no PG_VERSION) but is not empty; ` +
        'move it away, or set DATA_DIR to another folder',
    );
  }
}

async function renameUnlessPresent(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && isDatabase(to)) return false;
    throw err;
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
