import { formatDateTime } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';

/** Whether the trail holds: every entry checked, or the first that does not and why. */
export function ChainState({ verification }: { verification: Schemas['AuditVerification'] | undefined }) {
  if (!verification) return <p className="loading">Checking the trail…</p>;
  const since = verification.checkpoint
    ? ` since retention's cut at entry ${verification.checkpoint.seq} (${formatDateTime(verification.checkpoint.at)})`
    : '';
  if (verification.firstBroken) {
    return (
      <div className="error" role="alert">
        <p>
          The trail does not hold: entry {verification.firstBroken.seq} is {verification.firstBroken.problem}.
          {` ${verification.entries} entries before it hold${since}.`}
        </p>
      </div>
    );
  }
  return (
    <p className="notice" role="status">
      Verified: all {verification.entries.toLocaleString()} entries chain and hash as recorded{since}.
    </p>
  );
}
