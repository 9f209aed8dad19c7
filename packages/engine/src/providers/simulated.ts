import { setTimeout as sleep } from 'node:timers/promises';
import { citationTag, type Recommendation, type TurnPosition, type Verdict } from '@verdict/contracts';
import { optionLetter, positionLine } from '../machine/position.ts';
import {
  LlmCallError,
  type LlmFailureKind,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type SimulationHints,
} from './port.ts';
import { pick, seededRandom } from './seeded-random.ts';

/**
 * SIMULATED debater and judge: no network, no keys. Used in embedded mode when no provider key is
 * configured, and labelled "simulated" in every model name, turn and verdict it produces.
 */
export type SimulatedOptions = {
  /** Delay before the first token, per call. */
  firstTokenMs?: number;
  /** Writing rate after the first token: an answer takes its length in tokens at this rate; 0 answers at once. */
  tokensPerSecond?: number;
  /** Failure injection: return a kind to make this call fail with it. */
  fail?: (request: LlmRequest) => LlmFailureKind | null;
};

export const SIMULATED_LABEL = '[simulated]';

const OPENERS = {
  for: [
    'The case for this is strong.',
    'On balance this is worth doing.',
    'The upside outweighs the risk here.',
  ],
  against: [
    'The risks here are underestimated.',
    'I would not go ahead as proposed.',
    'The downside is larger than it looks.',
  ],
  mixed: [
    'Both sides have merit; the details decide.',
    'This depends on conditions we have not pinned down.',
  ],
} as const;

const POINTS = {
  for: [
    'it compounds over time',
    'the cost of waiting is real',
    'the evidence points to a clear gain',
    'it is reversible if it fails',
  ],
  against: [
    'the costs arrive before the benefits',
    'execution risk is high',
    'the assumptions are untested',
    'it is hard to undo',
  ],
  mixed: [
    'the timing matters more than the choice',
    'a smaller trial would tell us more',
    'the answer differs by scenario',
  ],
} as const;

export function simulatedProvider(options: SimulatedOptions = {}): LlmProvider {
  const { firstTokenMs = 0, tokensPerSecond = 0 } = options;
  return {
    name: 'simulated',
    complete: async (request) => {
      const failure = options.fail?.(request);
      if (failure)
        throw new LlmCallError(failure, `simulated ${failure} failure`, { status: statusOf(failure) });
      const text =
        request.task === 'classifier'
          ? simulatedDomain(request.prompt)
          : request.json
            ? simulatedVerdictJson(request)
            : simulatedTurn(request);
      // An aborted wait ends early and rejects; the abort is answered just below.
      if (firstTokenMs > 0) await sleep(firstTokenMs, undefined, { signal: request.signal }).catch(() => {});
      if (request.signal.aborted) throw new LlmCallError('aborted', 'call aborted');
      await writeOut(text, tokensPerSecond, request.signal);
      if (request.signal.aborted) throw new LlmCallError('aborted', 'call aborted');
      const response: LlmResponse = {
        text,
        model: request.model,
        inputTokens: Math.ceil((request.system.length + request.prompt.length) / 4),
        outputTokens: Math.ceil(text.length / 4),
      };
      return response;
    },
  };
}

/** Takes as long as writing the answer out at `tokensPerSecond` would (about four characters a token). */
async function writeOut(text: string, tokensPerSecond: number, signal: AbortSignal) {
  if (tokensPerSecond <= 0) return;
  const tokens = Math.ceil(text.length / 4);
  // An aborted wait ends early and rejects; the caller answers the abort.
  await sleep((tokens / tokensPerSecond) * 1000, undefined, { signal }).catch(() => {});
}

/** Words that place a question in a domain, checked in this order; none gives `other`. */
const DOMAIN_KEYWORDS: readonly [string, RegExp][] = [
  ['health', /\b(health|medical|doctor|diet|fitness|clinic|patient|therapy|sleep)\b/i],
  ['legal', /\b(legal|law|lawyer|contract|lawsuit|compliance|gdpr|licen[cs]e|court)\b/i],
  ['finance', /\b(invest|investment|stock|loan|mortgage|budget|savings|tax|crypto|finance|pension)\b/i],
  ['education', /\b(school|university|degree|course|study|learn|teach|student|bootcamp)\b/i],
  [
    'technology',
    /\b(software|api|database|kubernetes|cloud|framework|rewrite|migrate|code|ai|tech|server)\b/i,
  ],
  [
    'business',
    /\b(business|market|customer|startup|office|hire|hiring|pricing|revenue|product|company|team)\b/i,
  ],
  ['personal', /\b(move|family|career|relationship|house|home|wedding|personal|job|vacation)\b/i],
];

/** The simulated classifier: deterministic keywords, so domains work offline and in tests. */
export function simulatedDomain(question: string): string {
  return DOMAIN_KEYWORDS.find(([, pattern]) => pattern.test(question))?.[0] ?? 'other';
}

function statusOf(kind: LlmFailureKind): number | undefined {
  return { rate_limited: 429, server: 500, client: 400, timeout: undefined, aborted: undefined }[kind];
}

function simulatedTurn(request: LlmRequest): string {
  const h = request.hints;
  if (!h) return `${SIMULATED_LABEL} No debate context was given.`;
  const random = seededRandom(`${h.question}|${h.agent}|${h.round}`);
  const [first, second] = shuffle(random, POINTS[h.stance]);
  const parts = [`${SIMULATED_LABEL} ${h.agent} (${h.role}): ${pick(random, OPENERS[h.stance])}`];
  if (h.round > 1 && h.opponents.length > 0) {
    const opponent = pick(random, h.opponents);
    const shown = shownClaims(request.prompt);
    const rebutted = shown.find((claim) => claim.agent === opponent);
    const cite = (kind: 'rebuts' | 'supports', claim: ShownClaim | undefined) =>
      claim ? ` ${citationTag(kind, claim.claimId)}` : '';
    parts.push(`Responding to ${opponent}${cite('rebuts', rebutted)}: that argument misses that ${first}.`);
    // Builds on one other claim it was shown (another agent's when there is one), as the prompt asks.
    const others = shown.filter((claim) => claim.agent !== opponent && claim.agent !== h.agent);
    const own = shown.find((claim) => claim.agent === h.agent);
    const built = others.length > 0 ? pick(random, others) : own;
    if (built) parts.push(`I build on what ${built.agent} said${cite('supports', built)}.`);
  } else {
    parts.push(`On "${truncate(h.question, 80)}", my first point is that ${first}.`);
  }
  parts.push(`Second, ${second}.`);
  for (const note of h.injected)
    parts.push(`Taking into account the new input ("${truncate(note, 60)}"), my view holds.`);
  for (const name of h.attached ?? []) parts.push(`I have read the attached "${truncate(name, 60)}".`);
  const { position, joined } = simulatedPosition(h);
  if (joined) parts.push('Having weighed the panel, I now lean with its majority.');
  return `${parts.join(' ')}\n${positionLine(position)}`;
}

/** The recommendation each lean argues for on its own. */
const OWN_VIEW = {
  for: { recommendation: 'PROCEED', stance: 'for' },
  against: { recommendation: 'REJECT', stance: 'against' },
  mixed: { recommendation: 'RECONSIDER', stance: 'mixed' },
} as const;

/**
 * The simulated agent's stated position. Each question has a view the panel drifts towards and an
 * agreeableness (both seeded by the question): an agent states the panel's view with a chance that grows by
 * round — blind round one rarely, later rounds more often, faster on agreeable questions — and its own lean's
 * otherwise. A stand-in for agents persuading one another, so convergence and early stop have something to
 * measure offline; not a model of real debates.
 */
export function simulatedPosition(h: SimulationHints): { position: TurnPosition; joined: boolean } {
  const topic = seededRandom(`${h.question}|consensus`);
  const agreeable = topic();
  const panelView = pick(topic, ['for', 'against', 'mixed'] as const);
  const random = seededRandom(`${h.question}|${h.agent}|${h.round}|position`);
  const chance = Math.min(1, 0.15 + 0.35 * agreeable + (h.round - 1) * (0.2 + 0.4 * agreeable));
  const joined = h.stance !== panelView && random() < chance;
  const confidence = Math.round((0.55 + 0.4 * random()) * 100) / 100;
  const options = h.options ?? 0;
  if (options >= 2) {
    const letters = Array.from({ length: options }, (_, i) => optionLetter(i));
    const ranking = joined || h.stance === panelView ? shuffle(topic, letters) : shuffle(random, letters);
    return { position: { ranking }, joined };
  }
  const view = OWN_VIEW[joined ? panelView : h.stance];
  return { position: { ...view, confidence }, joined };
}

type ShownClaim = { claimId: string; agent: string };

/** The claims of the round before as the debater prompt lists them: `- [a1-r1-cfo] CFO: …`. */
const shownClaims = (prompt: string): ShownClaim[] =>
  [...prompt.matchAll(/^- \[(a\d+-r\d+-[a-z0-9-]+)\] (.+?): /gm)].map((m) => ({
    claimId: m[1] ?? '',
    agent: m[2] ?? '',
  }));

/** The judge: counts the stances it was shown and answers with a verdict that matches them. */
function simulatedVerdictJson(request: LlmRequest): string {
  const stances = [...request.prompt.matchAll(/^- (.+?) \[(for|against|mixed)\]/gm)].map((m) => ({
    agent: m[1] ?? '',
    stance: m[2] as 'for' | 'against' | 'mixed',
  }));
  const pro = stances.filter((s) => s.stance === 'for').length;
  const con = stances.filter((s) => s.stance === 'against').length;
  const recommendation: Recommendation =
    stances.length === 0
      ? 'MORE_INFO_NEEDED'
      : pro > con
        ? 'PROCEED'
        : con > pro
          ? 'REJECT'
          : 'SPLIT_DECISION';
  const margin = stances.length ? Math.abs(pro - con) / stances.length : 0;
  const verdict: Omit<Verdict, 'missingAgents'> = {
    recommendation,
    oneLiner: `${SIMULATED_LABEL} ${pro} for, ${con} against: ${recommendation.toLowerCase().replace('_', ' ')}.`,
    confidence: Math.round((0.5 + margin / 2) * 100) / 100,
    narrative: `${SIMULATED_LABEL} This verdict comes from the simulated judge, not a language model. It weighed ${stances.length} agents.`,
    arguments: stances.map((s) => ({
      agent: s.agent,
      stance: s.stance,
      keyPoints: [`${SIMULATED_LABEL} argued ${s.stance}`],
    })),
    keyEvidence: [],
    decisionMatrix: [],
    nextSteps: [`${SIMULATED_LABEL} Run this debate with a real provider key for a substantive verdict.`],
    revisitTriggers: [],
  };
  return JSON.stringify(verdict);
}

function shuffle<T>(random: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
