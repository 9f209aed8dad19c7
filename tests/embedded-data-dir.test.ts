import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody, registerUser } from './support/api-client.ts';
import { type RunningProcess, runAdmin, runApiExpectingRefusal, startApi } from './support/processes.ts';

// One process owns an embedded DATA_DIR; `npm run admin` reaches the database through it while it runs.
describe('an embedded DATA_DIR', () => {
  let dataDir: string;
  let api: RunningProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir });
  const credits = async (server: RunningProcess, cookie: string) =>
    expectBody(await apiClient(server.baseUrl, { cookie }).GET('/api/auth/session'), 200).user.credits;

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
    expectBody(await apiClient(api.baseUrl).GET('/health'), 200);
  });

  it('is not blocked by the lock of a server that was killed', async () => {
    api = await startApi(env());
    api.child.kill('SIGKILL');
    await once(api.child, 'exit');
    const left = JSON.parse(await readFile(join(dataDir, 'verdict.lock'), 'utf8'));
    expect(left.pid).toBe(api.child.pid);

    api = await startApi(env());
    expectBody(await apiClient(api.baseUrl).GET('/health'), 200);
    expect(JSON.parse(await readFile(join(dataDir, 'verdict.lock'), 'utf8')).pid).toBe(api.child.pid);
  });

  it('takes admin commands through the running server: seen at once, kept after a restart or a kill', async () => {
    api = await startApi(env());
    const user = await registerUser(api.baseUrl, 'granted');
    const granted = await runAdmin(['grant-credits', '--email', user.email, '--amount', '25'], env());
    expect(granted).toMatchObject({ code: 0, stderr: '' });
    expect(granted.stdout).toContain('balance 35');
    expect(api.output()).toContain('admin command through the admin channel');
    expect(await credits(api, user.cookie)).toBe(35);

    await api.stop();
    api = await startApi(env());
    expect(await credits(api, user.cookie)).toBe(35);

    expect((await runAdmin(['grant-credits', '--email', user.email, '--amount', '5'], env())).code).toBe(0);
    api.child.kill('SIGKILL');
    await once(api.child, 'exit');
    api = await startApi(env());
    expect(await credits(api, user.cookie)).toBe(40);
  });

  it('refuses an admin command, changing nothing, when the channel is unreachable or the secret is wrong', async () => {
    api = await startApi(env());
    const user = await registerUser(api.baseUrl, 'refused');
    const infoPath = join(dataDir, 'run', 'admin.json');
    const info = await readFile(infoPath, 'utf8');
    const grant = () => runAdmin(['grant-credits', '--email', user.email, '--amount', '3'], env());
    try {
      await writeFile(
        infoPath,
        JSON.stringify({ ...JSON.parse(info), socket: join(dataDir, 'run', 'gone.sock') }),
      );
      const unreachable = await grant();
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(
        /^admin: cannot reach the server's admin channel .*nothing was changed\n$/,
      );

      await writeFile(infoPath, JSON.stringify({ ...JSON.parse(info), secret: 'AAAA' }));
      const forged = await grant();
      expect(forged.code).toBe(1);
      expect(forged.stderr).toBe('admin: admin channel: request refused\n');
    } finally {
      await writeFile(infoPath, info);
    }
    expect(await credits(api, user.cookie)).toBe(10);
  });

  it('lets admin work directly on the database when no server runs, and leaves DATA_DIR free', async () => {
    const email = `direct-${Date.now()}@example.com`;
    const created = await runAdmin(
      ['create-user', '--email', email, '--name', 'D', '--password', 'pw-12345678'],
      env(),
    );
    expect(created.code).toBe(0);
    const granted = await runAdmin(['grant-credits', '--email', email, '--amount', '4'], env());
    expect(granted.stdout).toContain('balance 14');
    expect(granted.stderr).toBe('');
    expect(existsSync(join(dataDir, 'verdict.lock'))).toBe(false);

    api = await startApi(env());
    const login = await apiClient(api.baseUrl).POST('/api/auth/login', {
      body: { email, password: 'pw-12345678' },
    });
    expect(expectBody(login, 200).user.credits).toBe(14);
  });
});
