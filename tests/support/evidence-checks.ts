import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { until, visible } from './console-pages.ts';

/** A citation of a passage as the evidence read lists it, with the passage it names. */
export type CitationSeen = {
  claimId: string;
  evidenceId: string;
  quote: string | null;
  verified: boolean;
  passage: { source: { kind: string; title: string }; text: string };
};

/** The passages of an evidence read (or a share link's cited passages), one entry per citation. */
export function citationsOf(
  passages: {
    evidenceId: string;
    source: { kind: string; title: string };
    text: string;
    citations: { claimId: string; quote: string | null; verified: boolean }[];
  }[],
): CitationSeen[] {
  return passages.flatMap((passage) =>
    passage.citations.map((citation) => ({ ...citation, evidenceId: passage.evidenceId, passage })),
  );
}

/** A tag as a model writes it (`[E3]`, `[rebuts a1-r1-cfo]`, `[Supports: …]`): never shown to a reader. */
const RAW_TAG = /\[\s*(?:E\d|rebuts?\b|supports?\b)/i;

/** Fails when the page's visible text (innerText: what a reader sees) holds a raw tag, naming it in context. */
export async function expectNoRawTags(page: Page) {
  // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees is the rendered text
  const text = await page.locator('body').innerText();
  const found = RAW_TAG.exec(text);
  const context = found ? text.slice(Math.max(0, found.index - 60), found.index + 60) : null;
  expect(context, 'a raw tag in the visible text').toBeNull();
}

/** Case, whitespace and edge punctuation aside, as the engine compares a quote with its passage. */
const folded = (text: string) =>
  text
    .replace(/^[\s.,;:!?'"()[\]-]+|[\s.,;:!?'"()[\]-]+$/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

const activeText = (page: Page) => page.evaluate('document.activeElement?.textContent?.trim() ?? null');

/**
 * Opens the passage of a quoted citation from its tag in its turn (`#claim-…`), keyboard-style checks
 * included: the dialog is named after the passage and takes focus (its close button). A verified quote is
 * marked (`<mark>`) in the passage's text and the source is named; an unverified one is said to be "not
 * found in the passage" and marks nothing. Returns the open dialog and a way to close it with Escape that
 * checks focus goes back to the tag.
 */
export async function openCitation(page: Page, citation: CitationSeen) {
  const state = citation.verified ? 'verified' : 'not found in the passage';
  const turn = page.locator(`[id="claim-${citation.claimId}"]`);
  const tags = turn.getByRole('button', { name: `Passage ${citation.evidenceId}, ${state}`, exact: true });
  const count = await tags.count();
  expect(count, `tags of ${citation.evidenceId} (${state}) in ${citation.claimId}`).toBeGreaterThan(0);
  const dialog = page.getByRole('dialog', { name: `Passage ${citation.evidenceId}` });
  // A passage can be cited more than once in a turn (bare, or with another quote): the tag of this quote
  // is the one whose dialog shows it.
  for (let i = 0; i < count; i += 1) {
    const tag = tags.nth(i);
    await tag.click();
    await visible(dialog);
    expect(await activeText(page)).toBe('Close');
    if (await showsQuote(dialog, citation)) {
      const closeWithEscape = async () => {
        await page.keyboard.press('Escape');
        await until(
          () => dialog.count(),
          (n) => n === 0,
          'the dialog closed by Escape',
        );
        expect(await tag.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      };
      return { dialog, closeWithEscape };
    }
    await page.keyboard.press('Escape');
    await until(
      () => dialog.count(),
      (n) => n === 0,
      'the dialog closed',
    );
  }
  throw new Error(
    `no tag of ${citation.evidenceId} in ${citation.claimId} opens the quote ${citation.quote}`,
  );
}

/** Whether the open dialog shows this citation as the engine checked it, asserting what it shows then. */
async function showsQuote(dialog: Locator, citation: CitationSeen): Promise<boolean> {
  const marks = await dialog.locator('mark').allInnerTexts();
  const text = (await dialog.textContent()) ?? '';
  if (citation.verified) {
    if (!citation.quote || marks.length !== 1 || folded(marks[0] ?? '') !== folded(citation.quote))
      return false;
    expect(text).toContain('Verified');
    const source = citation.passage.source;
    expect(text).toContain(source.kind === 'context' ? "From the debate's context" : source.title);
    return true;
  }
  const quoted = await dialog.locator('q').allInnerTexts();
  if (!citation.quote || !quoted.includes(citation.quote)) return false;
  expect(text).toContain('Not found in the passage');
  expect(marks).toEqual([]);
  return true;
}

/**
 * Follows the first claim tag of the transcript: a link named "rebuts|supports <agent>, round <n>" that
 * leads to that turn on the page (its anchor, highlighted and in view). Returns the claim it led to.
 */
export async function followClaimTag(page: Page) {
  const transcript = page.getByRole('list', { name: 'Transcript' });
  const link = transcript.getByRole('link', { name: /^(rebuts|supports) .+, round \d+$/ }).first();
  await visible(link);
  const name = (await link.textContent()) ?? '';
  const [, agent, round] = /^(?:rebuts|supports) (.+), round (\d+)$/.exec(name) ?? [];
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^#claim-a\d+-r\d+-[a-z0-9-]+$/);
  await link.click();
  await until(
    async () => new URL(page.url()).hash,
    (hash) => hash === href,
    'the address at the claim',
  );
  const target = page.locator(`[id="${href.slice(1)}"]`);
  // The turn it leads to is the one the link names.
  expect(await target.locator('header strong').first().textContent()).toBe(agent);
  expect(await target.locator('header').textContent()).toContain(`Round ${round}`);
  await until(
    () => target.getAttribute('class'),
    (className) => (className ?? '').split(' ').includes('highlight'),
    'the claim highlighted',
  );
  expect(await target.isVisible()).toBe(true);
  return href.slice('#claim-'.length);
}
