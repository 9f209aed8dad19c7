import { PlanRequiredError, VerdictError } from '@verdict/sdk';
import { upgradeHint } from './plan-hint.ts';

/** The CLI's exit codes, as the README documents them. */
export const EXIT = {
  ok: 0,
  /** The debate failed, or the server failed the call. */
  failed: 1,
  /** Bad command line or input the API refused as invalid. */
  usage: 2,
  /** No key, or the key was refused (401/403). */
  auth: 3,
  /** A plan limit, quota, credit or rate limit (402/429); a plan refusal says which plan and where. */
  limits: 4,
} as const;

/** A failure the CLI reports in one line and exits with. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof VerdictError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status === 402 || error.status === 429) return EXIT.limits;
    if (error.status === 400) return EXIT.usage;
  }
  return EXIT.failed;
}

export function messageOf(error: unknown): string {
  if (error instanceof VerdictError) {
    const id = error.requestId ? ` (request ${error.requestId})` : '';
    const said = `${error.code}: ${error.message}${id}`;
    return error instanceof PlanRequiredError ? `${said}\n  ${upgradeHint(error)}` : said;
  }
  return error instanceof Error ? error.message : String(error);
}
