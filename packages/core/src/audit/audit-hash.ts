import { sha256Hex } from '../shared/crypto.ts';
import type { AuditChanges } from './audit-changes.ts';

/** The previous hash of a chain's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Everything an entry says, as its hash covers it. */
export type AuditContent = {
  chain: string;
  seq: number;
  at: string;
  actor: { kind: string; id: string | null; keyId: string | null };
  action: string;
  target: { type: string; id: string | null };
  origin: { ip: string | null; userAgent: string | null; requestId: string | null };
  changes: AuditChanges;
};

/**
 * JSON with every object's keys sorted: the same content always gives the same text, whichever order
 * its fields were built in or PostgreSQL's jsonb gives them back in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** An entry's hash: over the one before it and its own content, so each entry vouches for all before it. */
export const auditHash = (prevHash: string, content: AuditContent): string =>
  sha256Hex(`${prevHash}\n${canonicalJson(content)}`);
