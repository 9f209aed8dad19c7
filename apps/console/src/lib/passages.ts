import { planRequiredOf } from '@verdict/sdk';
import type { EvidencePassage } from './contracts.ts';

/**
 * What a page knows of a debate's passages: read (`ready`), on the way, refused because the reader's plan
 * has no evidence engine (`gated`: the refusal's words and where to upgrade), failed, or not read at all on
 * this page (`none`).
 */
export type Passages =
  | { state: 'ready'; byId: ReadonlyMap<string, EvidencePassage> }
  | { state: 'loading' }
  | { state: 'gated'; message: string; upgradeUrl: string }
  | { state: 'failed'; message: string }
  | { state: 'none' };

/** Passages by id, as a page looks them up. */
export const passagesById = (passages: readonly EvidencePassage[]): Passages => ({
  state: 'ready',
  byId: new Map(passages.map((passage) => [passage.evidenceId, passage])),
});

/**
 * The passages as a debate's evidence read left them: `wanted` false when the page did not ask (nothing
 * cites a passage), a plan refusal (402) as `gated` with its upgrade hint, any other error as `failed`.
 */
export function passagesOf(read: {
  wanted: boolean;
  loading: boolean;
  data: { passages: EvidencePassage[] } | null | undefined;
  error: unknown;
}): Passages {
  const plan = planRequiredOf(read.error);
  if (plan) return { state: 'gated', message: plan.message, upgradeUrl: plan.upgradeUrl };
  if (read.error !== undefined) {
    // The API's own words where it sent some (a VerdictError is an Error with the envelope's message).
    const message = read.error instanceof Error ? read.error.message : 'Something went wrong';
    return { state: 'failed', message };
  }
  if (!read.wanted) return { state: 'none' };
  if (!read.data || read.loading) return { state: 'loading' };
  return passagesById(read.data.passages);
}
