import { createHmac, randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';

/**
 * A new signing secret: `whsec_` and 32 random bytes in base64, the Standard Webhooks format. The same string
 * serves both signatures: Standard Webhooks libraries take it as is (they decode what follows `whsec_`), and
 * X-Verdict-Signature is keyed with the whole string as UTF-8, as a receiver computing a plain HMAC expects.
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** X-Verdict-Signature: the lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret. */
export const verdictSignature = (secret: string, body: string) =>
  createHmac('sha256', secret).update(body).digest('hex');

/**
 * Every header of one attempt: the spec's X-Verdict-Signature and the Standard Webhooks trio. webhook-id is
 * the deliveryId (the same on every attempt, so a receiver drops repeats by it); webhook-timestamp is the
 * attempt's own time, which is what receivers check their tolerance against.
 */
export function deliveryHeaders(secret: string, deliveryId: string, body: string, at: Date) {
  return {
    'content-type': 'application/json',
    'user-agent': 'Verdict-Webhooks/1',
    'x-verdict-signature': verdictSignature(secret, body),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new StandardWebhook(secret).sign(deliveryId, at, body),
  };
}

/**
 * The body of a delivery, as JSON text fixed once: `{event, id, timestamp, data}`. `id` names the event
 * (the same for every webhook it goes to and for a redelivery); `timestamp` is when it happened.
 */
export const deliveryBody = (event: { event: string; id: string; at: Date; data: unknown }) =>
  JSON.stringify({ event: event.event, id: event.id, timestamp: event.at.toISOString(), data: event.data });
