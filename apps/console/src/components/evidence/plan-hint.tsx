import type { Passages } from '../../lib/passages.ts';

type Gate = Extract<Passages, { state: 'gated' }>;

/**
 * Why the passages are not shown, in the refusal's own words (the plans that include the evidence engine,
 * and the reader's), with where to upgrade. The citations' checks were made when the debate ran and are
 * still shown on each tag.
 */
export function PlanHint({ gate }: { gate: Gate }) {
  return (
    <p className="muted plan-hint">
      {gate.message.replace(/\.$/, '')}, so the cited passages are not shown here (
      <a href={gate.upgradeUrl}>see the plans</a>). Each citation still shows whether the engine verified it
      when the debate ran.
    </p>
  );
}
