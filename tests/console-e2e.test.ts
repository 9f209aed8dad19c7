import { MIN_PASSWORD_LENGTH } from '@verdict/contracts';
import { newUserCredentials } from '@verdict/core/testing';
import { citedEvidenceOf } from '@verdict/sdk';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { checkPage, countScriptBytes, launchBrowser, watchPage } from './support/browser.ts';
import {
  chartOf,
  fieldIssueOf,
  readTimeline,
  sessionOf,
  setField,
  transcriptItems,
  UI_TIMEOUT_MS,
  until,
  visible,
} from './support/console-pages.ts';
import { citationsOf, expectNoRawTags, followClaimTag, openCitation } from './support/evidence-checks.ts';
import { type RunningEngine, startEngine } from './support/processes.ts';
import {
  type DistributedStack,
  MODES,
  type Stack,
  startDistributedStack,
  startStack,
} from './support/stack.ts';

/** The share page's JavaScript budget, gzipped as sent: a visitor from a link downloads little. */
const SHARE_PAGE_JS_BUDGET = 150 * 1024;

/**
 * Slow enough to watch and to pause: each simulated turn takes this long before its first token. The
 * lease settings let a second engine node take over a killed node's debate within seconds.
 */
const ENV = {
  SIMULATED_FIRST_TOKEN_MS: '1000',
  JOB_ACK_WAIT_MS: '3000',
  ENGINE_RECONCILE_INTERVAL_MS: '1000',
  ENGINE_STALE_AFTER_MS: '4000',
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The console as its users see it, in a real browser against the running service in each mode: every page
// is screenshotted, checked by axe, and fails the test on any uncaught error or CSP violation.
describe.each(MODES)('the web console in chromium (%s)', (mode) => {
  let stack: Stack;
  let distributed: DistributedStack | undefined;
  let context: BrowserContext;
  const extraEngines: RunningEngine[] = [];
  const user = newUserCredentials(`console-${mode}`);
  /** The debate started from the form, followed live, then charted, scored and shared. */
  const debate = {
    id: '',
    question: `Should our ${mode} team adopt a four-day work week this year?`,
    /** Its share link, once the sharing test made one. */
    shareUrl: '',
  };

  const open = async (path: string, name: string) => {
    const watched = await watchPage(context);
    await watched.page.goto(`${stack.baseUrl}${path}`);
    return { ...watched, check: () => checkPage(watched, mode, name) };
  };

  /**
   * Starts a debate from the form on a fresh dashboard page and waits for its first turn on the debate's
   * page: the page (to follow it) and the debate's id.
   */
  const startFromForm = async (name: string, question: string, agents: number) => {
    const form = await open('/', name);
    await form.page.getByLabel('Question').fill(question);
    await setField(form.page.getByLabel('Agents'), String(agents));
    await setField(form.page.getByLabel('Rounds'), '3');
    await form.page.getByRole('button', { name: 'Start debate' }).click();
    await form.page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
    const id = new URL(form.page.url()).pathname.split('/')[2] ?? '';
    await until(
      () => transcriptItems(form.page).count(),
      (n) => n >= 1,
      'the first turn',
    );
    return { form, id };
  };

  beforeAll(async () => {
    if (mode === 'distributed') {
      distributed = await startDistributedStack('console', ENV);
      stack = distributed;
    } else {
      stack = await startStack(mode, 'console', ENV);
    }
    context = await browser.newContext();
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all(extraEngines.map((engine) => engine.stop('SIGKILL')));
    await stack?.stop();
  });

  if (mode === 'embedded') {
    // The checks below are only as good as the watcher: it must see what the console's CSP blocks and what
    // a page throws. Once is enough: both modes serve the same console under the same policy.
    it('catches a CSP violation and an uncaught error on a console page', async () => {
      const watched = await watchPage(context);
      await watched.page.goto(`${stack.baseUrl}/sign-in`);
      await visible(watched.page.getByRole('heading', { name: 'Sign in to Verdict' }));
      expect(watched.problems).toEqual([]);
      await watched.page.evaluate(`{
        const script = document.createElement('script');
        script.textContent = 'window.inlineRan = true';
        document.head.append(script);
        setTimeout(() => { throw new Error('thrown by the page'); });
      }`);
      await until(
        async () => watched.problems.length,
        (n) => n >= 2,
        'the violation and the error recorded',
      );
      expect(await watched.page.evaluate('window.inlineRan === true')).toBe(false);
      expect(watched.problems.some((p) => /^CSP violation: script-src(-elem)? blocked inline/.test(p))).toBe(
        true,
      );
      expect(watched.problems).toContain('uncaught error: thrown by the page');
      await watched.page.close();
    });
  }

  it('signs up in the browser and makes an API key that is shown once', async () => {
    const signIn = await open('/', 'sign-in');
    // Signed out, the dashboard sends the visitor to sign in, and back afterwards.
    await signIn.page.waitForURL(/\/sign-in\?next=%2F$/);
    await visible(signIn.page.getByRole('heading', { name: 'Sign in to Verdict' }));
    await signIn.check();
    await signIn.page.getByRole('button', { name: 'Create an account' }).click();
    await signIn.page.getByLabel('Name').fill(user.name);
    await signIn.page.getByLabel('Email').fill(user.email);
    const password = signIn.page.getByLabel('Password');
    // The form's rules are the contract's, and what is wrong shows at the field it is about.
    expect(await password.getAttribute('minlength')).toBe(String(MIN_PASSWORD_LENGTH));
    const refusedAt = async (value: string, issue: RegExp) => {
      await password.fill(value);
      await signIn.page.getByRole('button', { name: 'Create account' }).click();
      await until(
        () => fieldIssueOf(password),
        (text) => issue.test(text),
        `the password's issue matching ${issue}`,
      );
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      expect(await signIn.page.getByRole('alert').textContent()).toBe('Please correct the marked fields.');
    };
    // Too short: the contract's check, before anything is sent.
    await refusedAt('short', new RegExp(`>=${MIN_PASSWORD_LENGTH} characters`));
    // Long enough but common: the server's refusal, at the same field.
    await refusedAt('qwertyuiop', /most commonly used/);
    // The browser notes the refused request (400), which the page handled by showing it: the only problem.
    const refusal = /^console error: .* status of 400 .*\/api\/auth\/register\)$/;
    expect(signIn.problems.filter((p) => refusal.test(p))).toHaveLength(1);
    signIn.problems.splice(0, signIn.problems.length, ...signIn.problems.filter((p) => !refusal.test(p)));
    await checkPage(signIn, mode, 'sign-up-refused');
    await password.fill(user.password);
    await checkPage(signIn, mode, 'sign-up');
    await signIn.page.getByRole('button', { name: 'Create account' }).click();
    await visible(signIn.page.getByRole('heading', { name: 'Debates', level: 1 }));
    expect(new URL(signIn.page.url()).pathname).toBe('/');
    // The operator puts the new account on a plan that runs debates of any shape.
    await Promise.all([stack.setPlan(user.email, 'pro'), stack.grantCredits(user.email, 50)]);

    const keys = await open('/keys', 'keys');
    await keys.page.getByLabel('Key name').fill('console test');
    await keys.page.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.page.getByLabel('New API key');
    await visible(shown);
    const key = ((await shown.textContent()) ?? '').trim();
    expect(key).toMatch(/^vrd_[\w-]{32}$/);
    await keys.check();
    // The key works: it reads the account over the API.
    const me = await apiClient(stack.baseUrl, { key }).GET('/api/keys');
    expect(expectBody(me, 200).keys.map((k) => k.name)).toContain('console test');
    // Shown once: the page opened again lists the key by name, never its secret.
    await keys.page.reload();
    await visible(keys.page.getByText('console test').first());
    expect(await keys.page.getByLabel('New API key').count()).toBe(0);
    expect(await keys.page.content()).not.toContain(key);
    await keys.page.close();
    await signIn.page.close();
  });

  it('sets the panel of the mode chosen, prices exactly what the form sends, and refuses a panel at its field', async () => {
    const form = await open('/', 'debates-pricing');
    const { page } = form;
    const field = (label: string) => page.getByLabel(label, { exact: true });
    const estimate = () => page.getByRole('status').filter({ hasText: /^(Runs|Enter|Working|Cannot|Check)/ });
    const priced = (text: string) =>
      until(
        () => estimate().textContent(),
        (shown) => shown === text,
        `the estimate "${text}"`,
      );
    await visible(field('Question'));
    await priced('Enter a question of at least 10 characters to see what the debate costs.');
    await field('Question').fill('Should our team try pricing experiments in the browser?');
    const panels = [
      ['thorough', '8', '3', 'Runs 8 agents × 3 rounds. Costs 8 credits.'],
      ['balanced', '5', '2', 'Runs 5 agents × 2 rounds. Costs 3 credits.'],
      ['fast', '3', '1', 'Runs 3 agents × 1 round. Costs 1 credit.'],
    ] as const;
    for (const [chosen, agents, rounds, line] of panels) {
      await setField(field('Mode'), chosen);
      expect([await field('Agents').inputValue(), await field('Rounds').inputValue()]).toEqual([
        agents,
        rounds,
      ]);
      await priced(line);
    }
    // A larger panel than fast's costs what its size costs: 7 × 4 agent-turns, ⌊28 ÷ 3⌋ = 9 credits.
    await setField(field('Agents'), '7');
    await setField(field('Rounds'), '4');
    await priced('Runs 7 agents × 4 rounds. Costs 9 credits.');
    // Past the contract's bounds: refused at the field, nothing created.
    await setField(field('Agents'), '9');
    await priced('Check the agents and rounds to see what the debate costs.');
    await page.getByRole('button', { name: 'Start debate' }).click();
    await until(
      () => fieldIssueOf(field('Agents')),
      (text) => /<=7/.test(text),
      "the agents' issue",
    );
    expect(new URL(page.url()).pathname).toBe('/');
    await checkPage(form, mode, 'debates-refused-panel');
    await page.close();
  });

  it('starts a debate from the form and follows it live, paused and resumed', async () => {
    const form = await open('/', 'debates');
    const session = await sessionOf(context, stack.baseUrl);
    const balance = async () => expectBody(await session.GET('/api/billing/balance'), 200).balance;
    const before = await balance();
    await form.page.getByLabel('Question').fill(debate.question);
    await setField(form.page.getByLabel('Mode'), 'balanced');
    await setField(form.page.getByLabel('Agents'), '2');
    await setField(form.page.getByLabel('Rounds'), '3');
    await form.page.getByLabel('Context').fill('Twelve people, two of them on call each week.');
    // A smaller panel than balanced's: still balanced's price (the spec prices by mode).
    await until(
      () => form.page.getByRole('status').filter({ hasText: /^Runs/ }).textContent(),
      (text) => text === 'Runs 2 agents × 3 rounds. Costs 3 credits.',
      'the estimate of the panel chosen',
    );
    await form.check();
    await form.page.getByRole('button', { name: 'Start debate' }).click();
    await form.page.waitForURL(/\/debates\/[0-9a-f-]{36}$/);
    debate.id = new URL(form.page.url()).pathname.split('/')[2] ?? '';
    const { page } = form;
    const status = async () =>
      expectBody(await session.GET('/api/debates/{id}', { params: { path: { id: debate.id } } }), 200).status;

    // Turns arrive while the page is open: the transcript grows without a reload.
    await visible(page.getByRole('heading', { name: debate.question }));
    await until(
      () => transcriptItems(page).count(),
      (n) => n >= 1,
      'the first turn on the page',
    );
    // Paused at once, before the slower checks: the debate must not end first.
    await page.getByRole('button', { name: 'Pause' }).click();
    await visible(page.getByRole('button', { name: 'Resume' }));
    await until(status, (s) => s === 'paused', 'the debate paused');
    // Paused, the controls say so (not still "pausing").
    await visible(page.getByText('Paused: nothing more is said until you resume.'));
    expect(await page.getByText(/^Pausing/).count()).toBe(0);
    // Paused, nothing more arrives: the turns in flight were in before the status changed.
    const whilePaused = await transcriptItems(page).count();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await transcriptItems(page).count()).toBe(whilePaused);
    expect(await status()).toBe('paused');
    await checkPage(form, mode, 'live-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await until(
      () => transcriptItems(page).count(),
      (n) => n > whilePaused,
      'a turn after resuming',
    );

    await visible(page.getByRole('heading', { name: 'Verdict' }));
    expect(await status()).toBe('completed');
    expect(await transcriptItems(page).count()).toBeGreaterThanOrEqual(2 * 3);
    // "Round 3 of 3" on one line beside its bar, not broken word by word.
    const roundLine = page.getByText(/^Round \d of \d$/);
    expect(await roundLine.evaluate((text) => text.getClientRects().length)).toBe(1);
    const rounds = page.getByRole('progressbar', { name: 'Rounds' });
    expect(
      await rounds.evaluate((bar) => [(bar as unknown as { value: number }).value, bar.getAttribute('max')]),
    ).toEqual([3, '3']);
    // The debate that ran is the one the form priced: its panel, its charge.
    const ran = expectBody(
      await session.GET('/api/debates/{id}', { params: { path: { id: debate.id } } }),
      200,
    );
    expect(ran).toMatchObject({ mode: 'balanced', agentCount: 2, roundCount: 3, cost: { credits: 3 } });
    expect(before - (await balance())).toBe(3);
    // A finished debate offers no controls for a running one.
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await checkPage(form, mode, 'live-completed');
    await page.close();
  });

  it('scrubs the state chart back to round 1, and the diagram follows', async () => {
    const chart = await open(`/debates/${debate.id}/chart`, 'chart');
    const { diagram, timeline, activeState } = chartOf(chart.page);
    await visible(diagram);
    await visible(timeline);
    await until(activeState, (state) => state === 'completed', 'the finished debate highlighted');
    // The whole diagram is in view: nothing (an edge label at its right) is cut off behind a scroll.
    const scroll = chart.page.getByRole('region', { name: 'State chart diagram' });
    expect(await scroll.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
    // A finished debate is said to be finished, in words a newcomer knows.
    await visible(chart.page.getByText('finished', { exact: true }));
    await chart.check();
    const steps = await readTimeline(chart.page);
    // The paused and resumed debate went through each of these, in this order.
    const states = steps.map((step) => step.state);
    expect(states.at(-1)).toBe('completed');
    expect(states).toContain('running.paused');
    expect(states.indexOf('running.paused')).toBeGreaterThan(states.indexOf('running.speaking'));
    // Back to the first argument of round 1: the highlight moves off the final state to a running one.
    const round1 = steps.findIndex((step) => /: argument · .*, round 1$/.test(step.text ?? ''));
    expect(round1, JSON.stringify(steps)).toBeGreaterThan(0);
    await chart.page.keyboard.press('Home');
    for (let i = 0; i < round1; i += 1) await chart.page.keyboard.press('ArrowRight');
    await until(
      () => chart.page.getByRole('slider', { name: 'Timeline' }).inputValue(),
      (value) => value === String(round1),
      'the timeline at round 1',
    );
    expect(await activeState()).toMatch(/^running\./);
    expect(await activeState()).toBe(steps[round1]?.state);
    await checkPage(chart, mode, 'chart-round-1');
    await chart.page.close();
  });

  it('records an outcome, and the decision score moves', async () => {
    const session = await sessionOf(context, stack.baseUrl);
    const scoreBefore = expectBody(await session.GET('/api/scores/me'), 200);
    expect(scoreBefore.totalResolved).toBe(0);
    const scores = await open('/scores', 'scores-before');
    const figures = scores.page.getByLabel('Your decision score');
    await visible(figures);
    // Nothing resolved yet: no accuracy to show.
    expect(await figures.getByRole('definition').first().textContent()).toBe('—');
    await scores.check();

    const outcomes = await open('/outcomes', 'outcomes');
    const entry = outcomes.page
      .getByRole('listitem')
      .filter({ hasText: debate.question })
      .filter({ has: outcomes.page.getByRole('button', { name: 'Record outcome' }) });
    await visible(entry);
    await outcomes.check();
    await entry.getByLabel('Outcome').selectOption('correct');
    await entry.getByRole('button', { name: 'Record outcome' }).click();
    await until(
      () => entry.count(),
      (n) => n === 0,
      'the recorded debate leaving the pending list',
    );
    await checkPage(outcomes, mode, 'outcomes-recorded');

    // The score is recalculated asynchronously (within seconds): the page shows it once it has moved.
    const scoreAfter = await until(
      async () => expectBody(await session.GET('/api/scores/me'), 200),
      (score) => score.totalResolved === 1,
      'the score counting the outcome',
    );
    await scores.page.reload();
    await visible(figures);
    expect(await figures.getByRole('definition').first().textContent()).toBe(
      `${scoreAfter.accuracyPercentage.toFixed(1)}%`,
    );
    await checkPage(scores, mode, 'scores-after');
    await scores.page.close();
    await outcomes.page.close();
  });

  it('shows every other page without an accessibility failure, error or CSP violation', async () => {
    const pages = [
      { path: '/usage', name: 'usage', heading: 'Usage' },
      { path: '/workspaces', name: 'workspaces', heading: 'Workspaces' },
      { path: '/notifications', name: 'notifications', heading: 'Notifications' },
      { path: `/debates/${debate.id}/graph`, name: 'argument-graph', heading: 'Argument graph' },
    ];
    for (const { path, name, heading } of pages) {
      const opened = await open(path, name);
      await visible(opened.page.getByRole('heading', { name: heading, level: 1 }));
      // Checked once the page's own reads are in: nothing says it is still loading.
      await until(
        () => opened.page.getByText(/^Loading/).count(),
        (n) => n === 0,
        `${name} loaded`,
      );
      if (name === 'argument-graph') {
        // The simulated debaters cite what they build on: the server's graph adds those links (the user is
        // on Pro), drawn dashed and listed in the table.
        await until(
          () => opened.page.locator('path[data-kind="supports"]').count(),
          (n) => n > 0,
          'the cited links drawn',
        );
        expect(await opened.page.getByRole('cell', { name: /\(round \d\)/ }).count()).toBeGreaterThan(0);
      }
      await opened.check();
      await opened.page.close();
    }
  });

  it('shows the audit log: who changed what, the chain verified, a filter and the export', async () => {
    const audit = await open('/audit', 'audit');
    await visible(audit.page.getByRole('heading', { name: 'Audit log', level: 1 }));
    await visible(audit.page.getByRole('status').filter({ hasText: /^Verified: all \d+ entries/ }));
    const rows = audit.page.getByRole('table', { name: 'Audit entries, newest first' }).getByRole('row');
    // The key made in the browser (its name, never its secret) and the operator's plan change, each once.
    await visible(
      rows.filter({ hasText: 'api_key.create' }).filter({ hasText: 'name: set to console test' }),
    );
    await visible(rows.filter({ hasText: 'account.plan_change' }).filter({ hasText: 'Operator (set-plan)' }));
    expect(await rows.filter({ hasText: 'api_key.create' }).count()).toBe(1);
    await until(
      () => audit.page.getByText(/^Loading|^Checking/).count(),
      (n) => n === 0,
      'audit loaded',
    );
    await audit.check();

    await audit.page.getByLabel('Action').fill('api_key.');
    await audit.page.getByRole('button', { name: 'Show' }).click();
    await audit.page.waitForURL(/[?&]action=api_key\.(&|$)/);
    await until(
      () => rows.filter({ hasText: 'account.' }).count(),
      (n) => n === 0,
      'only the keys’ entries',
    );
    await visible(rows.filter({ hasText: 'api_key.create' }));

    // The export downloads what the filter keeps, with the page's own session.
    const href = (await audit.page.getByRole('link', { name: 'Export NDJSON' }).getAttribute('href')) ?? '';
    const exported = await audit.page.request.get(`${stack.baseUrl}${href}`);
    expect(exported.status()).toBe(200);
    expect(exported.headers()['content-type']).toMatch(/^application\/x-ndjson/);
    const actions = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { action: string }).action);
    expect(actions).toContain('api_key.create');
    expect(actions.every((action) => action.startsWith('api_key.'))).toBe(true);
    await audit.page.close();
  });

  it('shares the debate, and the link opens signed out on little JavaScript', async () => {
    const live = await open(`/debates/${debate.id}`, 'live-finished');
    await live.page.getByRole('button', { name: 'Create a share link' }).click();
    const link = live.page.getByLabel('Share link');
    await visible(link);
    const shareUrl = (await link.getAttribute('href')) ?? '';
    expect(shareUrl).toMatch(/\/share\/[\w-]+$/);
    // No PUBLIC_BASE_URL or APP_URL here: the link is on the address the console was opened on.
    expect(new URL(shareUrl).origin).toBe(new URL(stack.baseUrl).origin);
    debate.shareUrl = shareUrl;
    await live.check();
    await live.page.close();
    // Comments allowed on the link of this private debate: for signed-in holders of the link only.
    const session = await sessionOf(context, stack.baseUrl);
    expectBody(
      await session.PATCH('/api/share/{debateId}', {
        params: { path: { debateId: debate.id } },
        body: { settings: { allowComments: true } },
      }),
      200,
    );

    // A fresh context: no cookie, no cache, as a visitor who was sent the link.
    const visitor = await browser.newContext();
    try {
      const watched = await watchPage(visitor);
      const scripts = countScriptBytes(watched.page);
      const authReads: string[] = [];
      watched.page.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (path.startsWith('/api/auth/')) authReads.push(`${response.status()} ${path}`);
      });
      await watched.page.goto(shareUrl);
      await visible(watched.page.getByRole('heading', { name: debate.question }));
      await visible(watched.page.getByRole('heading', { name: 'Verdict' }));
      // Signed out, the page asks who is signed in without a failed request, and offers to sign in for
      // the comments instead of asking for them (a refusal the browser would log).
      await visible(watched.page.getByText('to read and write comments.'));
      await watched.page.waitForLoadState('networkidle');
      expect(authReads).toEqual(['200 /api/auth/state']);
      const sent = await scripts.stop();
      expect(sent.scripts.length).toBeGreaterThan(0);
      for (const script of sent.scripts) {
        expect(script.encoding, script.url).toBe('gzip');
        expect(Number.isInteger(script.bytes) && script.bytes > 0, script.url).toBe(true);
      }
      expect(sent.total, JSON.stringify(sent.scripts, null, 2)).toBeLessThan(SHARE_PAGE_JS_BUDGET);
      expect((await visitor.cookies()).some((cookie) => cookie.name === 'verdict_session')).toBe(false);
      await checkPage(watched, mode, 'share');
    } finally {
      await visitor.close();
    }
  });

  it('shows the passages and claims the turns cite as links, on the debate page and on its share page', async () => {
    // The user is on Pro, which has the evidence engine: the debate's context was cut into passages, and
    // the simulated debaters quoted them, some quotes right (verified) and some deliberately wrong.
    const session = await sessionOf(context, stack.baseUrl);
    const evidence = expectBody(
      await session.GET('/api/debates/{id}/evidence', { params: { path: { id: debate.id } } }),
      200,
    );
    expect(evidence.evidence).toBe('on');
    const citations = citationsOf(evidence.passages);
    const right = citations.find((c) => c.verified && c.quote !== null);
    const wrong = citations.find((c) => !c.verified && c.quote !== null);
    expect(right, JSON.stringify(citations)).toBeDefined();
    expect(wrong, JSON.stringify(citations)).toBeDefined();
    if (!right || !wrong) return;

    const live = await open(`/debates/${debate.id}`, 'live-evidence');
    await visible(live.page.getByRole('heading', { name: 'Verdict' }));
    await visible(live.page.getByRole('button', { name: /^Passage E\d+, verified$/ }).first());
    await expectNoRawTags(live.page);
    // The key evidence the engine built from verified citations: quoted, with the claims that cited it.
    const verdict = expectBody(
      await session.GET('/api/debates/{id}/verdict', { params: { path: { id: debate.id } } }),
      200,
    );
    const cited = citedEvidenceOf(verdict.verdict);
    expect(cited.length, JSON.stringify(verdict.verdict?.keyEvidence)).toBeGreaterThan(0);
    const keyEvidence = live.page.getByRole('list', { name: 'Key evidence' });
    expect(await keyEvidence.locator('q').first().textContent()).toBe(cited[0]?.quote);
    expect(await keyEvidence.getByRole('link', { name: /, round \d+$/ }).count()).toBeGreaterThan(0);

    const opened = await openCitation(live.page, right);
    await checkPage(live, mode, 'live-evidence-passage');
    await opened.closeWithEscape();
    const refused = await openCitation(live.page, wrong);
    await checkPage(live, mode, 'live-evidence-unverified');
    await refused.closeWithEscape();
    await followClaimTag(live.page);
    await live.check();
    await live.page.close();

    // The share link shows the same, signed out, from the passages it shares (only those cited).
    expect(debate.shareUrl).not.toBe('');
    const visitor = await browser.newContext();
    try {
      const shared = await watchPage(visitor);
      await shared.page.goto(debate.shareUrl);
      await visible(shared.page.getByRole('heading', { name: 'Verdict' }));
      await expectNoRawTags(shared.page);
      const sharedOpened = await openCitation(shared.page, right);
      await checkPage(shared, mode, 'share-evidence-passage');
      await sharedOpened.closeWithEscape();
      await (await openCitation(shared.page, wrong)).closeWithEscape();
      await followClaimTag(shared.page);
      await checkPage(shared, mode, 'share-evidence');
    } finally {
      await visitor.close();
    }

    // On a plan without the evidence engine the reader's read is refused (402): the page says why, with
    // where to upgrade, and each tag still shows the engine's check; its dialog gives the same hint.
    await stack.setPlan(user.email, 'free');
    try {
      const gated = await open(`/debates/${debate.id}`, 'live-evidence-gated');
      const hint = gated.page.getByText(
        /^The evidence engine needs the .*, so the cited passages are not shown/,
      );
      await visible(hint);
      expect(await hint.getByRole('link', { name: 'see the plans' }).getAttribute('href')).toMatch(
        /\/pricing$/,
      );
      await expectNoRawTags(gated.page);
      const turn = gated.page.locator(`[id="claim-${wrong.claimId}"]`);
      await turn
        .getByRole('button', { name: `Passage ${wrong.evidenceId}, not found in the passage` })
        .first()
        .click();
      const dialog = gated.page.getByRole('dialog', { name: `Passage ${wrong.evidenceId}` });
      await visible(dialog);
      expect(await dialog.textContent()).toContain('Not found in the passage');
      expect(await dialog.getByRole('link', { name: 'see the plans' }).count()).toBe(1);
      expect(await dialog.locator('blockquote').count()).toBe(0);
      // The browser notes the refused read, which the page handled by showing the hint: the only problem.
      const refusal = /^console error: .* status of 402 .*\/api\/debates\/[0-9a-f-]+\/evidence\)$/;
      expect(gated.problems.filter((p) => refusal.test(p))).toHaveLength(1);
      gated.problems.splice(0, gated.problems.length, ...gated.problems.filter((p) => !refusal.test(p)));
      await gated.check();
      await gated.page.close();
    } finally {
      await stack.setPlan(user.email, 'pro');
    }
  });

  it("shows a finished debate's chart history unchanged after the API process restarts", async () => {
    const before = await open(`/debates/${debate.id}/chart`, 'chart-before-restart');
    const history = await readTimeline(before.page);
    expect(history.length).toBeGreaterThan(3);
    await before.page.close();

    await stack.restartApi();
    // The session is stored with the account: the same browser is still signed in after the restart.
    const after = await open(`/debates/${debate.id}/chart`, 'chart-after-restart');
    await visible(chartOf(after.page).diagram);
    expect(await readTimeline(after.page)).toEqual(history);
    await after.check();
    await after.page.close();
  });

  it('keeps following a debate across an API restart on the same address: every turn once, to the verdict', async () => {
    const question = `Should the ${mode} platform team freeze deploys during the migration week?`;
    const { form, id } = await startFromForm('debates-reconnect', question, 2);
    // The stream drops with the process; the page reconnects to the same address with Last-Event-ID (in
    // embedded mode the engine restarts with it and restores the debate).
    // Down for longer than a few of the server's reconnect hints, as a restart on a loaded machine can be: a
    // client that waited the hint each time gave up before the process was back (clean-clone CI runs).
    await stack.restartApi({ samePort: true, downMs: 12_000 });
    // The page backs off until the process is back, reconnects, and (embedded) the restored debate finishes.
    await visible(form.page.getByRole('heading', { name: 'Verdict' }), 3 * UI_TIMEOUT_MS);
    const shown = await transcriptItems(form.page).evaluateAll((items) => items.map((item) => item.id));
    expect(new Set(shown).size, JSON.stringify(shown)).toBe(shown.length);
    const session = await sessionOf(context, stack.baseUrl);
    const chart = expectBody(
      await session.GET('/api/debates/{id}/statechart', { params: { path: { id } } }),
      200,
    );
    const stored = (chart.events ?? [])
      .filter((event) => event.type === 'argument' || event.type === 'rebuttal')
      .map((event) => `claim-${String(event.data.claimId)}`);
    expect(stored.length).toBeGreaterThanOrEqual(2 * 3);
    expect(shown).toEqual(stored);
    // The whole verdict the page shows, read as the dashboard reads it (a session, no key).
    const full = expectBody(
      await session.GET('/api/debates/{id}/verdict', { params: { path: { id } } }),
      200,
    );
    expect(full.debate).toMatchObject({ id, status: 'completed' });
    expect(Number.isInteger(full.verdict?.confidence)).toBe(true);
    // While the process was down the browser noted the broken stream and each refused reconnect: expected
    // here, and the only problems allowed (an uncaught error or a CSP violation still fails the page). A
    // reconnect that reaches the old process while it drains, or the new one before its bus subscription
    // is up, is refused with a 503 and Retry-After: also expected, on the two stream routes only.
    const networkNotes = form.problems.filter((problem) => /^console error: .*net::ERR_/.test(problem));
    expect(networkNotes.length, JSON.stringify(form.problems)).toBeGreaterThan(0);
    const refusedReconnect =
      /^console error: .* status of 503 .*\/api\/(notifications|debates\/[0-9a-f-]+)\/stream\)$/;
    const expected = (p: string) => networkNotes.includes(p) || refusedReconnect.test(p);
    form.problems.splice(0, form.problems.length, ...form.problems.filter((p) => !expected(p)));
    await checkPage(form, mode, 'live-after-reconnect');
    await form.page.close();
  }, 150_000);

  if (mode === 'distributed') {
    it('marks the hand-over on the chart when the engine node running a debate is killed', async () => {
      const d = distributed as DistributedStack;
      extraEngines.push(await startEngine(d.env));
      const question = 'Should the support team move to a follow-the-sun rota next quarter?';
      const { form, id } = await startFromForm('debates-handover', question, 3);

      // The node holding the debate once it has stored a turn and a snapshot: killing it interrupts work.
      const holder = await until(
        () =>
          d.db.core.db.execute<{ lease_owner: string }>(
            `select lease_owner from debates d
              where id = ? and status = 'running'
                and exists (select 1 from debate_snapshots s where s.debate_id = d.id)`,
            [id],
          ),
        (rows) => rows.length === 1,
        'the debate held mid-run with a snapshot',
      );
      const nodes = [d.engine, ...extraEngines];
      const victim = nodes.find((node) => holder[0]?.lease_owner.includes(`:${node.child.pid}:`));
      expect(victim, `no engine node holds ${holder[0]?.lease_owner}`).toBeDefined();
      await victim?.stop('SIGKILL');

      // The other node restores the debate; the open page keeps following it to the verdict.
      await visible(form.page.getByRole('heading', { name: 'Verdict' }));
      await checkPage(form, mode, 'live-handed-over');
      const chart = await open(`/debates/${id}/chart`, 'chart-handover');
      const steps = await readTimeline(chart.page);
      expect(steps.at(-1)?.state).toBe('completed');
      // The timeline marks where the other node restored the debate after the killed one stopped.
      const killed = `\\S*:${victim?.child.pid}:\\S*`;
      await visible(chart.page.getByText(new RegExp(`restored on node \\S+ after node ${killed} stopped`)));
      await chart.check();
      await chart.page.close();
      await form.page.close();
    });
  }
});
