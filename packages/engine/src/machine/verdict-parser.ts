import { JudgedEvidence, Verdict } from '@verdict/contracts';
import { z } from 'zod';

/**
 * What the judge may say: the calibrated confidence and the evidence mode are the engine's to add
 * (judge.ts), never the model's, and its key evidence is only ever the judged kind — cited evidence is
 * built by the engine from verified citations, so a judge cannot pass off a passage it made up.
 */
const JudgeVerdict = Verdict.omit({ calibratedConfidence: true, calibration: true, evidence: true }).extend({
  keyEvidence: z.array(JudgedEvidence),
});

export type ParsedVerdict = { ok: true; verdict: Verdict } | { ok: false; problem: string };

/**
 * Reads the judge's answer. Repairs what is safe to repair — code fences, prose around the object, a
 * confidence given as a percentage, a lower-case recommendation — and reports anything else so the judge
 * can be asked again. Never returns an invalid verdict.
 */
/**
 * `ownKeyEvidence: false` (the evidence engine on): the engine builds the key evidence, so whatever the judge
 * wrote there is dropped before the answer is checked — a judge told to leave it empty that fills it anyway,
 * in any shape, is not asked again for it.
 */
export function parseVerdict(text: string, missingAgents: string[], ownKeyEvidence = true): ParsedVerdict {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return { ok: false, problem: 'no JSON object in the answer' };
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    return { ok: false, problem: `invalid JSON: ${(err as Error).message}` };
  }
  if (typeof raw !== 'object' || raw === null) return { ok: false, problem: 'the answer is not an object' };
  const candidate = { ...(raw as Record<string, unknown>) };
  if (typeof candidate.recommendation === 'string') {
    candidate.recommendation = candidate.recommendation
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '_');
  }
  if (typeof candidate.confidence === 'number' && candidate.confidence > 1 && candidate.confidence <= 100) {
    candidate.confidence = candidate.confidence / 100;
  }
  for (const list of ['arguments', 'keyEvidence', 'decisionMatrix', 'nextSteps', 'revisitTriggers']) {
    candidate[list] ??= [];
  }
  if (!ownKeyEvidence) candidate.keyEvidence = [];
  const parsed = JudgeVerdict.safeParse({ ...candidate, missingAgents });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, problem: problems.slice(0, 5).join('; ') };
  }
  return { ok: true, verdict: parsed.data };
}
