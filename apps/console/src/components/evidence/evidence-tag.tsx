import type { CitationCheck } from '../../lib/citation-check.ts';
import { useEvidenceView } from './evidence-view.tsx';

const STATUS_WORDS: Record<CitationCheck['status'], string> = {
  verified: 'verified',
  unverified: 'not found in the passage',
  unchecked: 'not checked',
};

/**
 * An `[E3]` as a reader sees it: "E3", a button that opens the passage where the page has passages. A
 * citation the engine could not verify stays visible, marked by its style, a sign and its name.
 */
export function EvidenceTag({ evidenceId, check }: { evidenceId: string; check: CitationCheck }) {
  const { open } = useEvidenceView();
  const className = `evidence-tag ${check.status}`;
  const name = `Passage ${evidenceId}, ${STATUS_WORDS[check.status]}`;
  const face = (
    <>
      {evidenceId}
      {check.status === 'unverified' ? <span aria-hidden="true"> ✗</span> : null}
    </>
  );
  if (!open) {
    return (
      <span className={className} title={name}>
        {face}
        {check.status === 'unchecked' ? null : (
          <span className="visually-hidden"> ({STATUS_WORDS[check.status]})</span>
        )}
      </span>
    );
  }
  return (
    <button
      type="button"
      className={className}
      aria-label={name}
      aria-haspopup="dialog"
      title={check.status === 'unverified' ? 'The quoted words were not found in the passage' : undefined}
      onClick={(event) => open({ evidenceId, check }, event.currentTarget)}
    >
      {face}
    </button>
  );
}
