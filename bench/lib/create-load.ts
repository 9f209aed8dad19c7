import autocannon from 'autocannon';

/**
 * POST /api/debates from `connections` connections, each with a key of its own (`keys[i]` for the i-th
 * connection: one account each, so no account's row lock serializes the creates), distinct questions,
 * `skipCache`. Counts the 201s; the run's other answers are in the autocannon result.
 */
export function fireCreates(options: {
  baseUrl: string;
  keys: string[];
  durationS: number;
  tag: string;
  onCreated?: () => void;
}): Promise<autocannon.Result> {
  const { keys } = options;
  const requests = createRequests(keys, options.tag);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: keys.length,
        pipelining: 1,
        timeout: 10,
        duration: options.durationS,
        requests,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, status) => {
      if (status === 201) options.onCreated?.();
    });
  });
}

/**
 * POST /api/debates requests for autocannon: the i-th connection takes `keys[i % keys.length]` and keeps it,
 * each request a distinct question (`tag` and a counter), `skipCache`, so no create is answered from a cache.
 */
export function createRequests(keys: string[], tag: string): autocannon.Request[] {
  let n = 0;
  let nextKey = 0;
  return [
    {
      method: 'POST',
      path: '/api/debates',
      setupRequest: (req, context) => {
        const ctx = context as { key?: string };
        ctx.key ??= keys[nextKey++ % keys.length];
        return {
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${ctx.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            question: `Should we move service ${tag}-${n++} to the new region this quarter?`,
            mode: 'fast',
            skipCache: true,
          }),
        };
      },
    },
  ];
}
