import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_PROMPT_BUDGET, shareBudget } from '../attachments/agent-context.ts';
import { EVIDENCE_PROMPT_BUDGET } from '../evidence/corpus-passage.ts';
import {
  type BriefSize,
  debaterCallChars,
  documentChars,
  judgeCallChars,
  PROMPT_CHARS,
  passageChars,
  tokensOfChars,
} from './prompt-sizes.ts';

// How these sizes agree with the engine's real prompts: engine/src/runner/prompt-sizes.test.ts.
const brief: BriefSize = { question: 120, context: null, options: [], documents: 0, evidence: false };

describe('the size model of the prompts', () => {
  it('counts attachments as the excerpts agent-context cuts, whatever their number and lengths', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ name: fc.integer({ min: 1, max: 80 }), text: fc.integer({ min: 0, max: 50_000 }) }),
          {
            maxLength: 6,
          },
        ),
        (documents) => {
          const excerpts = shareBudget(
            documents.map((d) => ({ name: 'n'.repeat(d.name), text: 't'.repeat(d.text) })),
            ATTACHMENT_PROMPT_BUDGET,
          );
          const texts = excerpts.reduce((total, excerpt) => total + excerpt.text.length, 0);
          const frames = documents.reduce((t, d) => t + d.name + PROMPT_CHARS.debater.perDocument, 0);
          const after = documents.length > 0 ? PROMPT_CHARS.debater.afterDocuments : 0;
          expect(documentChars(documents, ATTACHMENT_PROMPT_BUDGET)).toBe(texts + frames + after);
        },
      ),
    );
  });

  it('carries the whole corpus as passages while it fits the evidence budget, and the budget beyond', () => {
    expect(passageChars(0, 7)).toBe(0);
    expect(passageChars(1000, 7)).toBe(1000 + PROMPT_CHARS.perPassage + 7);
    const full = passageChars(200_000, 12);
    expect(full).toBe(EVIDENCE_PROMPT_BUDGET + 5 * (PROMPT_CHARS.perPassage + 12));
    expect(passageChars(1_000_000, 12)).toBe(full);
  });

  it('grows a rebuttal by each quoted turn and its line, and an opening by none', () => {
    const opening = debaterCallChars(brief, 1, []);
    expect(debaterCallChars(brief, 1, [500, 500])).toBe(opening);
    const rebuttal = debaterCallChars(brief, 2, [500, 700]);
    expect(rebuttal - debaterCallChars(brief, 2, [500])).toBe(700 + PROMPT_CHARS.debater.perQuotedTurn);
    expect(rebuttal).toBeGreaterThan(opening + 1200);
  });

  it('gives the judge every turn with its line and position, and each seat its panel line', () => {
    const two = judgeCallChars(brief, 2, [300, 300]);
    const three = judgeCallChars(brief, 3, [300, 300, 300]);
    expect(three - two).toBe(
      PROMPT_CHARS.judge.perSeat + 300 + PROMPT_CHARS.judge.perTurn + PROMPT_CHARS.judge.positionNote,
    );
  });

  it('counts a call at four characters a token, a started token whole', () => {
    expect(tokensOfChars(0)).toBe(0);
    expect(tokensOfChars(4)).toBe(1);
    expect(tokensOfChars(5)).toBe(2);
  });
});
