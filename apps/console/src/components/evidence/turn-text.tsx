import { Fragment, useMemo } from 'react';
import { citationCheckOf } from '../../lib/citation-check.ts';
import type { Citation } from '../../lib/contracts.ts';
import { type TurnSegment, turnSegments } from '../../lib/turn-text.ts';
import { ClaimTag } from './claim-tag.tsx';
import { EvidenceTag } from './evidence-tag.tsx';

/**
 * A turn's text (or any text a debater or the judge wrote) with its tags as links: each `[E3]` opens its
 * passage, marked with the engine's check from the turn's `citations`; each `[rebuts …]`/`[supports …]`
 * leads to the turn it names. No tag is shown as written.
 */
export function TurnText({ text, citations }: { text: string; citations?: readonly Citation[] }) {
  // Parsed once per text: a live page renders every turn again on each stream event.
  const segments = useMemo(() => turnSegments(text), [text]);
  return (
    <>
      {segments.map((segment, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in order, never reordered
        <Fragment key={index}>{shown(segment, citations)}</Fragment>
      ))}
    </>
  );
}

function shown(segment: TurnSegment, citations: readonly Citation[] | undefined) {
  if (segment.kind === 'text') return segment.text;
  if (segment.kind === 'claim') return <ClaimTag relation={segment.relation} claimId={segment.claimId} />;
  const check = citationCheckOf(citations, segment.evidenceId, segment.quote);
  return <EvidenceTag evidenceId={segment.evidenceId} check={check} />;
}
