import type { AuditEntry, AuditExportFormat } from '@verdict/contracts';

/** The CSV columns, in order: the entry's fields flattened, `changes` as its JSON text. */
export const AUDIT_CSV_COLUMNS = [
  'chain',
  'seq',
  'at',
  'actor_kind',
  'actor_id',
  'actor_key_id',
  'action',
  'target_type',
  'target_id',
  'ip',
  'user_agent',
  'request_id',
  'changes',
  'prev_hash',
  'hash',
] as const;

/**
 * A CSV field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a quote or a line
 * break; null is the empty field. Values are written as stored, never rewritten for spreadsheets: an audit
 * export must say exactly what the trail says.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRow = (fields: (string | number | null)[]) => `${fields.map(csvField).join(',')}\r\n`;

function csvLine(entry: AuditEntry): string {
  return csvRow([
    entry.chain,
    entry.seq,
    entry.at,
    entry.actor.kind,
    entry.actor.id,
    entry.actor.keyId,
    entry.action,
    entry.target.type,
    entry.target.id,
    entry.origin.ip,
    entry.origin.userAgent,
    entry.origin.requestId,
    JSON.stringify(entry.changes),
    entry.prevHash,
    entry.hash,
  ]);
}

/** Each format's content type, file extension, first line and line per entry. */
export const AUDIT_EXPORT_FORMATS: Record<
  AuditExportFormat,
  { contentType: string; extension: string; header: string; line: (entry: AuditEntry) => string }
> = {
  ndjson: {
    contentType: 'application/x-ndjson; charset=utf-8',
    extension: 'ndjson',
    header: '',
    line: (entry) => `${JSON.stringify(entry)}\n`,
  },
  csv: {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    header: csvRow([...AUDIT_CSV_COLUMNS]),
    line: csvLine,
  },
};

/** Bytes gathered into each write: one write per entry would cost a syscall per line. */
const CHUNK_CHARS = 64 * 1024;

/** The export as text chunks, read from `entries` (a page at a time) as the response drains. */
export async function* exportChunks(
  format: AuditExportFormat,
  entries: AsyncIterable<AuditEntry>,
): AsyncGenerator<string> {
  const { header, line } = AUDIT_EXPORT_FORMATS[format];
  let chunk = header;
  for await (const entry of entries) {
    chunk += line(entry);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
