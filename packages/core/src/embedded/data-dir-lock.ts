import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { OperatorError } from '../shared/operator-error.ts';
import { currentProcess, describeProcess, isAlive, type ProcessIdentity } from './process-identity.ts';

/**
 * One process at a time owns DATA_DIR: PGlite keeps pages in memory, so a second process writing the same
 * folder loses one side's writes. The lock is the file `verdict.lock`, naming its holder.
 *
 * - Taking a free lock is one atomic create (a hard link of a file already holding our record), so two
 *   processes starting together cannot both succeed, and a reader never sees a half-written record.
 * - A lock whose holder died is stale. Replacing it needs care: two processes that both saw it stale must
 *   not both replace it (the second would overwrite the first's fresh lock). So the right to replace
 *   the lock while it names holder X belongs to whoever creates `verdict.lock.<X>.claim` first, again an
 *   atomic create. Under its claim a process reads the lock again and replaces it (atomic rename) only if
 *   it still names X; the lock cannot leave X by any other path, and never returns to X once it has. A
 *   claimant that dies mid-way is superseded the same way, by a claim on its own id.
 */

export type LockRole = 'server' | 'admin';
export type LockHolder = ProcessIdentity & { id: string; role: LockRole };

const LOCK_FILE = 'verdict.lock';
const ROLE_NAMES: Record<LockRole, string> = { server: 'the Verdict server', admin: 'npm run admin' };

export class DataDirInUseError extends OperatorError {
  override name = 'DataDirInUseError';
  readonly dir: string;
  /** null when the lock file cannot be read. */
  readonly holder: LockHolder | null;

  constructor(dir: string, holder: LockHolder | null) {
    super(
      holder
        ? `DATA_DIR ${dir} is in use by ${ROLE_NAMES[holder.role]} (${describeProcess(holder)}); ` +
            'stop it first, or set DATA_DIR to another folder'
        : `DATA_DIR ${dir} has an unreadable ${LOCK_FILE}; if no Verdict process uses this folder, delete that file`,
    );
    this.dir = dir;
    this.holder = holder;
  }
}

export type DataDirLock = {
  dir: string;
  holder: LockHolder;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release: () => Promise<void>;
};

/**
 * Ids of this process's locks and attempts: their records carry our own pid, which must not make them
 * look like a dead predecessor's.
 */
const ours = new Set<string>();
const holderAlive = (holder: LockHolder) => ours.has(holder.id) || isAlive(holder) !== false;

const lockPath = (dir: string) => join(dir, LOCK_FILE);
const claimPath = (dir: string, id: string) => join(dir, `${LOCK_FILE}.${id}.claim`);

/** Takes the lock on `dir` (created if missing) or throws DataDirInUseError naming the live holder. */
export async function lockDataDir(dir: string, role: LockRole): Promise<DataDirLock> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const me: LockHolder = { ...currentProcess(), id: randomUUID(), role };
  const draft = join(dir, `${LOCK_FILE}.${me.id}.draft`);
  await writeFile(draft, JSON.stringify(me), { mode: 0o600, flag: 'wx' });
  ours.add(me.id);
  let held = false;
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      held = await linkIfAbsent(draft, lockPath(dir));
      if (held) return await hold(dir, me);
      const holder = await readHolder(lockPath(dir));
      if (holder === 'absent') continue; // released between our two steps
      if (holder === 'unreadable') throw new DataDirInUseError(dir, null);
      if (holderAlive(holder)) throw new DataDirInUseError(dir, holder);
      held = await replaceDeadHolder(dir, holder, draft);
      if (held) return await hold(dir, me);
      await sleep(5 + attempt * 5); // another process is replacing it; see who won
    }
    throw new Error(`could not lock DATA_DIR ${dir}: other processes kept taking it over`);
  } finally {
    if (!held) ours.delete(me.id);
    await rm(draft, { force: true });
  }
}

/** The live holder of `dir`'s lock, or null when it is free or its holder is dead. */
export async function liveHolder(dir: string): Promise<LockHolder | null> {
  const holder = await readHolder(lockPath(dir));
  return typeof holder !== 'string' && holderAlive(holder) ? holder : null;
}

async function replaceDeadHolder(dir: string, dead: LockHolder, draft: string): Promise<boolean> {
  let target = dead;
  for (;;) {
    const claimant = await readHolder(claimPath(dir, target.id));
    if (claimant === 'absent') break;
    if (claimant === 'unreadable' || holderAlive(claimant)) return false;
    target = claimant;
  }
  const claim = claimPath(dir, target.id);
  if (!(await linkIfAbsent(draft, claim))) return false;
  try {
    const current = await readHolder(lockPath(dir));
    if (typeof current === 'string' || current.id !== dead.id) return false;
    await rename(draft, lockPath(dir));
    return true;
  } finally {
    await rm(claim, { force: true });
  }
}

async function hold(dir: string, me: LockHolder): Promise<DataDirLock> {
  await removeLeftovers(dir, me).catch(() => {}); // tidiness only
  return {
    dir,
    holder: me,
    release: async () => {
      if (!ours.delete(me.id)) return;
      const current = await readHolder(lockPath(dir));
      if (typeof current !== 'string' && current.id === me.id) await rm(lockPath(dir), { force: true });
    },
  };
}

/**
 * Claims and drafts that dead processes left behind. Every claim is obsolete once we hold the lock (it
 * concerns a holder the lock no longer names, and its claimant will find that out); a draft is removed
 * only when its process is gone, since a live one is still trying.
 */
async function removeLeftovers(dir: string, me: LockHolder) {
  for (const name of await readdir(dir)) {
    const match = /^verdict\.lock\.([0-9a-f-]{36})\.(claim|draft)$/.exec(name);
    if (!match || match[1] === me.id) continue;
    if (match[2] === 'draft') {
      const owner = await readHolder(join(dir, name));
      if (typeof owner === 'string' || holderAlive(owner)) continue;
    }
    await rm(join(dir, name), { force: true });
  }
}

async function linkIfAbsent(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

async function readHolder(path: string): Promise<LockHolder | 'absent' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as LockHolder;
    return typeof parsed.pid === 'number' && typeof parsed.id === 'string' ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}
