/**
 * Runs `shutdown` on the first SIGTERM or SIGINT, then exits 0 (1 if it failed). A second signal while it
 * runs exits at once with 130: an operator's second Ctrl-C means now, and an orchestrator's SIGKILL would
 * come anyway.
 */
export function onShutdownSignal(
  shutdown: (signal: NodeJS.Signals) => Promise<void>,
  onFailure: (err: unknown) => void,
) {
  let shuttingDown = false;
  const handle = (signal: NodeJS.Signals) => {
    if (shuttingDown) process.exit(130);
    shuttingDown = true;
    shutdown(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        onFailure(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
