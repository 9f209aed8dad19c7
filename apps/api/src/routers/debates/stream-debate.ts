import { tracked } from '@trpc/server';
import { DebateStreamInput, type DebateStreamMessage } from '@verdict/contracts';
import { streamData } from '../../http/debate-stream-data.ts';
import { followDebate } from '../../streams/debate-feed.ts';
import { debateStreamStart, streamsNothing } from '../../streams/debate-stream-start.ts';
import { openStreamsServing } from '../../streams/open-streams.ts';
import { userStreamProcedure } from '../../trpc/init.ts';
import { shuttingDown, subscription } from '../subscription.ts';

export type StreamDebateOptions = {
  /** How often a followed debate's storage is looked at (events stored but not published, deletion); 15 s. */
  checkEveryMs?: number;
};

/**
 * `debates.stream`, a subscription: a debate's events as GET /api/debates/:id/stream sends them, for whoever
 * may read the debate (API key or session cookie; NOT_FOUND otherwise), each as `tracked(seq, { type, data })`
 * with the SSE stream's id, event name and data. First the current attempt's stored events after
 * `lastEventId`, then live ones from this process's one bus subscription per debate, until debate.completed
 * or debate.failed ends it; a deleted debate ends it with NOT_FOUND. httpSubscriptionLink sends the last
 * id back as `lastEventId` on a reconnect: no event missed, none twice. Opens count against the stream
 * budget; a resume after the final event sends nothing and counts as a request.
 *
 * Its subscription is set up before the stream opens (tRPC's `connected` / onStarted): errors come as the
 * project's tRPC errors (`data.appCode`), and a process going away ends it with a retryable
 * SERVICE_UNAVAILABLE, after which the client reconnects and resumes.
 */
export function streamDebateProcedure({ checkEveryMs = 15_000 }: StreamDebateOptions = {}) {
  return userStreamProcedure.input(DebateStreamInput).subscription(async ({ ctx, input, signal }) => {
    if (openStreamsServing(ctx.req)?.closing) throw shuttingDown();
    const { userId } = ctx.caller;
    const start = await debateStreamStart(ctx.services, userId, input.id, input.lastEventId ?? 0);
    if (streamsNothing(start)) {
      await ctx.notStreamed();
      return nothing();
    }
    const feed = followDebate(ctx.services, start, { userId, checkEveryMs });
    return subscription(ctx, signal, { items: feed.events, end: feed.end }, toMessage);
  });
}

export const streamDebate = streamDebateProcedure();

const toMessage = (event: { seq: number; type: string; data: unknown }) =>
  tracked(String(event.seq), {
    type: event.type,
    data: streamData(event.type, event.data),
  } as DebateStreamMessage);

/** A resume after the final event: the subscription ends at once, with nothing sent. */
async function* nothing(): AsyncGenerator<ReturnType<typeof toMessage>, void> {}
