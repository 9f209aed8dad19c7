import { createHash, randomBytes } from 'node:crypto';

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** URL-safe random string carrying `bytes * 8` bits of entropy. */
export const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');
