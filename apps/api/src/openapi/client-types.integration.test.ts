import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startServer } from '../testing/http-harness.ts';
import { CLIENT_TYPES_PATH, clientTypesOf } from './client-types.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('the generated client types', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h.close();
  });

  it('are exactly what openapi-typescript makes of the document the server serves (npm run gen:client)', async () => {
    const served = await h.request<object>('GET', '/openapi.json');
    expect(served.status).toBe(200);
    const committed = await readFile(join(REPO_ROOT, CLIENT_TYPES_PATH), 'utf8');
    const generated = await clientTypesOf(served.json);
    expect(generated).toContain('export interface paths');
    expect(committed, `${CLIENT_TYPES_PATH} is stale: run npm run gen:client`).toBe(generated);
  });
});
