import { loadConfig } from '@verdict/core';
import { describe, expect, it } from 'vitest';
import { rebaseExtra, requestLinks, requestOrigin } from './request-links.ts';

const request = (host: string, protocol = 'http') => ({ host, protocol: protocol as 'http' });

describe('requestOrigin', () => {
  it.each([
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['localhost:3000', 'http://localhost:3000'],
    ['LocalHost:3000', 'http://localhost:3000'],
    ['verdict.example', 'http://verdict.example'],
    ['verdict.example:80', 'http://verdict.example'],
    ['api_1:8080', 'http://api_1:8080'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['[::1]', 'http://[::1]'],
  ])('takes the plausible host %s as %s', (host, origin) => {
    expect(requestOrigin(request(host))).toBe(origin);
  });

  it('keeps https when the request came over it (or a trusted proxy said so)', () => {
    expect(requestOrigin(request('verdict.example', 'https'))).toBe('https://verdict.example');
  });

  it.each([
    '',
    'evil.example/path',
    'evil.example/share/x?y',
    'evil.example:3000/x',
    'user@evil.example',
    'evil.example:3000@127.0.0.1',
    'evil.example, localhost',
    'evil example',
    'evil.example:',
    'evil.example:99999',
    'evil.example:0',
    'evil.example.',
    '-evil.example',
    '999.1.1.1',
    '3000',
    '0x7f.1',
    '[::g]:3000',
    '[127.0.0.1]',
    'évil.example',
    'evil.example\r\nSet-Cookie: x',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(140)}example`,
    '<script>',
  ])('refuses the host %j', (host) => {
    expect(requestOrigin(request(host))).toBeNull();
  });

  it('refuses a protocol that is neither http nor https', () => {
    expect(requestOrigin(request('localhost:3000', 'ftp'))).toBeNull();
    expect(requestOrigin(request('localhost:3000', 'https, http'))).toBeNull();
  });
});

describe('requestLinks', () => {
  it('puts every link on the request origin while PUBLIC_BASE_URL and APP_URL are unset', () => {
    const config = loadConfig({ PORT: '3000' });
    const links = requestLinks(request('127.0.0.1:3000'), config);
    expect(links).toMatchObject({ api: 'http://127.0.0.1:3000', app: 'http://127.0.0.1:3000' });
    expect(links.rebase('http://localhost:3000/pricing')).toBe('http://127.0.0.1:3000/pricing');
    expect(links.rebase('http://localhost:3000')).toBe('http://127.0.0.1:3000');
    // Only the default base itself: another port, or a name that merely starts the same, stays.
    expect(links.rebase('http://localhost:30001/pricing')).toBe('http://localhost:30001/pricing');
    expect(links.rebase('https://checkout.stripe.com/c/pay')).toBe('https://checkout.stripe.com/c/pay');
  });

  it('falls back on the default http://localhost:$PORT for a host it refuses', () => {
    const config = loadConfig({ PORT: '3000' });
    const links = requestLinks(request('evil.example/path'), config);
    expect(links).toMatchObject({ api: 'http://localhost:3000', app: 'http://localhost:3000' });
    expect(links.rebase('http://localhost:3000/pricing')).toBe('http://localhost:3000/pricing');
  });

  it('keeps a configured APP_URL for the web app, and follows the request for the API without PUBLIC_BASE_URL', () => {
    const config = loadConfig({ PORT: '3000', APP_URL: 'https://app.verdict.test' });
    const links = requestLinks(request('127.0.0.1:3000'), config);
    expect(links).toMatchObject({ api: 'http://127.0.0.1:3000', app: 'https://app.verdict.test' });
    expect(links.rebase('https://app.verdict.test/pricing')).toBe('https://app.verdict.test/pricing');
  });

  it("leaves an APP_URL's link on it when APP_URL is a path on the API's default address", () => {
    const config = loadConfig({ PORT: '3000', APP_URL: 'http://localhost:3000/app' });
    const links = requestLinks(request('127.0.0.1:3000'), config);
    expect(links.rebase('http://localhost:3000/app/pricing')).toBe('http://localhost:3000/app/pricing');
    expect(links.rebase('http://localhost:3000/api/x')).toBe('http://127.0.0.1:3000/api/x');
  });

  it('keeps a configured PUBLIC_BASE_URL for every link', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.verdict.test' });
    const links = requestLinks(request('127.0.0.1:3000'), config);
    expect(links).toMatchObject({ api: 'https://api.verdict.test', app: 'https://api.verdict.test' });
    expect(links.rebase('https://api.verdict.test/pricing')).toBe('https://api.verdict.test/pricing');
  });
});

describe('rebaseExtra', () => {
  it("moves an error's links and leaves its other fields as they are", () => {
    const links = requestLinks(request('127.0.0.1:4000'), loadConfig({ PORT: '4000' }));
    const extra = { requiredPlan: 'pro', limit: 5, upgradeUrl: 'http://localhost:4000/pricing' };
    expect(rebaseExtra(extra, links)).toEqual({ ...extra, upgradeUrl: 'http://127.0.0.1:4000/pricing' });
    expect(extra.upgradeUrl).toBe('http://localhost:4000/pricing');
    const plain = { limit: 5 };
    expect(rebaseExtra(plain, links)).toBe(plain);
    expect(rebaseExtra(extra, undefined)).toBe(extra);
  });
});
