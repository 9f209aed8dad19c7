import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startServer } from '../testing/http-harness.ts';

describe('GET /', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('points at the docs, the OpenAPI document and the health check, each of which answers', async () => {
    const root = await h.request<Record<string, string>>('GET', '/');
    expect(root.status).toBe(200);
    expect(root.json).toEqual({
      service: 'verdict',
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    });
    for (const path of [root.json.docs, root.json.openapi, root.json.health]) {
      expect((await h.request('GET', path ?? '')).status).toBe(200);
    }
  });

  it('is not an API route: the OpenAPI document does not list it', async () => {
    const doc = await h.request<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(doc.json.paths)).not.toContain('/');
  });
});
