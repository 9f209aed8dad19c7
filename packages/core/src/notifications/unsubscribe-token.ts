import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UnsubscribeType } from '@verdict/contracts';

/**
 * The token of an unsubscribe link: HMAC-SHA256 of the user and the preference, keyed with
 * EMAIL_LINK_SECRET. It does not expire (a link in an old email must still work); changing the secret
 * invalidates every link sent.
 */
export const unsubscribeToken = (secret: string, userId: string, type: UnsubscribeType) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${type}`).digest('hex');

/** Compares in constant time, so the response time says nothing about how much of a forged token matched. */
export function isValidUnsubscribeToken(
  secret: string | null,
  userId: string,
  type: UnsubscribeType,
  token: string,
): boolean {
  if (!secret || !/^[0-9a-f]{64}$/.test(token)) return false;
  const expected = Buffer.from(unsubscribeToken(secret, userId, type), 'hex');
  return timingSafeEqual(expected, Buffer.from(token, 'hex'));
}
