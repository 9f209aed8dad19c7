import { useEffect, useId, useRef } from 'react';
import type { CitationCheck } from '../../lib/citation-check.ts';
import type { EvidencePassage } from '../../lib/contracts.ts';
import type { Passages } from '../../lib/passages.ts';
import { markedParts, quoteRanges } from '../../lib/quote-marks.ts';
import type { OpenedCitation } from './evidence-view.tsx';
import { PlanHint } from './plan-hint.tsx';
import { SourceName } from './source-name.tsx';

type Props = { citation: OpenedCitation; passages: Passages; onClose: () => void };

/**
 * A cited passage in a modal dialog: where it comes from, whether the engine found the quoted words in it,
 * and its text with those words marked. The browser's modal dialog keeps focus inside and closes on Escape;
 * focus starts on the close button.
 */
export function PassageDialog({ citation, passages, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    closeButton.current?.focus();
  }, []);
  const { evidenceId, check } = citation;
  const passage = passages.state === 'ready' ? passages.byId.get(evidenceId) : undefined;
  return (
    <dialog ref={dialog} className="passage-dialog" aria-labelledby={headingId} onClose={onClose}>
      <h2 id={headingId}>Passage {evidenceId}</h2>
      {passage ? (
        <p>
          From <SourceName source={passage.source} />.
        </p>
      ) : null}
      <CheckLine check={check} passage={passage} />
      {passage ? (
        <PassageText passage={passage} check={check} />
      ) : (
        <Missing evidenceId={evidenceId} passages={passages} />
      )}
      <p>
        <button type="button" ref={closeButton} onClick={() => dialog.current?.close()}>
          Close
        </button>
      </p>
    </dialog>
  );
}

/** The engine's check of the citation, in words (never by colour alone). */
function CheckLine({ check, passage }: { check: CitationCheck; passage: EvidencePassage | undefined }) {
  if (check.status === 'unverified') {
    return (
      <p className="check unverified">
        <strong>Not found in the passage:</strong>{' '}
        {check.quote ? (
          <>
            the engine could not find the quoted words <q>{check.quote}</q> in it
          </>
        ) : (
          'the engine found no such passage in this debate'
        )}
        , so the citation is kept but not verified.
      </p>
    );
  }
  if (check.status === 'verified') {
    return (
      <p className="check verified">
        <strong>Verified:</strong>{' '}
        {check.quote
          ? `the quoted words are in this passage${passage ? ' (marked below)' : ''}.`
          : 'the turn cites this passage without quoting it.'}
      </p>
    );
  }
  return check.quote ? (
    <p className="check">
      Quoted: <q>{check.quote}</q>
    </p>
  ) : null;
}

/** The passage's text with the quoted words marked where they stand in it. */
function PassageText({ passage, check }: { passage: EvidencePassage; check: CitationCheck }) {
  const ranges = check.quote ? quoteRanges(passage.text, check.quote) : null;
  return (
    <blockquote className="passage-text">
      {markedParts(passage.text, ranges ?? []).map((part, index) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered
          <mark key={index}>{part.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={index}>{part.text}</span>
        ),
      )}
    </blockquote>
  );
}

/** Why the passage is not shown: the plan, the read still on its way or failed, or not among those shown. */
function Missing({ evidenceId, passages }: { evidenceId: string; passages: Passages }) {
  switch (passages.state) {
    case 'gated':
      return <PlanHint gate={passages} />;
    case 'loading':
      return <p className="loading">Loading the passage…</p>;
    case 'failed':
      return <p className="error">The passages could not be read: {passages.message}</p>;
    case 'ready':
    case 'none':
      return <p className="muted">Passage {evidenceId} is not among the passages shown here.</p>;
  }
}
