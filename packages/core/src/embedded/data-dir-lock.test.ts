import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

const MODULE = new URL('./data-dir-lock.ts', import.meta.url).href;

/**
 * A process that tries to lock `dir` once the clock reaches `startAt`, prints `won` or `refused <pid>`,
 * and holds a lock it won until its stdin closes: so every contender has tried while the winner holds.
 */
const CONTENDER = `
import { lockDataDir, DataDirInUseError } from ${JSON.stringify(MODULE)};
const [dir, startAt] = process.argv.slice(1);
while (Date.now() < Number(startAt)) await new Promise((r) => setTimeout(r, 1));
try {
  const lock = await lockDataDir(dir, 'server');
  console.log('won');
  process.stdin.resume();
  await new Promise((r) => process.stdin.once('end', r));
  await lock.release();
} catch (err) {
  if (!(err instanceof DataDirInUseError)) throw err;
  console.log('refused ' + err.holder?.pid);
  process.stdin.resume();
}`;

async function race(dir: string, contenders: number): Promise<{ pid: number; result: string }[]> {
  const startAt = Date.now() + 3000;
  const children: ChildProcess[] = [];
  const results = await Promise.all(
    Array.from({ length: contenders }, async () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CONTENDER, dir, String(startAt)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      return { pid: child.pid ?? 0, result: line };
    }),
  );
  for (const child of children) child.stdin?.end();
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : null)));
  return results;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid ?? 0;
}

describe('the DATA_DIR lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is refused to a second taker while held, naming the holder, and free again once released', async () => {
    const lock = await lockDataDir(dir, 'server');
    const refusal = await lockDataDir(dir, 'admin').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as Error).message).toContain(`the Verdict server (pid ${process.pid}, started `);
    await lock.release();
    await (await lockDataDir(dir, 'admin')).release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('goes to exactly one of several processes starting at the same moment', async () => {
    const results = await race(dir, 5);
    const winners = results.filter((r) => r.result === 'won');
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.result !== 'won')) {
      expect(loser.result).toBe(`refused ${winners[0]?.pid}`);
    }
  }, 30_000);

  it("replaces a dead holder's lock for exactly one of several processes racing for it", async () => {
    const dead = { pid: await deadPid(), host: hostname(), startedAt: new Date().toISOString() };
    await writeFile(join(dir, 'verdict.lock'), JSON.stringify({ ...dead, id: randomUUID(), role: 'server' }));
    const results = await race(dir, 5);
    const winners = results.filter((r) => r.result === 'won');
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.result === `refused ${winners[0]?.pid}`)).toHaveLength(4);
    expect(await readdir(dir)).toEqual([]);
  }, 30_000);

  it("replaces a dead holder's lock once when takers interleave at every step (one process, many attempts)", async () => {
    const dead = { pid: await deadPid(), host: hostname(), startedAt: '', id: randomUUID(), role: 'server' };
    await writeFile(join(dir, 'verdict.lock'), JSON.stringify(dead));
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => lockDataDir(dir, 'server')));
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(DataDirInUseError);
    expect(JSON.parse(await readFile(join(dir, 'verdict.lock'), 'utf8')).id).toBe(won[0]?.holder.id);
    await won[0]?.release();
  });

  it('gets past a claimant that died while replacing a dead holder, and clears what both left', async () => {
    const holder = {
      pid: await deadPid(),
      host: hostname(),
      startedAt: '',
      id: randomUUID(),
      role: 'server',
    };
    const claimant = { ...holder, pid: await deadPid(), id: randomUUID() };
    await writeFile(join(dir, 'verdict.lock'), JSON.stringify(holder));
    await writeFile(join(dir, `verdict.lock.${holder.id}.claim`), JSON.stringify(claimant));
    const lock = await lockDataDir(dir, 'server');
    expect(JSON.parse(await readFile(join(dir, 'verdict.lock'), 'utf8')).id).toBe(lock.holder.id);
    expect(await readdir(dir)).toEqual(['verdict.lock']);
    await lock.release();
  });

  it('is not taken from a live process of another host, which cannot be checked from here', async () => {
    const remote = { pid: process.pid, host: `not-${hostname()}`, startedAt: 'then', id: randomUUID() };
    await writeFile(join(dir, 'verdict.lock'), JSON.stringify({ ...remote, role: 'server' }));
    await expect(lockDataDir(dir, 'server')).rejects.toThrow(`pid ${process.pid} on host not-${hostname()}`);
  });
});
