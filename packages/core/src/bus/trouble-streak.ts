/**
 * Reports a failure that repeats (a job pull failing while NATS is away, a subscription's errors) once per
 * streak: the first failure is reported, the ones after it are not until something succeeds again. A retry
 * loop then neither hides its trouble nor floods the log with it.
 */
export type TroubleStreak = {
  /** A failure: reported if it starts a streak. */
  readonly failed: (error: unknown) => void;
  /** A success: the streak, if any, is over, and the next failure is reported again. */
  readonly recovered: () => void;
};

export type TroubleReport = (message: string, error: unknown) => void;

export function troubleStreak(report: TroubleReport, message: string): TroubleStreak {
  let inStreak = false;
  return {
    failed: (error) => {
      if (inStreak) return;
      inStreak = true;
      report(message, error);
    },
    recovered: () => {
      inStreak = false;
    },
  };
}
