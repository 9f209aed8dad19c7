/**
 * The part of Anthropic's Messages protocol the fake server speaks for citations: a request's plain-text
 * document blocks with `citations: { enabled: true }` are citable, and the answer cites them as the API
 * does, in text blocks of their own carrying `char_location` citations (cited_text, document_index,
 * start_char_index, end_char_index), between uncited connecting blocks:
 *
 *   "The grass is green" [cites doc 0, 0–20] " and " "the sky is blue" [cites doc 1, 0–16] ". " <answer text>
 */

/** One span the fake's answer cites (a script may give them; see FakeReply.citations). */
export type FakeCitation = {
  /** document_index: the document's position among all document blocks of the request. */
  document: number;
  start: number;
  end: number;
  /** Default: the document's text from `start` to `end`. A script sets it to answer a citation that lies. */
  citedText?: string;
  /** The words of the block the citation supports. Default: the cited text, trimmed of its full stop. */
  text?: string;
};

/** A document block of the request, as the API numbers them (document_index). */
export type FakeDocument = { text: string; title: string | null; citable: boolean };

/** A text block of the fake's answer with the char_location citations it carries. */
export type FakeTextBlock = { text: string; citations: FakeCharLocation[] };

export type FakeCharLocation = {
  type: 'char_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_char_index: number;
  end_char_index: number;
  file_id: null;
};

/** Every document block of an Anthropic request body, in the order the API numbers them. */
export function documentsOf(body: unknown): FakeDocument[] {
  const messages = (body as { messages?: { content?: unknown }[] }).messages ?? [];
  return messages.flatMap((message) =>
    (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [])
      .filter((block) => block.type === 'document')
      .map((block) => {
        const source = block.source as { type?: string; data?: unknown } | undefined;
        const plain = source?.type === 'text' && typeof source.data === 'string';
        return {
          text: plain ? (source.data as string) : '',
          title: typeof block.title === 'string' ? block.title : null,
          citable: plain && (block.citations as { enabled?: boolean } | undefined)?.enabled === true,
        };
      }),
  );
}

/** What the fake cites unasked: the first sentence of each of the first two citable documents. */
export function defaultCitations(documents: readonly FakeDocument[]): FakeCitation[] {
  return documents
    .map((document, index) => ({ document, index }))
    .filter(({ document }) => document.citable && document.text.trim().length > 0)
    .slice(0, 2)
    .map(({ document, index }) => {
      const sentence = /^[\s\S]*?[.!?](?:\s+|$)/.exec(document.text)?.[0] ?? document.text;
      return { document: index, start: 0, end: Math.min(sentence.length, 300) };
    });
}

/**
 * The blocks the answer opens with: one cited block per citation, joined by " and ", closed by ". " (the
 * answer's own text follows, in a block of its own, so a debater's POSITION line stays last). None when
 * there is nothing to cite.
 */
export function citedBlocks(documents: readonly FakeDocument[], citations: readonly FakeCitation[]) {
  const blocks: FakeTextBlock[] = [];
  for (const [i, citation] of citations.entries()) {
    const document = documents[citation.document];
    const cited = citation.citedText ?? document?.text.slice(citation.start, citation.end) ?? '';
    if (i > 0) blocks.push({ text: ' and ', citations: [] });
    blocks.push({
      text: citation.text ?? cited.trim().replace(/[.!?]$/, ''),
      citations: [
        {
          type: 'char_location',
          cited_text: cited,
          document_index: citation.document,
          document_title: document?.title ?? null,
          start_char_index: citation.start,
          end_char_index: citation.end,
          file_id: null,
        },
      ],
    });
  }
  if (blocks.length > 0) blocks.push({ text: '. ', citations: [] });
  return blocks;
}
