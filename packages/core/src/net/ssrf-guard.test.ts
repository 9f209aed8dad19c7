import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkedAddressOf,
  refusalOfAddress,
  refusalOfUrl,
  type SsrfPolicy,
  ssrfGuardedAgent,
} from './ssrf-guard.ts';

const strict: SsrfPolicy = { allowHttp: false, allowPrivate: false };

describe('refusalOfAddress', () => {
  const refused = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['2001:db8::1', 'reserved'],
    // IPv4-compatible (::/96, deprecated): ipaddr.js calls it unicast, and reads `::a.b.c.d` as IPv4-mapped.
    ['::7f00:1', 'ipv4Compatible'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    // NAT64's well-known prefix is judged by the IPv4 address it embeds.
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    // The local-use NAT64 prefix, 6to4, Teredo and SIIT are refused whatever they embed.
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    // Outside 2000::/3 nothing is global unicast, though ipaddr.js calls some of it unicast.
    ['::1:0:0:0', 'reserved'],
    ['1::1', 'reserved'],
    ['4000::1', 'reserved'],
    // Cloud metadata endpoints, some of them in public space.
    ['168.63.129.16', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
  ] as const;
  for (const [address, kind] of refused) {
    it(`refuses ${address} as ${kind}`, () => {
      expect(refusalOfAddress(address, strict)).toContain(`${kind} address`);
    });
  }

  for (const address of [
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b::1.1.1.1',
  ]) {
    it(`allows the public address ${address}`, () => {
      expect(refusalOfAddress(address, strict)).toBeNull();
    });
  }

  it('opens loopback and private ranges under allowPrivate, but never metadata or multicast', () => {
    const dev = { ...strict, allowPrivate: true };
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', 'fd12::1', '::ffff:127.0.0.1']) {
      expect(refusalOfAddress(address, dev), address).toBeNull();
    }
    for (const address of ['169.254.169.254', 'fe80::1', '224.0.0.1']) {
      expect(refusalOfAddress(address, dev), address).not.toBeNull();
    }
  });

  it('keeps every cloud metadata endpoint refused under allowPrivate, however it is spelled', () => {
    const dev = { ...strict, allowPrivate: true };
    // CGNAT and unique-local open under allowPrivate, the metadata endpoints inside them do not.
    for (const address of ['100.64.0.1', '100.100.100.201', 'fd00:ec2::1', 'fd20:ce::1']) {
      expect(refusalOfAddress(address, dev), address).toBeNull();
    }
    for (const address of [
      '169.254.169.254',
      '169.254.170.2',
      '169.254.170.23',
      '100.100.100.200',
      '192.0.0.192',
      '168.63.129.16',
      'fd00:ec2::254',
      'fd00:ec2::23',
      'fd20:ce::254',
      '::ffff:100.100.100.200',
      '::ffff:a9fe:a9fe',
      '64:ff9b::6464:64c8',
      '[fd00:ec2::254]',
    ]) {
      expect(refusalOfAddress(address, dev), address).toContain('cloud metadata address');
    }
  });

  it('refuses the IPv4-compatible range under allowPrivate too, even for a public IPv4', () => {
    const dev = { ...strict, allowPrivate: true };
    for (const address of ['::7f00:1', '::a00:1', '::808:808', '::8.8.8.8']) {
      expect(refusalOfAddress(address, dev), address).toContain('ipv4Compatible address');
    }
  });

  it('keeps metadata refused even inside a range it is told to allow', () => {
    const policy = { ...strict, allowedRanges: ['100.64.0.0/10', '169.254.0.0/16', 'fd00::/8'] };
    expect(refusalOfAddress('100.64.0.1', policy)).toBeNull();
    expect(refusalOfAddress('169.254.1.1', policy)).toBeNull();
    for (const address of ['100.100.100.200', '169.254.169.254', 'fd00:ec2::254']) {
      expect(refusalOfAddress(address, policy), address).toContain('cloud metadata address');
    }
  });

  it('allows exactly the ranges it is told to, so 127.0.0.2 may pass while 127.0.0.1 stays refused', () => {
    const policy = { ...strict, allowedRanges: ['127.0.0.2/32'] };
    expect(refusalOfAddress('127.0.0.2', policy)).toBeNull();
    expect(refusalOfAddress('::ffff:127.0.0.2', policy)).toBeNull();
    expect(refusalOfAddress('127.0.0.1', policy)).not.toBeNull();
    expect(refusalOfAddress('127.0.0.3', policy)).not.toBeNull();
  });

  it('refuses what is not an address at all', () => {
    expect(refusalOfAddress('example.com', strict)).toContain('not an IP address');
  });
});

describe('refusalOfUrl', () => {
  const refusedUrls = [
    'http://example.com/hook',
    'ftp://example.com/hook',
    'file:///etc/passwd',
    'https://127.0.0.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://017700000001/hook',
    'https://127.1/hook',
    'https://0/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[0:0:0:0:0:ffff:a9fe:a9fe]/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::127.0.0.1]/hook',
    'https://[::7f00:1]/hook',
    'https://[::169.254.169.254]/latest/meta-data/',
    'https://[64:ff9b::127.0.0.1]/hook',
    'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
    'https://[fd00:ec2::254]/latest/meta-data/',
    'https://100.100.100.200/latest/meta-data/',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://10.0.0.1:8443/hook',
    'not a url',
  ];
  for (const url of refusedUrls) {
    it(`refuses ${url}`, () => {
      expect(refusalOfUrl(url, strict)).not.toBeNull();
    });
  }

  it('takes an https URL with a host name, leaving the name to be checked when connecting', () => {
    expect(refusalOfUrl('https://hooks.example.com/verdict', strict)).toBeNull();
    expect(refusalOfUrl('https://8.8.8.8/verdict', strict)).toBeNull();
  });

  it('refuses metadata URLs and IPv4-compatible hosts under the development settings too', () => {
    const dev = { allowHttp: true, allowPrivate: true };
    for (const url of [
      'http://100.100.100.200/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://169.254.170.2/v2/credentials',
      'http://[::127.0.0.1]:3000/hook',
    ]) {
      expect(refusalOfUrl(url, dev), url).not.toBeNull();
    }
    expect(refusalOfUrl('http://[fd12::1]:3000/hook', dev)).toBeNull();
  });

  it('takes http:// and loopback only when the settings allow them', () => {
    expect(refusalOfUrl('http://example.com/hook', { ...strict, allowHttp: true })).toBeNull();
    expect(refusalOfUrl('http://localhost:3000/hook', { allowHttp: true, allowPrivate: true })).toBeNull();
    expect(
      refusalOfUrl('http://localhost:3000/hook', { allowHttp: true, allowPrivate: false }),
    ).not.toBeNull();
  });
});

describe('checkedAddressOf', () => {
  const resolving =
    (table: Record<string, string[]>): SsrfPolicy['resolve'] =>
    async (name) =>
      table[name] ?? [];

  it('refuses a name that resolves to a private address', async () => {
    const policy = { ...strict, resolve: resolving({ 'internal.example.com': ['10.0.0.7'] }) };
    await expect(checkedAddressOf('internal.example.com', policy)).rejects.toThrow(
      /10\.0\.0\.7 is a private/,
    );
  });

  it('refuses metadata.google.internal resolving to the metadata address', async () => {
    const policy = { ...strict, resolve: resolving({ 'metadata.google.internal': ['169.254.169.254'] }) };
    await expect(checkedAddressOf('metadata.google.internal', policy)).rejects.toThrow(/cloud metadata/);
  });

  it('refuses a name when any of its addresses is private, even next to a public one', async () => {
    const policy = { ...strict, resolve: resolving({ 'mixed.example.com': ['8.8.8.8', '127.0.0.1'] }) };
    await expect(checkedAddressOf('mixed.example.com', policy)).rejects.toThrow(/loopback/);
  });

  it('refuses a name resolving to an IPv4-mapped loopback address', async () => {
    const policy = { ...strict, resolve: resolving({ 'v6.example.com': ['::ffff:127.0.0.1'] }) };
    await expect(checkedAddressOf('v6.example.com', policy)).rejects.toThrow(/loopback/);
  });

  it('refuses a name resolving to an IPv4-compatible or a NAT64 metadata address', async () => {
    const policy = {
      ...strict,
      resolve: resolving({
        'compat.example.com': ['::8.8.8.8'],
        'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
      }),
    };
    await expect(checkedAddressOf('compat.example.com', policy)).rejects.toThrow(/ipv4Compatible/);
    await expect(checkedAddressOf('nat64.example.com', policy)).rejects.toThrow(/cloud metadata/);
  });

  it('refuses a name that resolves to nothing', async () => {
    await expect(
      checkedAddressOf('nothing.example.com', { ...strict, resolve: resolving({}) }),
    ).rejects.toThrow(/no address/);
  });

  it('answers the checked public address, the one the socket will use', async () => {
    const policy = { ...strict, resolve: resolving({ 'hooks.example.com': ['93.184.215.14'] }) };
    expect(await checkedAddressOf('hooks.example.com', policy)).toBe('93.184.215.14');
  });

  it('refuses localhost through the system resolver', async () => {
    await expect(checkedAddressOf('localhost', strict)).rejects.toThrow(/loopback/);
  });
});

describe('the guarded agent against real local servers', () => {
  // 127.0.0.2 is the test's one allowed address; 127.0.0.1 must stay refused (it is where secrets live).
  const policy: SsrfPolicy = { allowHttp: true, allowPrivate: false, allowedRanges: ['127.0.0.2/32'] };
  const agent = ssrfGuardedAgent(policy, { connectTimeoutMs: 2000 });
  let secret: Server;
  let open: Server;
  let secretHits = 0;
  let secretPort = 0;
  let openPort = 0;

  const listen = (server: Server, host: string) =>
    new Promise<number>((resolve) =>
      server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
    );

  beforeAll(async () => {
    secret = createServer((_req, res) => {
      secretHits++;
      res.end('secret');
    });
    secretPort = await listen(secret, '127.0.0.1');
    open = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${secretPort}/` }).end();
        return;
      }
      res.end('hello');
    });
    openPort = await listen(open, '127.0.0.2');
  });
  afterAll(async () => {
    await agent.close();
    secret.close();
    open.close();
  });

  const get = (url: string) => request(url, { dispatcher: agent });

  it('connects to the allowed address', async () => {
    const answer = await get(`http://127.0.0.2:${openPort}/`);
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe('hello');
  });

  it('refuses 127.0.0.1 at connect time, however the URL spells it', async () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '017700000001',
      '127.1',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
    ]) {
      await expect(get(`http://${host}:${secretPort}/`), host).rejects.toThrow(/refused/);
    }
    expect(secretHits).toBe(0);
  });

  it('sees through a decimal spelling of the allowed address too', async () => {
    // 2130706434 is 127.0.0.2: the URL parser normalises it, and the guard judges the address.
    expect((await get(`http://2130706434:${openPort}/`)).statusCode).toBe(200);
  });

  it('refuses a name whose resolver points at loopback (DNS rebinding)', async () => {
    const rebinding = ssrfGuardedAgent({ ...policy, resolve: async () => ['127.0.0.1'] });
    try {
      await expect(
        request(`http://rebind.example.com:${secretPort}/`, { dispatcher: rebinding }),
      ).rejects.toThrow(/refused/);
      expect(secretHits).toBe(0);
    } finally {
      await rebinding.close();
    }
  });

  it('connects to the address it checked, not to a second resolution', async () => {
    let calls = 0;
    const flipping = ssrfGuardedAgent({
      ...policy,
      resolve: async () => (calls++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']),
    });
    try {
      const answer = await request(`http://flip.example.com:${openPort}/`, { dispatcher: flipping });
      expect(await answer.body.text()).toBe('hello');
      expect(calls).toBe(1);
    } finally {
      await flipping.close();
    }
  });

  it('fails a connection whose name lookup outlasts the connect timeout, and one whose signal aborts first', async () => {
    const never = () => new Promise<string[]>(() => {});
    const timed = ssrfGuardedAgent({ ...policy, resolve: never }, { connectTimeoutMs: 300 });
    const deadline = new AbortController();
    const signalled = ssrfGuardedAgent(
      { ...policy, resolve: never },
      { connectTimeoutMs: 60_000, signal: deadline.signal },
    );
    const failureWithin = async (work: Promise<unknown>, ms: number) => {
      const started = performance.now();
      const outcome = await Promise.race([
        work.then(
          () => 'answered',
          (error: unknown) => (error as Error).message,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve(`no outcome within ${ms} ms`), ms)),
      ]);
      return { outcome, took: performance.now() - started };
    };
    try {
      const byTimeout = await failureWithin(
        request(`http://hang.example.com:${openPort}/`, { dispatcher: timed }),
        3000,
      );
      expect(byTimeout.outcome).toMatch(/hang\.example\.com.*not resolved within 300 ms/);
      expect(byTimeout.took).toBeLessThan(1500);

      setTimeout(() => deadline.abort(), 200);
      const bySignal = await failureWithin(
        request(`http://hang.example.com:${openPort}/`, { dispatcher: signalled }),
        3000,
      );
      expect(bySignal.outcome).toMatch(/hang\.example\.com.*deadline/);
      expect(bySignal.took).toBeLessThan(1500);
    } finally {
      await Promise.all([timed.destroy(), signalled.destroy()]);
    }
  });

  it('does not follow a redirect to a private address: the 302 is the answer', async () => {
    const answer = await get(`http://127.0.0.2:${openPort}/redirect`);
    expect(answer.statusCode).toBe(302);
    await answer.body.dump();
    expect(secretHits).toBe(0);
  });
});
