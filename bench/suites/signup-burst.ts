import { expectOk, startApiServer } from '../lib/api-servers.ts';
import { describeLoad, type LoadOptions, measure } from '../lib/load.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Parallel sign-up clients: the burst that once cut /v1/health from ~6,000 to 744 req/s and made a sign-in take 5.7 s. */
const SIGNUP_CLIENTS = 50;
const PASSWORD = 'a passphrase nobody else uses';

/**
 * `clients` sign-up clients, each sending its next sign-up as soon as the last is answered (an email of its
 * own each time), and waiting Retry-After first when told the server is busy: a spike of sign-ups from
 * well-behaved clients. Runs until `until`; returns what they got.
 */
async function signUpBurst(baseUrl: string, clients: number, until: number) {
  const statuses = new Map<number, number>();
  let n = 0;
  const client = async () => {
    while (Date.now() < until) {
      const res = await fetch(`${baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `burst-${process.pid}-${n++}@example.com`,
          password: PASSWORD,
          name: 'B',
        }),
      });
      await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const wait = Number(res.headers.get('retry-after') ?? 0);
      if (res.status === 503 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return statuses;
}

/** Sign-in latencies of one client signing in again and again, one request at a time, until `until`. */
async function signInLatencies(baseUrl: string, email: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    await res.text();
    if (res.status === 200) latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const api = await startApiServer({
    mode: 'postgres',
    databaseUrl: settings.databaseUrl,
    env: { REGISTER_LIMIT_PER_HOUR: '1000000' },
  });
  try {
    const health: LoadOptions = {
      url: `${api.baseUrl}/v1/health`,
      connections: 20,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
    };
    await expectOk(health.url);
    const email = `signin-${process.pid}@example.com`;
    const registered = await fetch(`${api.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name: 'Signin' }),
    });
    if (registered.status !== 201) throw new Error(`sign-up answered ${registered.status}`);

    log('GET /v1/health alone');
    const quiet = await measure(health);
    const quietSignIns = await signInLatencies(api.baseUrl, email, Date.now() + 3000);

    log(`GET /v1/health and sign-ins during ${SIGNUP_CLIENTS} parallel sign-up clients`);
    const burstSeconds = settings.warmupS + settings.durationS + 4;
    const burst = signUpBurst(api.baseUrl, SIGNUP_CLIENTS, Date.now() + burstSeconds * 1000);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the burst is in full swing
    const [loaded, signIns] = await Promise.all([
      measure(health),
      signInLatencies(api.baseUrl, email, Date.now() + (settings.warmupS + settings.durationS) * 1000),
    ]);
    const signUps = await burst;
    const created = signUps.get(201) ?? 0;
    const busy = signUps.get(503) ?? 0;
    const other = [...signUps].filter(([status]) => status !== 201 && status !== 503);
    const detail = `${SIGNUP_CLIENTS} clients POST /api/auth/register with new emails; ${describeLoad(health, loaded)}`;
    return [
      {
        name: 'signup_burst.health_alone.rps',
        value: round(quiet.rps, 0),
        unit: 'req/s',
        better: 'higher',
        detail: describeLoad(health, quiet),
      },
      {
        name: 'signup_burst.health_during.rps',
        value: round(loaded.rps, 0),
        unit: 'req/s',
        better: 'higher',
        detail,
      },
      {
        name: 'signup_burst.health_during.ratio',
        value: round(loaded.rps / quiet.rps, 3),
        unit: 'x',
        better: 'higher',
        detail: 'GET /v1/health rps during the burst / alone, same run',
      },
      {
        name: 'signup_burst.signin_alone.p50_ms',
        value: round(percentile(quietSignIns, 0.5)),
        unit: 'ms',
        better: 'lower',
        detail: `${quietSignIns.length} sequential sign-ins, no other load`,
      },
      {
        name: 'signup_burst.signin_during.p50_ms',
        value: round(percentile(signIns, 0.5)),
        unit: 'ms',
        better: 'lower',
        detail: `${signIns.length} sequential sign-ins during the burst`,
      },
      {
        name: 'signup_burst.signin_during.p99_ms',
        value: round(percentile(signIns, 0.99)),
        unit: 'ms',
        better: 'lower',
        detail: `${signIns.length} sequential sign-ins during the burst`,
      },
      {
        name: 'signup_burst.signups.per_s',
        value: round(created / burstSeconds, 1),
        unit: 'accounts/s',
        better: 'higher',
        detail: `${created} accounts in ${burstSeconds} s, ${busy} answers 503 (hashing queue full; the clients waited Retry-After)${other.length ? `; OTHER: ${JSON.stringify(other)}` : ''}`,
      },
    ];
  } finally {
    await api.stop();
  }
}

export const suite: Suite = {
  description: 'Health and sign-in latency during a burst of parallel sign-ups (bounded password hashing)',
  run,
};
