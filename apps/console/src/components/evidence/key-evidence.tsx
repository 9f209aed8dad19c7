import { isCitedEvidence } from '@verdict/sdk';
import { useId } from 'react';
import { claimLabel } from '../../lib/claim-label.ts';
import type { CitedEvidence, KeyEvidence } from '../../lib/contracts.ts';
import { EvidenceTag } from './evidence-tag.tsx';
import { useEvidenceView } from './evidence-view.tsx';
import { SourceName } from './source-name.tsx';
import { TurnText } from './turn-text.tsx';

/**
 * A verdict's key evidence: with the evidence engine on, the passages its turns cited and the engine
 * verified (the quote, its source, the passage, and the claims that cited it); off, as the judge wrote it.
 */
export function KeyEvidenceList({ entries }: { entries: readonly KeyEvidence[] }) {
  const headingId = useId();
  if (entries.length === 0) return null;
  return (
    <>
      <h3 id={headingId}>Key evidence</h3>
      <ul className="key-evidence" aria-labelledby={headingId}>
        {entries.map((entry) =>
          isCitedEvidence(entry) ? (
            <CitedEntry key={`${entry.evidenceId}:${entry.quote}`} entry={entry} />
          ) : (
            <li key={`${entry.source}:${entry.claim}`}>
              <TurnText text={entry.claim} />{' '}
              <span className="muted">
                ({entry.supports}, {entry.weight} weight; <TurnText text={entry.source} />)
              </span>
            </li>
          ),
        )}
      </ul>
    </>
  );
}

function CitedEntry({ entry }: { entry: CitedEvidence }) {
  const { claims, claimHref } = useEvidenceView();
  const check = { status: entry.verified ? 'verified' : 'unverified', quote: entry.quote } as const;
  return (
    <li>
      <q>{entry.quote}</q> <EvidenceTag evidenceId={entry.evidenceId} check={check} />
      <span className="muted">
        {' '}
        — from <SourceName source={entry.source} />
        {entry.supports.length > 0 ? '; cited by ' : ''}
        {entry.supports.map((claimId, index) => {
          const label = claimLabel(claimId, claims);
          return (
            <span key={claimId}>
              {index > 0 ? ', ' : ''}
              {label.known ? <a href={claimHref(claimId)}>{label.text}</a> : label.text}
            </span>
          );
        })}
      </span>
    </li>
  );
}
