import type { Services } from '@verdict/core';
import type { FastifyBaseLogger } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../router.ts';
import { DirectReads, leavesToFastify } from './direct-reads.ts';
import { HeaderBlock } from './header-block.ts';

const silent = { child: () => silent, info() {}, error() {} } as unknown as FastifyBaseLogger;

function directReads() {
  return new DirectReads({
    router: appRouter as unknown as OpenApiRouter,
    services: {} as Services,
    config: {
      publicBaseUrl: 'http://localhost:3000',
      appUrl: 'http://localhost:3000',
      linksFollowRequest: {} as never,
    },
    apiHeaders: new HeaderBlock([['X-Content-Type-Options', 'nosniff']]),
    log: silent,
    observeRequest: null,
    usage: null,
    onError: () => {},
  });
}

/** The REST operations of the router: method, path and what its procedure is. */
function operations() {
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: string; meta?: { openapi?: { method: string; path: string } } } }
  >;
  return Object.values(procedures).flatMap(({ _def }) =>
    _def.meta?.openapi ? [{ ..._def.meta.openapi, type: _def.type }] : [],
  );
}

describe('the reads answered directly', () => {
  it('are the GET queries that take no input and have no path parameter, each found by its path', () => {
    const reads = directReads();
    expect(reads.paths).toEqual(expect.arrayContaining(['/v1/me', '/v1/health', '/v1/usage', '/api/keys']));
    const gets = new Map(
      operations()
        .filter((operation) => operation.method === 'GET')
        .map((operation) => [operation.path, operation]),
    );
    for (const path of reads.paths) {
      expect(gets.get(path)?.type, path).toBe('query');
      expect(reads.find('GET', path, undefined)?.template, path).toBe(path);
    }
    // Reads with parameters or input go through Fastify, as do the streams.
    for (const path of ['/v1/verdicts/{id}', '/api/debates', '/api/notifications/stream']) {
      expect(reads.paths, path).not.toContain(path);
    }
  });

  it('leaves other methods, a query string, and every request once stopped to Fastify', () => {
    const reads = directReads();
    expect(reads.find('HEAD', '/v1/health', undefined)).toBeUndefined();
    expect(reads.find('POST', '/v1/health', undefined)).toBeUndefined();
    expect(reads.find('GET', '/v1/health', 'verbose=1')).toBeUndefined();
    expect(reads.find('GET', '/v1/health/', undefined)).toBeUndefined();
    expect(reads.find('GET', '/v1/health', undefined)).toBeDefined();
    reads.stop();
    expect(reads.find('GET', '/v1/health', undefined)).toBeUndefined();
  });

  it("leaves to Fastify requests whose answer depends on its pipeline: cookies, Origin, proxies' headers, a body", () => {
    for (const name of [
      'cookie',
      'origin',
      'forwarded',
      'x-forwarded-for',
      'x-forwarded-proto',
      'content-length',
    ]) {
      expect(leavesToFastify(name), name).toBe(true);
    }
    for (const name of ['authorization', 'x-api-key', 'x-request-id', 'host', 'accept', 'user-agent']) {
      expect(leavesToFastify(name), name).toBe(false);
    }
  });
});
