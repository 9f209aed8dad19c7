import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ApiClient, apiClient } from './api-client.ts';

/** How long a page may take to show what a step waits for: debates run for seconds, not minutes. */
export const UI_TIMEOUT_MS = 20_000;

/** Polls `read` until `accept` holds (or UI_TIMEOUT_MS passes, then fails saying what it saw last). */
export async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string) {
  const deadline = Date.now() + UI_TIMEOUT_MS;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

/** Waits for the locator to be visible (longer where the page waits on a process starting again). */
export const visible = (locator: Locator, timeout = UI_TIMEOUT_MS) =>
  locator.waitFor({ state: 'visible', timeout });

/** A form field whatever its control: a select gets the option, anything else is typed into. */
export async function setField(field: Locator, value: string) {
  const tag = await field.evaluate((element) => element.tagName.toLowerCase());
  if (tag === 'select') await field.selectOption(value);
  else await field.fill(value);
}

type DescribingNode = { classList: { contains(name: string): boolean }; textContent: string | null } | null;

/** The text that describes what is wrong with a form control (its aria-describedby issue), or ''. */
export const fieldIssueOf = (control: Locator): Promise<string> =>
  control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id: string) => (id ? element.ownerDocument.getElementById(id) : null))
      .filter((node: DescribingNode) => node?.classList.contains('field-issue'))
      .map((node: DescribingNode) => node?.textContent ?? '')
      .join(' '),
  );

/** An API client on the browser context's session cookie: what the page's user may do, over HTTP. */
export async function sessionOf(context: BrowserContext, baseUrl: string): Promise<ApiClient> {
  const session = (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'verdict_session');
  if (!session) throw new Error('the browser holds no session cookie');
  return apiClient(baseUrl, { cookie: `${session.name}=${session.value}` });
}

/** The transcript of the live debate page: one list item per turn. */
export const transcriptItems = (page: Page) =>
  page.getByRole('list', { name: 'Transcript' }).getByRole('listitem');

/** The state chart page's diagram and its timeline. */
export const chartOf = (page: Page) => ({
  diagram: page.locator('svg[aria-label="State chart"]'),
  timeline: page.getByRole('slider', { name: 'Timeline' }),
  /** The dotted path of the state the diagram highlights. */
  activeState: () => page.locator('[data-state][data-active="true"]').first().getAttribute('data-state'),
});

/**
 * Every step of the chart's timeline, from the first: the slider's position, what it announces, and the
 * state the diagram highlights there. Driven from the keyboard, as a keyboard user scrubs it.
 */
export async function readTimeline(page: Page) {
  const chart = chartOf(page);
  await visible(chart.timeline);
  const max = Number(await chart.timeline.getAttribute('max'));
  expect(Number.isInteger(max) && max > 0, `timeline max ${max}`).toBe(true);
  await chart.timeline.focus();
  await page.keyboard.press('Home');
  const steps: { value: string; text: string | null; state: string | null }[] = [];
  for (let i = 0; i <= max; i += 1) {
    await until(
      () => chart.timeline.inputValue(),
      (value) => value === String(i),
      `the timeline at step ${i}`,
    );
    steps.push({
      value: await chart.timeline.inputValue(),
      text: await chart.timeline.getAttribute('aria-valuetext'),
      state: await chart.activeState(),
    });
    if (i < max) await page.keyboard.press('ArrowRight');
  }
  return steps;
}
