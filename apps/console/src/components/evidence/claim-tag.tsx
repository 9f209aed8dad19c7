import { claimLabel } from '../../lib/claim-label.ts';
import { useEvidenceView } from './evidence-view.tsx';

/**
 * A `[rebuts a1-r1-cfo]` as a reader sees it: "(rebuts CFO, round 1)", linking to that turn. A tag naming
 * no claim of the debate (a model may cite what does not exist) is said in words, without a link.
 */
export function ClaimTag({ relation, claimId }: { relation: 'rebuts' | 'supports'; claimId: string }) {
  const { claims, claimHref } = useEvidenceView();
  const label = claimLabel(claimId, claims);
  const text = `${relation} ${label.text}`;
  return (
    <>
      (
      {label.known ? (
        <a className="claim-tag" href={claimHref(claimId)}>
          {text}
        </a>
      ) : (
        <span className="claim-tag unknown" title="No turn of this debate made this claim">
          {text}
        </span>
      )}
      )
    </>
  );
}
