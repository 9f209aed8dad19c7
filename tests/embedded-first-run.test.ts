import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareTemplate } from '@verdict/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { type RunningProcess, runApiExpectingRefusal, startApi } from './support/processes.ts';

/** Pino's JSON lines reduced to their messages. */
const messages = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line).msg as string);

// `npm start` on an empty DATA_DIR: what it says while it creates the database, and when it refuses.
describe('the first start on an empty DATA_DIR', () => {
  const dirs: string[] = [];
  let api: RunningProcess | undefined;
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    await prepareTemplate(); // what npm install did; a no-op when the template is there
  }, 120_000);
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('copies the prepared database, saying so and how long it took, then prints one ready line', async () => {
    const dataDir = await tempDir('verdict-first-');
    api = await startApi({ DATA_DIR: dataDir });
    const said = messages(api.output());
    const creating = said.indexOf(
      `creating the embedded database in ${dataDir}/pglite from the template prepared at install`,
    );
    expect(creating).toBeGreaterThanOrEqual(0);
    expect(said[creating + 1]).toMatch(/^embedded database created in (\d+ ms|\d+\.\d s)$/);

    const base = api.baseUrl.replace('127.0.0.1', 'localhost');
    const ready = said.filter((m) => m.startsWith('ready: '));
    expect(ready).toEqual([
      `ready: ${base} — API reference ${base}/docs, OpenAPI document ${base}/openapi.json (listening at ${api.baseUrl})`,
    ]);
    expect(said.at(-1)).toBe(ready[0]);
  });

  it('still works without a prepared template, and says why it takes longer', async () => {
    const dataDir = await tempDir('verdict-first-');
    api = await startApi(
      { DATA_DIR: dataDir, PGLITE_TEMPLATES: await tempDir('verdict-no-template-') },
      180_000,
    );
    expect(messages(api.output())).toContainEqual(
      expect.stringMatching(/^creating the embedded database in .*; no template was prepared at install/),
    );
    expectBody(await apiClient(api.baseUrl).GET('/health'), 200);
  }, 200_000);

  it('stops at once, before any slow work, when the port is taken', async () => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await once(squatter, 'listening');
    const { port } = squatter.address() as { port: number };
    try {
      const dataDir = await tempDir('verdict-first-');
      const refused = await runApiExpectingRefusal({ DATA_DIR: dataDir, PORT: String(port) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`port ${port} is in use; set PORT to another port\n`);
      expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    } finally {
      squatter.close();
    }
  });
});
