import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type RunningProcess, runApiExpectingRefusal, startApi } from './support/processes.ts';

// One process owns an embedded DATA_DIR.
describe('an embedded DATA_DIR', () => {
  let dataDir: string;
  let api: RunningProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-data-dir-'));
  });
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server, in one line naming the process that holds it', async () => {
    api = await startApi(env());
    const second = await runApiExpectingRefusal(env());
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^DATA_DIR .* is in use by the Verdict server \\(pid ${api.child.pid}, started \\d{4}-.*\\)`,
        ),
      ),
    ]);
    expect((await call(api.baseUrl, 'GET', '/health')).status).toBe(200);
  });

  it('is not blocked by the lock of a server that was killed', async () => {
    api = await startApi(env());
    api.child.kill('SIGKILL');
    await once(api.child, 'exit');
    const left = JSON.parse(await readFile(join(dataDir, 'verdict.lock'), 'utf8'));
    expect(left.pid).toBe(api.child.pid);

    api = await startApi(env());
    expect((await call(api.baseUrl, 'GET', '/health')).status).toBe(200);
    expect(JSON.parse(await readFile(join(dataDir, 'verdict.lock'), 'utf8')).pid).toBe(api.child.pid);
  });
});
