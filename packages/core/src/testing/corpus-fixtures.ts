import { randomUUID } from 'node:crypto';
import type { Database } from '../db/orm.ts';
import type { Embedder } from '../similar/embedder.ts';

/**
 * Debates and attachments stored straight into the tables the corpus is built from, for the corpus's
 * tests and bench (production code creates them through debates/ and attachments/).
 */
export async function insertUser(db: Pick<Database, 'execute'>): Promise<string> {
  const id = randomUUID();
  await db.execute(`insert into users (id, email, name) values (?, ?, 'Evidence')`, [
    id,
    `${id}@example.com`,
  ]);
  return id;
}

export async function insertDebate(
  db: Pick<Database, 'execute'>,
  ownerId: string,
  { question = 'Should we raise prices?', context = null as string | null } = {},
): Promise<string> {
  const id = randomUUID();
  await db.execute(
    `insert into debates (id, owner_id, question, context, mode, status, funding_source, requested_agents,
       requested_rounds, evidence_engine)
     values (?, ?, ?, ?, 'pro', 'running', 'user_credits', 3, 2, true)`,
    [id, ownerId, question, context],
  );
  return id;
}

export type AttachmentFixture = {
  kind?: 'file' | 'url';
  filename: string;
  url?: string;
  text: string | null;
  status?: 'pending' | 'ready' | 'failed';
  /** Attachments join the corpus oldest first: tests state the order. */
  createdAt: string;
};

export async function insertAttachment(
  db: Pick<Database, 'execute'>,
  debateId: string,
  ownerId: string,
  attachment: AttachmentFixture,
): Promise<string> {
  const id = randomUUID();
  await db.execute(
    `insert into attachments (id, debate_id, owner_id, kind, filename, content_type, size, status, text, url,
       created_at)
     values (?, ?, ?, ?, ?, 'text/plain', ?, ?, ?, ?, ?)`,
    [
      id,
      debateId,
      ownerId,
      attachment.kind ?? 'file',
      attachment.filename,
      attachment.text?.length ?? 0,
      attachment.status ?? 'ready',
      attachment.text,
      attachment.url ?? null,
      attachment.createdAt,
    ],
  );
  return id;
}

/**
 * A stand-in for an embedding model that knows a few concepts by their words: a text's vector counts the
 * words of each concept it contains, plus a small constant so that no vector is zero. Texts that share a
 * concept are close whether or not they share a word, which full-text search cannot see.
 */
export function conceptEmbedder(
  concepts: Record<string, readonly string[]>,
  model = 'test:concepts',
): Embedder {
  const entries = Object.values(concepts);
  return {
    model,
    relatedAbove: 0.5,
    embed: async (text) => {
      const lower = text.toLowerCase();
      return [
        0.05,
        ...entries.map((words) => words.reduce((n, word) => n + lower.split(word).length - 1, 0)),
      ];
    },
  };
}
