import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { serviceBusy } from '../shared/app-error.ts';
import { createConcurrencyLimit } from '../shared/concurrency-limit.ts';

// OWASP's scrypt floor (N=2^17, r=8, p=1) costs ~128 MiB and ~150 ms; 2^15 keeps a login near 40 ms on
// these 2-core machines while staying far above what offline cracking finds cheap for 10+ char passwords.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * scrypt runs on libuv's thread pool, but every hash burns a core for tens of milliseconds: fifty parallel
 * sign-ups would take every core from the event loop. Hashes run one core short of all of them. Checking a
 * password (signing in) goes ahead of hashing a new one (signing up), so a flood of sign-ups never makes
 * people who already have an account wait; and the sign-up lane is short, so a burst beyond it is refused
 * at once (503 with Retry-After) instead of piling up.
 */
const busy = () => serviceBusy('The server is busy checking passwords; retry in a moment', 1);
const HASH_LANES = { verify: { maxQueued: 64 }, hash: { maxQueued: 8 } };
const hashing = createConcurrencyLimit(Math.max(1, availableParallelism() - 1), HASH_LANES, busy);

/**
 * Refuses a sign-up at once (503) when its password could not even wait for a hash: called before any
 * other work of the sign-up, so a flood of them costs next to nothing.
 */
export function assertRoomToHash() {
  if (hashing.queued('hash') >= HASH_LANES.hash.maxQueued) throw busy();
}

function derive(lane: 'verify' | 'hash', password: string, salt: Buffer, params = PARAMS): Promise<Buffer> {
  return hashing.run(
    lane,
    () =>
      new Promise((resolve, reject) => {
        scrypt(
          password,
          salt,
          params.keyLength,
          { N: params.N, r: params.r, p: params.p, maxmem: MAX_MEMORY },
          (err, key) => (err ? reject(err) : resolve(key)),
        );
      }),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash base64url; parameters travel with the hash so they can change. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive('hash', password, salt);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const params = { N: Number(n), r: Number(r), p: Number(p), keyLength: expected.length };
  const actual = await derive('verify', password, Buffer.from(salt, 'base64url'), params);
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/** A hash of nothing in particular, verified against when the email is unknown so timing reveals nothing. */
export const dummyPasswordHash = () => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((err: unknown) => {
    dummyHash = undefined; // a refusal while busy must not stick
    throw err;
  });
  return dummyHash;
};
