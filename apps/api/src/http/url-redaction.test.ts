import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { appRouter } from '../router.ts';
import { isSecretQueryName, redactedPathOf, redactUrl } from './url-redaction.ts';

const share = { template: '/api/public/debates/:token', names: ['token'] };

describe('URLs as log lines and spans show them', () => {
  it('redacts a path parameter the route declares secret, and keeps the others', () => {
    expect(redactUrl('/api/public/debates/AbC-123_x', share)).toBe('/api/public/debates/[redacted]');
    expect(redactUrl('/api/public/debates/AbC?x=1', share)).toBe('/api/public/debates/[redacted]?x=1');
    const comment = { template: '/api/debates/:id/comments/:commentId', names: ['commentId'] };
    expect(redactUrl('/api/debates/d-1/comments/c-2', comment)).toBe('/api/debates/d-1/comments/[redacted]');
    expect(redactedPathOf('/api/public/debates/AbC?token=t', share)).toBe('/api/public/debates/[redacted]');
  });

  it('shows the template, no value at all, when the path does not line up with it', () => {
    expect(redactUrl('/api/public/debates/AbC/extra', share)).toBe('/api/public/debates/[redacted]');
  });

  it('leaves a path alone when its route declares nothing secret', () => {
    const debate = { template: '/api/debates/:id', names: [] };
    expect(redactUrl('/api/debates/d-1?page=2', debate)).toBe('/api/debates/d-1?page=2');
    expect(redactUrl('/no/such/path')).toBe('/no/such/path');
  });

  it('redacts a query parameter the route declares, keeping the order and the other parameters', () => {
    const unsubscribe = { template: '/api/unsubscribe', names: ['userId'] };
    expect(redactUrl('/api/unsubscribe?userId=u&type=comments&token=t', unsubscribe)).toBe(
      '/api/unsubscribe?userId=[redacted]&type=comments&token=[redacted]',
    );
  });

  it('redacts credential-named query parameters on any route, however spelt or encoded', () => {
    expect(redactUrl('/v1/me?api_key=vk_live_1')).toBe('/v1/me?api_key=[redacted]');
    expect(redactUrl('/v1/me?API-KEY=a&apiKey=b&x-api-key=c')).toBe(
      '/v1/me?API-KEY=[redacted]&apiKey=[redacted]&x-api-key=[redacted]',
    );
    expect(redactUrl('/x?access_token=a&shareToken=b&client_secret=c&password=d&key=e&sig=f')).toBe(
      '/x?access_token=[redacted]&shareToken=[redacted]&client_secret=[redacted]&password=[redacted]&key=[redacted]&sig=[redacted]',
    );
    // %74oken is "token": the name is compared decoded, and written back as it came.
    expect(redactUrl('/x?%74oken=a&page=1')).toBe('/x?%74oken=[redacted]&page=1');
    expect(redactUrl('/x?token&token=&q=a=b')).toBe('/x?token&token=[redacted]&q=a=b');
  });

  it('keeps the names that only look alike readable', () => {
    for (const name of ['page', 'limit', 'cursor', 'type', 'sortBy', 'q', 'monkey', 'tokens', 'keyword']) {
      expect(isSecretQueryName(name), name).toBe(false);
    }
  });

  it("never hides a parameter of this API's document but a secret one", () => {
    const document = buildOpenApiDocument(appRouter as never, 'https://api.example.com') as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const caught: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'query' && isSecretQueryName(parameter.name)) {
            caught.push(`${method.toUpperCase()} ${path} ${parameter.name}`);
          }
        }
      }
    }
    // The unsubscribe link's HMAC, a secret indeed (and declared so by its route).
    expect(caught).toEqual(['GET /api/unsubscribe token']);
  });
});
