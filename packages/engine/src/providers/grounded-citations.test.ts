import { describe, expect, it } from 'vitest';
import { GroundedAnswer, groundCitation, tagBlock } from './grounded-citations.ts';

const documents = [
  {
    evidenceId: 'E3',
    title: 'report.pdf',
    text: 'Revenue grew 4% in March. Churn doubled after the price rise.',
  },
  { evidenceId: 'E7', title: 'notes.txt', text: 'The pilot ran for two weeks.\nIt cost 12,000 euros.' },
];
const at = (document: number, cited: string, start?: number) => {
  const text = documents[document]?.text ?? '';
  const from = start ?? text.indexOf(cited);
  return {
    cited_text: cited,
    document_index: document,
    start_char_index: from,
    end_char_index: from + cited.length,
  };
};

describe('a citation the provider grounded', () => {
  it('names the passage of its document when the offsets cut its words out of that document', () => {
    expect(groundCitation(at(1, 'It cost 12,000 euros.'), documents)).toEqual({
      evidenceId: 'E7',
      quote: 'It cost 12,000 euros.',
    });
  });

  it('keeps a citation whose offsets are wrong when its words occur in its document, whitespace and case aside', () => {
    expect(groundCitation(at(0, 'churn  doubled', 0), documents)).toEqual({
      evidenceId: 'E3',
      quote: 'churn  doubled',
    });
  });

  it('maps words its document does not hold to the document that does', () => {
    expect(groundCitation(at(0, 'The pilot ran for two weeks.', 0), documents)).toEqual({
      evidenceId: 'E7',
      quote: 'The pilot ran for two weeks.',
    });
  });

  it('drops words no document holds, whichever document it names, and an empty quote', () => {
    expect(groundCitation(at(0, 'Revenue fell 9% in March.', 0), documents)).toBeNull();
    expect(groundCitation({ ...at(0, 'Revenue fell 9%.', 0), document_index: 5 }, documents)).toBeNull();
    expect(groundCitation(at(0, '  ', 0), documents)).toBeNull();
  });

  it('maps a citation naming a document the request did not have by its words', () => {
    expect(groundCitation({ ...at(0, 'Revenue grew 4% in March.'), document_index: 5 }, documents)).toEqual({
      evidenceId: 'E3',
      quote: 'Revenue grew 4% in March.',
    });
  });
});

describe('a block tagged with the passages that support it', () => {
  it('puts each tag once after the words, before trailing whitespace', () => {
    expect(tagBlock('churn doubled ', ['E3', 'E3', 'E7'])).toBe('churn doubled [E3] [E7] ');
    expect(tagBlock('churn doubled', [])).toBe('churn doubled');
  });

  it('does not repeat a tag the model wrote itself', () => {
    expect(tagBlock('"churn doubled" [E3]', ['E3'])).toBe('"churn doubled" [E3]');
  });
});

describe('an answer put together from streamed blocks', () => {
  it('joins the blocks in index order, tags each cited one and lists each citation once', () => {
    const answer = new GroundedAnswer(documents);
    answer.start(2, { text: '' });
    answer.text(2, ' and the pilot was short');
    // A citation may come before its block's words or after them.
    answer.cite(2, {
      type: 'char_location',
      ...at(1, 'The pilot ran for two weeks.'),
      document_title: null,
      file_id: null,
    });
    answer.start(0, { text: 'Churn ' });
    answer.text(0, 'doubled');
    answer.cite(0, {
      type: 'char_location',
      ...at(0, 'Churn doubled after the price rise.'),
      document_title: null,
      file_id: null,
    });
    answer.cite(0, {
      type: 'char_location',
      ...at(0, 'Churn doubled after the price rise.'),
      document_title: null,
      file_id: null,
    });
    answer.text(3, '.');
    expect(answer.joined()).toBe('Churn doubled [E3] and the pilot was short [E7].');
    expect(answer.citations()).toEqual([
      { evidenceId: 'E3', quote: 'Churn doubled after the price rise.' },
      { evidenceId: 'E7', quote: 'The pilot ran for two weeks.' },
    ]);
  });
});
