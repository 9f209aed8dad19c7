import type { JetStreamClient, JetStreamPublishOptions } from '@nats-io/jetstream';
import { TimeoutError } from '@nats-io/transport-node';

/** How long one try waits for the stream's acknowledgement. */
const TRY_MS = 1000;
/** How long a publish keeps trying in all: what a single publish waited before (nats.js's default timeout). */
const TOTAL_MS = 5000;

/**
 * A JetStream publish that carries on through the client's reconnection. nats.js buffers a publish made while
 * its connection is down and sends it on reconnecting, but the stream's acknowledgement of that message never
 * reaches the caller: the publish waited out its whole timeout (5 s) and failed, although the server was back
 * within a second (seen in the chaos runs' NATS restarts: a create answered 201 after 5 s, and its job came
 * only from the reconciler). So each try waits TRY_MS, and a try that timed out is made again, up to TOTAL_MS
 * in all. Safe to repeat because every publish here has a message id: the stream drops a copy it has.
 */
export async function publishThroughReconnects(
  js: JetStreamClient,
  subject: string,
  payload: Uint8Array,
  options: Partial<JetStreamPublishOptions> & { msgID: string },
): Promise<void> {
  const giveUpAt = Date.now() + TOTAL_MS;
  for (;;) {
    const timeout = Math.min(TRY_MS, Math.max(1, giveUpAt - Date.now()));
    try {
      await js.publish(subject, payload, { ...options, timeout });
      return;
    } catch (error) {
      if (!(error instanceof TimeoutError) || Date.now() >= giveUpAt) throw error;
    }
  }
}
