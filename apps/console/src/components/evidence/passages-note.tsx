import type { Passages } from '../../lib/passages.ts';
import { PlanHint } from './plan-hint.tsx';

/** Above a transcript whose citations cannot open their passages: why (the plan, or a failed read). */
export function PassagesNote({ passages }: { passages: Passages }) {
  if (passages.state === 'gated') return <PlanHint gate={passages} />;
  if (passages.state === 'failed') {
    return <p className="error">The cited passages could not be read: {passages.message}</p>;
  }
  return null;
}
