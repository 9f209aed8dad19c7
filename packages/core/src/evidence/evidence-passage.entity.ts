import { defineEntity, p } from '@mikro-orm/core';
import type { EvidenceSource } from '@verdict/contracts';
import { Attachment } from '../attachments/attachment.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/**
 * One passage of a debate's corpus (evidence/build-corpus.ts writes them, nothing else): `number` is n of
 * its E<n>, in the debate's own numbering, in the order its sources were stored. The source's title and
 * address are copied in, so a passage still names its source after the attachment is deleted; the
 * attachment's id is then set null, which retires the passage (retrieval no longer offers it) while its
 * number stays taken and the citations of it stay checkable (migration 0034 says why).
 *
 * `search_vector` is the passage's text as its source's text search configuration parses it (`language`,
 * chosen by evidence/text-language.ts); `embedding` is set where the corpus was built with an embedder, with the
 * model that made it (pgvector's type where the database has it, as for debate_embeddings).
 */
export const EvidencePassageSchema = defineEntity({
  name: 'EvidencePassage',
  tableName: 'evidence_passages',
  indexes: [{ name: 'evidence_passages_attachment_index', properties: ['attachment'] }],
  checks: [
    {
      name: 'evidence_passages_source_kind_check',
      expression: `source_kind in ('attachment', 'page', 'context')`,
    },
  ],
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action'),
    number: p.integer().primary(),
    sourceKind: p.string().length(10).$type<EvidenceSource['kind']>(),
    attachment: () => p.manyToOne(Attachment).nullable().deleteRule('set null'),
    url: p.string().length(2000).nullable(),
    title: p.text(),
    language: p.string().length(40),
    text: p.text(),
    textStart: p.integer(),
    textEnd: p.integer(),
    searchVector: p.string().columnType('tsvector'),
    embedding: p.array<number>().columnType('real[]').nullable(),
    embeddingModel: p.string().length(200).nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class EvidencePassage extends EvidencePassageSchema.class {}
EvidencePassageSchema.setClass(EvidencePassage);
