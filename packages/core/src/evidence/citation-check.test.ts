import { describe, expect, it } from 'vitest';
import { checkCitations, citationsInText, withGrounded } from './citation-check.ts';

describe('citations in a turn', () => {
  it('are read with the quote that stands right before the tag, each once', () => {
    const text =
      'Costs fell: "cut hosting by 40%" [E3], and see [E1]. As \u201cthe board agreed\u201d [E12] says, [E3] again; "cut hosting by 40%" [E3].';
    expect(citationsInText(text)).toEqual([
      { evidenceId: 'E3', quote: 'cut hosting by 40%' },
      { evidenceId: 'E1', quote: null },
      { evidenceId: 'E12', quote: 'the board agreed' },
      { evidenceId: 'E3', quote: null },
    ]);
  });

  it('ignore what is not a passage tag', () => {
    expect(citationsInText('[rebuts a1-r1-cfo] [E0] [e3] [E3a] E3 [supports a1-r1-x]')).toEqual([]);
  });

  it('take a grounded citation in place of a bare tag of the same passage', () => {
    const merged = withGrounded(
      [
        { evidenceId: 'E2', quote: null },
        { evidenceId: 'E5', quote: null },
      ],
      [{ evidenceId: 'E2', quote: 'rates rose twice' }],
    );
    expect(merged).toEqual([
      { evidenceId: 'E5', quote: null },
      { evidenceId: 'E2', quote: 'rates rose twice' },
    ]);
  });

  it('are verified only when the passage exists and holds the quote', () => {
    const corpus = new Map([['E1', 'Rates rose twice in 2024, and margins held.']]);
    const checked = checkCitations(
      [
        { evidenceId: 'E1', quote: 'rates rose twice' },
        { evidenceId: 'E1', quote: 'rates rose three times' },
        { evidenceId: 'E1', quote: null },
        { evidenceId: 'E9', quote: null },
      ],
      (id) => corpus.get(id),
    );
    expect(checked.map((c) => c.verified)).toEqual([true, false, true, false]);
    expect(checked[1]).toEqual({ evidenceId: 'E1', quote: 'rates rose three times', verified: false });
  });
});
