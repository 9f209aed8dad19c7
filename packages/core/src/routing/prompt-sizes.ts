import { EVIDENCE_PROMPT_BUDGET } from '../evidence/corpus-passage.ts';
import { PASSAGE_SIZES } from '../evidence/passage-splitter.ts';

/**
 * The size of every prompt a debate sends, in characters, from the sizes of what goes into it: the engine's
 * templates (engine machine/prompts.ts, runner/classify.ts, providers/documents.ts) reduced to their fixed
 * characters and the characters each quoted turn, seat, option or passage adds. Core cannot import the
 * engine, so the numbers are written here; engine/src/runner/prompt-sizes.test.ts builds the engine's real
 * prompts and holds these sizes to them, so the two cannot drift apart.
 *
 * Seats differ a little (a seat's name appears in its system prompt, in each claim id and transcript line):
 * the per-seat figures are the mean over the panel's first eight seats, a few characters off for any one seat.
 */

/** Characters per token the estimate counts text at: the usual rate of English text for these tokenizers. */
export const CHARS_PER_TOKEN = 4;

export const PROMPT_CHARS = {
  debater: {
    /** System prompt (its seat's name, role, lean and brief), `Question: `, the ask and the POSITION line. */
    opening: 436,
    /** The same with the round before's heading and the rebut-and-cite instructions in place of the ask. */
    rebuttal: 596,
    /** `\nContext: ` */
    context: 10,
    /** One turn of the round before: `\n- [a1-r1-risk-analyst] Risk Analyst: ` beyond its text. */
    perQuotedTurn: 33,
    /** An attachment carried as an excerpt (evidence engine off): its fence and heading beyond name and text. */
    perDocument: 69,
    /** The blank line after the excerpts, once when there are any. */
    afterDocuments: 1,
    /** The evidence engine's citing instructions (EVIDENCE_INSTRUCTION and the blank line before it). */
    evidenceInstruction: 305,
  },
  /** A comparison: the Options line, and a POSITION line asking for a ranking instead of a recommendation. */
  comparison: {
    /** `\n\nOptions: ` and the ranking POSITION line less the recommendation one, before its letters. */
    fixed: -96,
    /** `A = ` and `; ` per option, and `"A", ` in the POSITION line. */
    perOption: 11,
  },
  judge: {
    /** Its system prompt (the verdict's JSON shape), `Question: `, `Panel:` and `Transcript:`. */
    fixed: 643,
    /** `\n- Risk Analyst [mixed] (risk analyst)` */
    perSeat: 33,
    /** `\nRound 2, Risk Analyst: ` beyond the turn's text. */
    perTurn: 22,
    /** The turn's stated position after it: ` [position: RECONSIDER, mixed, confidence 0.72]`. */
    positionNote: 44,
    /** A comparison's ` [position: ranking A > B > C]`: fixed, and per option. */
    rankingNote: { fixed: 18, perOption: 4 },
    /** The evidence engine's lines on weighing claims by verified evidence. */
    evidenceInstruction: 268,
    /**
     * A verified citation's evidence line beyond its quote (or the passage's first 200 characters):
     * `\n  evidence: [E3] "…" (report.pdf)`, a source title taken at 10 characters.
     */
    perCitation: 33,
  },
  /** The classifier's system prompt (the list of domains); the prompt is the question. */
  classifier: 160,
  /** A passage as a provider without grounded citations is sent it: `Passage [E3] from "…"`, fences, separators. */
  perPassage: 69,
} as const;

/** A debate's brief as prompts carry it, in characters. */
export type BriefSize = {
  question: number;
  /** null: no context (its line is left out). */
  context: number | null;
  /** A comparison's options, each one's length; empty for a plain debate. */
  options: readonly number[];
  /** What each debater prompt carries of the debate's documents: `documentChars`, or `passageChars`. */
  documents: number;
  /**
   * The turns are offered evidence passages (the evidence engine on, and a corpus to cite): the debaters are
   * told how to cite them, and the judge how to weigh what they cited.
   */
  evidence: boolean;
};

const briefChars = (brief: BriefSize) =>
  brief.question + (brief.context === null ? 0 : PROMPT_CHARS.debater.context + brief.context);

const comparisonChars = (brief: BriefSize) =>
  brief.options.length === 0
    ? 0
    : PROMPT_CHARS.comparison.fixed +
      brief.options.reduce((total, option) => total + option + PROMPT_CHARS.comparison.perOption, 0);

/**
 * A debater's call (system prompt and prompt): round one's opening, or a later round's rebuttal quoting every
 * turn of the round before (`quoted`: each one's text length).
 */
export function debaterCallChars(brief: BriefSize, round: number, quoted: readonly number[]): number {
  const rebuttal = round > 1 && quoted.length > 0;
  const template = rebuttal ? PROMPT_CHARS.debater.rebuttal : PROMPT_CHARS.debater.opening;
  const turns = rebuttal
    ? quoted.reduce((total, text) => total + text + PROMPT_CHARS.debater.perQuotedTurn, 0)
    : 0;
  const evidence = brief.evidence ? PROMPT_CHARS.debater.evidenceInstruction : 0;
  return template + briefChars(brief) + brief.documents + evidence + turns + comparisonChars(brief);
}

/**
 * The judge's call: the panel's seats and every turn of the debate (`turns`: each one's text length), and
 * with passages offered the evidence lines of the turns' verified citations (`cited`, in all) and how to
 * weigh them.
 */
export function judgeCallChars(brief: BriefSize, seats: number, turns: readonly number[], cited = 0): number {
  const { judge } = PROMPT_CHARS;
  const note =
    brief.options.length === 0
      ? judge.positionNote
      : judge.rankingNote.fixed + judge.rankingNote.perOption * brief.options.length;
  return (
    judge.fixed +
    briefChars(brief) +
    seats * judge.perSeat +
    turns.reduce((total, text) => total + text + judge.perTurn + note, 0) +
    (brief.evidence ? judge.evidenceInstruction + cited : 0)
  );
}

export const classifierCallChars = (question: number) => PROMPT_CHARS.classifier + question;

/** An attached document as the estimate sizes it: its name (or address) and its extracted text. */
export type DocumentSize = { name: number; text: number };

/**
 * Evidence engine off: the attachments each debater prompt carries as excerpts, the budget shared among
 * them (a short one leaves the rest of its share to the others, so the texts take min(total, budget)).
 */
export function documentChars(documents: readonly DocumentSize[], budget: number): number {
  if (documents.length === 0) return 0;
  const texts = Math.min(
    budget,
    documents.reduce((total, document) => total + document.text, 0),
  );
  const frames = documents.reduce(
    (total, document) => total + document.name + PROMPT_CHARS.debater.perDocument,
    0,
  );
  return texts + frames + PROMPT_CHARS.debater.afterDocuments;
}

/**
 * Evidence engine on: the passages each debater turn retrieves from a corpus of `corpus` characters (the
 * context and the attachments' texts), up to EVIDENCE_PROMPT_BUDGET, each in its block (`title`: a typical
 * source title's length).
 */
export function passageChars(corpus: number, title: number): number {
  if (corpus <= 0) return 0;
  const text = Math.min(EVIDENCE_PROMPT_BUDGET, corpus);
  const passages = Math.ceil(text / PASSAGE_SIZES.target);
  return text + passages * (PROMPT_CHARS.perPassage + title);
}

/** The tokens a call's characters count as. */
export const tokensOfChars = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);
