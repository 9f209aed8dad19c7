import type { TRPCError } from '@trpc/server';
import { errorStatus } from '@verdict/contracts';
import { toAppError } from './app-errors.ts';
import type { Context } from './context.ts';

/**
 * Applies what the procedure collected (status, rate-limit and deprecation headers) and, on failure, the
 * status of the error code from the one table plus the error's own headers. Shared by REST and tRPC.
 */
export function responseMeta(opts: { ctx?: Context | undefined; errors: TRPCError[] }) {
  const headers: Record<string, string> = { ...opts.ctx?.response.headers };
  const [first] = opts.errors;
  if (first) {
    const app = toAppError(first);
    Object.assign(headers, app.headers);
    return { status: errorStatus(app.code), headers };
  }
  return { status: opts.ctx?.response.status ?? 200, headers };
}
