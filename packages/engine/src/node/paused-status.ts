import type { RunningDebate } from '../runner/run-debate.ts';

/**
 * Mirrors the machine's paused state into the debates row, so readers of the API see it. Starts from what
 * the row says (a debate restored while paused reads `paused`), so the first change after a restore is
 * written too. Writes go one after another, in order; `write` never rejects (it retries through a blip and
 * reports what it could not write).
 */
export function trackPausedStatus(
  running: RunningDebate,
  stored: 'running' | 'paused',
  write: (status: 'running' | 'paused') => Promise<void>,
) {
  let last = stored;
  let chain: Promise<void> = Promise.resolve();
  const sync = (snapshot: ReturnType<RunningDebate['actor']['getSnapshot']>) => {
    if (!snapshot.matches('running')) return;
    const status = snapshot.matches({ running: 'paused' }) ? 'paused' : 'running';
    if (status === last) return;
    last = status;
    chain = chain.then(() => write(status));
  };
  sync(running.actor.getSnapshot());
  return running.actor.subscribe(sync);
}
