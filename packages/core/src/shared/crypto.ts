import { hash, randomBytes } from 'node:crypto';

/** One-shot: the API hashes a presented key on every request, and a Hash object per call cost more than the digest. */
export const sha256Hex = (value: string) => hash('sha256', value, 'hex');

/** URL-safe random string carrying `bytes * 8` bits of entropy. */
export const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');
