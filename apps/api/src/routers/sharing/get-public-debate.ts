import { PublicDebate, ShareTokenInput } from '@verdict/contracts';
import { authenticateSharedRead } from '../../auth/authenticate.ts';
import { streamData } from '../../http/debate-stream-data.ts';
import { publicProcedure } from '../../trpc/init.ts';

/**
 * A share link's read, without credentials: counted per client IP (sliding window across API processes);
 * a link that requires sign-in needs a session or a key, which is then checked and counted as usual.
 */
export const getPublicDebate = publicProcedure
  .meta({
    rateLimitHeaders: true,
    // The token opens the debate: a log line or span shows /api/public/debates/[redacted].
    secretParameters: ['token'],
    errors: {
      NOT_FOUND: 'No live link with this token (never issued, rotated, revoked, or its debate deleted)',
      UNAUTHORIZED: 'The link requires sign-in and no valid session or key came with the request',
      RATE_LIMITED: 'Over 30 reads per 60 seconds from this client IP (sliding window); see Retry-After',
    },
    openapi: {
      method: 'GET',
      path: '/api/public/debates/{token}',
      summary: 'Read a shared debate by its link token',
      description:
        "The sanitized debate (question, the owner's context as the agents were given it, status, mode, " +
        'panel, verdict, transcript with claimIds) and the events of its current attempt in order, as the ' +
        "debate stream sends them. Never the owner's id or email, attachments, keys or routing; the cost " +
        'only when the owner chose showCost. Each read counts as a view. CORS: any origin may read it ' +
        '(Access-Control-Allow-Origin *).',
    },
  })
  .input(ShareTokenInput)
  .output(PublicDebate)
  .query(async ({ ctx, input }) => {
    const signedIn = await authenticateSharedRead(ctx.services, ctx.req, ctx.response.headers, ctx.endpoint);
    const debate = await ctx.services.sharing.read(input.token, signedIn);
    return {
      ...debate,
      events: debate.events.map((event) => ({
        seq: event.seq,
        event: event.type,
        data: streamData(event.type, event.data) as Record<string, unknown>,
      })),
    } as PublicDebate;
  });
