/**
 * Whether a `keyEvidence` entry was cited and verified by the evidence engine (`evidenceId`, `source`,
 * `quote`, `supports` as claim ids) rather than written by the judge (`claim`, `source` as text, `supports`
 * as a stance) — verdicts of debates without the evidence engine, and every verdict stored before it.
 * Works on the REST and the tRPC client's types alike.
 *
 * @example
 * for (const entry of verdict.keyEvidence) {
 *   if (isCitedEvidence(entry)) console.log(`[${entry.evidenceId}] "${entry.quote}" — ${entry.source.title}`);
 *   else console.log(`${entry.claim} (${entry.source})`);
 * }
 */
export function isCitedEvidence<Entry extends object>(
  entry: Entry,
): entry is Extract<Entry, { evidenceId: string }> {
  return 'evidenceId' in entry && typeof entry.evidenceId === 'string';
}

/**
 * The cited entries of a verdict's `keyEvidence`, in its order; none for a verdict without the evidence
 * engine or a debate with no verdict yet.
 */
export function citedEvidenceOf<Entry extends object>(
  verdict: { keyEvidence: Entry[] } | null | undefined,
): Extract<Entry, { evidenceId: string }>[] {
  return (verdict?.keyEvidence ?? []).filter(isCitedEvidence);
}
