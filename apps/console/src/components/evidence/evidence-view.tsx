import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { CitationCheck } from '../../lib/citation-check.ts';
import type { KnownClaim } from '../../lib/claim-label.ts';
import type { Passages } from '../../lib/passages.ts';
import { PassageDialog } from './passage-dialog.tsx';

/** One `[E3]` a reader opened: the passage it names and what the engine found for it. */
export type OpenedCitation = { evidenceId: string; check: CitationCheck };

type EvidenceContext = {
  passages: Passages;
  claims: readonly KnownClaim[];
  /** Where a claim tag leads: its turn on this page, or on the debate's page. */
  claimHref: (claimId: string) => string;
  /** Opens the passage of a citation; absent where the page shows no passages (tags are then plain marks). */
  open: ((citation: OpenedCitation, trigger: HTMLElement) => void) | null;
};

const Context = createContext<EvidenceContext>({
  passages: { state: 'none' },
  claims: [],
  claimHref: (claimId) => `#claim-${claimId}`,
  open: null,
});

export const useEvidenceView = () => useContext(Context);

type Props = {
  passages: Passages;
  claims: readonly KnownClaim[];
  claimHref?: (claimId: string) => string;
  children: ReactNode;
};

/**
 * The passages and claims that the tags inside it point at, and the one dialog that shows a passage. Focus
 * goes back to the tag that opened it when it closes.
 */
export function EvidenceView({ passages, claims, claimHref, children }: Props) {
  const [opened, setOpened] = useState<OpenedCitation | null>(null);
  const trigger = useRef<HTMLElement | null>(null);
  const open = useCallback((citation: OpenedCitation, from: HTMLElement) => {
    trigger.current = from;
    setOpened(citation);
  }, []);
  const close = useCallback(() => {
    setOpened(null);
    trigger.current?.focus();
  }, []);
  const value = useMemo(
    () => ({
      passages,
      claims,
      claimHref: claimHref ?? ((claimId: string) => `#claim-${claimId}`),
      open: passages.state === 'none' ? null : open,
    }),
    [passages, claims, claimHref, open],
  );
  return (
    <Context.Provider value={value}>
      {children}
      {opened ? <PassageDialog citation={opened} passages={passages} onClose={close} /> : null}
    </Context.Provider>
  );
}
