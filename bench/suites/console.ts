import { type Browser, chromium, type Response } from 'playwright-core';
import { type EmbeddedApi, startEmbeddedApi } from '../lib/embedded-api.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 7);
/** The largest debate the API accepts (agentCount ≤ 7, maxRounds ≤ 5 per run) with three rounds. */
const SHAPE = { agents: 7, rounds: 3 };

const median = (sorted: number[]) => sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;

/** Debian's chromium (what `npm test` installs), or CHROMIUM_BIN. */
const chromiumBin = () => process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumBin(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A signed-up user on the pro plan, and a finished debate of SHAPE with a share link. */
async function finishedDebate(api: EmbeddedApi) {
  const email = `bench-console-${Date.now()}@example.com`;
  const registered = await fetch(`${api.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-console-password', name: 'Bench Console' }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const session = registered.headers.get('set-cookie')?.split(';')[0] ?? '';
  await api.admin('set-plan', '--email', email, '--plan', 'pro');
  await api.admin('grant-credits', '--email', email, '--amount', '100');
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { cookie: session, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const created = await call('POST', '/api/debates', {
    question: 'Should we rebuild the billing service as a modular monolith this year?',
    mode: 'thorough',
    agentCount: SHAPE.agents,
    maxRounds: SHAPE.rounds,
  });
  const id = String(created.debateId);
  const deadline = Date.now() + 120_000;
  while ((await call('GET', `/api/debates/${id}`)).status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`debate ${id} did not complete in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const shared = await call('POST', `/api/share/${id}`);
  return { id, session, sharePath: new URL(String(shared.shareUrl)).pathname };
}

/**
 * One cold first render of the finished debate's page: a fresh browser context (empty cache) holding the
 * session cookie opens /debates/:id; the figure is the page's own clock (ms since its navigation started)
 * once the verdict and every turn of the transcript are on screen.
 */
async function firstRender(browser: Browser, baseUrl: string, debate: { id: string; session: string }) {
  const [name, value] = debate.session.split('=') as [string, string];
  const context = await browser.newContext();
  try {
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/debates/${debate.id}`, { waitUntil: 'commit' });
    const turns = SHAPE.agents * SHAPE.rounds;
    await page.getByRole('heading', { name: 'Verdict' }).waitFor({ timeout: 30_000 });
    await page
      .getByRole('list', { name: 'Transcript' })
      .getByRole('listitem')
      .nth(turns - 1)
      .waitFor({ timeout: 30_000 });
    return (await page.evaluate('performance.now()')) as number;
  } finally {
    await context.close();
  }
}

/** The gzipped bytes of script a signed-out visitor of the share link downloads (Content-Length as sent). */
async function shareScriptBytes(browser: Browser, baseUrl: string, sharePath: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const sizes: Promise<number>[] = [];
    page.on('response', (response: Response) => {
      if (response.request().resourceType() !== 'script') return;
      sizes.push(response.headerValue('content-length').then(Number));
    });
    await page.goto(`${baseUrl}${sharePath}`);
    await page.getByRole('heading', { name: 'Verdict' }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(sizes);
    return { bytes: all.reduce((sum, n) => sum + n, 0), scripts: all.length };
  } finally {
    await context.close();
  }
}

async function run({ log }: SuiteContext): Promise<BenchResult[]> {
  // Answers at once: the figure is the console's render, not the simulated model's pace.
  const api = await startEmbeddedApi({ SIMULATED_FIRST_TOKEN_MS: '0' });
  const browser = await launch();
  try {
    const debate = await finishedDebate(api);
    log(`debate ${debate.id} (${SHAPE.agents} agents × ${SHAPE.rounds} rounds) completed`);
    await firstRender(browser, api.baseUrl, debate); // discarded: the server's first page load warms it
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      samples.push(await firstRender(browser, api.baseUrl, debate));
      log(`first render ${i + 1}/${RUNS}: ${Math.round(samples.at(-1) ?? 0)} ms`);
    }
    const share = await shareScriptBytes(browser, api.baseUrl, debate.sharePath);
    log(`share page: ${share.scripts} scripts, ${(share.bytes / 1024).toFixed(1)} KiB gzipped`);
    samples.sort((a, b) => a - b);
    const detail =
      `chromium ${browser.version()}, fresh context (cold cache) per run, ${RUNS} runs after one discarded; ` +
      `/debates/:id of a finished ${SHAPE.agents}-agent × ${SHAPE.rounds}-round debate until the verdict ` +
      `and all ${SHAPE.agents * SHAPE.rounds} turns show; ms on the page's clock from navigation start; ` +
      `runs ${samples.map(Math.round).join(', ')} ms`;
    const row = (metric: string, value: number): BenchResult => ({
      name: `console.debate_first_render.${metric}`,
      value: round(value, 0),
      unit: 'ms',
      better: 'lower',
      detail,
    });
    return [
      row('min_ms', samples[0] ?? 0),
      row('median_ms', median(samples)),
      row('max_ms', samples.at(-1) ?? 0),
      {
        name: 'console.share_page.js_gzip_kib',
        value: round(share.bytes / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail: `a signed-out visitor's first load of /share/:token: ${share.scripts} script responses, gzip Content-Length summed`,
      },
    ];
  } finally {
    await browser.close();
    await api.stop();
  }
}

export const suite: Suite = {
  description: "console in chromium: a finished debate page's first render, the share page's JavaScript",
  optIn: true,
  run,
};
