import type { RunningDebate } from './run-debate.ts';

/**
 * Mirrors the machine's paused state into the debates row, so readers of the API see it. Starts from what
 * the row says (a debate restored while paused reads `paused`), so the first change after a restore is
 * written too; each write retries through a storage blip, in order.
 */
export function trackPausedStatus(
  running: RunningDebate,
  stored: 'running' | 'paused',
  write: (status: 'running' | 'paused') => Promise<unknown>,
) {
  let last = stored;
  let chain: Promise<unknown> = Promise.resolve();
  const sync = (snapshot: ReturnType<RunningDebate['actor']['getSnapshot']>) => {
    if (!snapshot.matches('running')) return;
    const status = snapshot.matches({ running: 'paused' }) ? 'paused' : 'running';
    if (status === last) return;
    last = status;
    chain = chain.then(() => write(status)).catch(() => {});
  };
  sync(running.actor.getSnapshot());
  return running.actor.subscribe(sync);
}
