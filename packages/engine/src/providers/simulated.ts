import { setTimeout as sleep } from 'node:timers/promises';
import { citationTag, type TurnPosition } from '@verdict/contracts';
import { optionLetter, positionLine } from '../machine/position.ts';
import { promptWithDocuments } from './documents.ts';
import {
  LlmCallError,
  type LlmFailureKind,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type SimulationHints,
} from './port.ts';
import { pick, seededRandom } from './seeded-random.ts';
import { evidenceLines } from './simulated-evidence.ts';
import { simulatedVerdictJson } from './simulated-judge.ts';
import { LEAN_VIEW, SIMULATED_LABEL, viewOf } from './simulated-views.ts';

/**
 * SIMULATED debater and judge (simulated-judge.ts): no network, no keys. Used in embedded mode when no
 * provider key is configured, and labelled "simulated" in every model name, turn and verdict it produces.
 * Given passages (request.documents), a debater turn cites and quotes them, some quotes deliberately wrong
 * (simulated-evidence.ts states the rule).
 */
export type SimulatedOptions = {
  /** Delay before the first token, per call. */
  firstTokenMs?: number;
  /** Writing rate after the first token: an answer takes its length in tokens at this rate; 0 answers at once. */
  tokensPerSecond?: number;
  /** Failure injection: return a kind to make this call fail with it. */
  fail?: (request: LlmRequest) => LlmFailureKind | null;
};

export { SIMULATED_LABEL };

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
            ? simulatedVerdictJson(request.prompt)
            : simulatedTurn(request);
      // An aborted wait ends early and rejects; the abort is answered just below.
      if (firstTokenMs > 0) await sleep(firstTokenMs, undefined, { signal: request.signal }).catch(() => {});
      if (request.signal.aborted) throw new LlmCallError('aborted', 'call aborted');
      await writeOut(text, tokensPerSecond, request.signal);
      if (request.signal.aborted) throw new LlmCallError('aborted', 'call aborted');
      const response: LlmResponse = {
        text,
        model: request.model,
        // Sized as a provider that reads the passages in the prompt would be sent them (documents.ts).
        inputTokens: Math.ceil((request.system.length + promptWithDocuments(request).length) / 4),
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
  const { position } = simulatedPosition(h);
  // It argues the side it states, which is not always its seat's lean.
  const side = position.stance ?? h.stance;
  const [first, second] = shuffle(random, POINTS[side]);
  const opener = position.ranking
    ? `Of the options, I rank ${position.ranking[0]} first.`
    : pick(random, OPENERS[side]);
  const parts = [`${SIMULATED_LABEL} ${h.agent} (${h.role}): ${opener}`];
  const evidence = citedEvidence(request);
  // Round one is blind: nothing in it may refer to another agent, so only later rounds rebut and cite.
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
    parts.push(`On "${inert(truncate(h.question, 80))}", my first point is that ${first}.`);
  }
  const [right, wrong] = evidence.quoted;
  if (right) parts.push(right);
  parts.push(`Second, ${second}${evidence.bare ? ` ${evidence.bare}` : ''}.`);
  if (wrong) parts.push(wrong);
  const why = h.round === 1 ? ownReading(h, position) : changeOfView(h, position);
  if (why) parts.push(why);
  for (const note of h.injected)
    parts.push(`I have taken the moderator's new input ("${inert(truncate(note, 60))}") into account.`);
  for (const name of h.attached ?? []) parts.push(`I have read the attached "${inert(truncate(name, 60))}".`);
  return `${parts.join(' ')}\n${positionLine(position)}`;
}

/** The turn's citations of its passages, seeded by the turn and the passages it was given. */
function citedEvidence(request: LlmRequest) {
  const documents = request.documents ?? [];
  const h = request.hints;
  if (documents.length === 0 || !h) return { quoted: [], bare: null };
  const ids = documents.map((document) => document.evidenceId).join(',');
  return evidenceLines(documents, seededRandom(`${h.question}|${h.agent}|${h.round}|evidence|${ids}`));
}

/** Text the turn repeats from its input, kept from reading as a citation of a passage it was not given. */
const inert = (text: string) => text.replace(/\[(E\d)/g, '($1');

const BRIEF = { for: 'argue for', against: 'argue against', mixed: 'weigh both sides' } as const;

/**
 * Why an agent states other than its seat's lean when it has stated nothing before (always so in round
 * one, where nobody has spoken): its own reading. A comparison's ranking has no lean to differ from.
 */
function ownReading(h: SimulationHints, position: TurnPosition): string | null {
  if (!position.recommendation || position.recommendation === LEAN_VIEW[h.stance].recommendation) return null;
  const of = h.round === 1 ? 'the question' : 'the debate so far';
  return `My brief is to ${BRIEF[h.stance]}, but my own reading of ${of} comes down on ${position.recommendation}.`;
}

/**
 * From round two, what moved the agent when its view differs from the one it stated the round before: the
 * panel's majority (more than half of that round's speakers stated the view it now takes), or, back on its
 * lean, its own reading, or else the arguments. Nothing when its view holds or the round before is not
 * known (no hint); with no readable position of its own the round before, it explains itself as in round one.
 */
function changeOfView(h: SimulationHints, position: TurnPosition): string | null {
  const now = viewOf(position);
  if (!h.previous || now === null) return null;
  const before = viewOf(h.previous.find((turn) => turn.agent === h.agent)?.position);
  if (before === null) return ownReading(h, position);
  if (before === now) return null;
  const backing = h.previous.filter((turn) => viewOf(turn.position) === now).length;
  if (backing * 2 > h.previous.length)
    return `Having weighed the panel, I now lean with its majority: ${now}.`;
  if (position.ranking)
    return `The arguments of round ${h.round - 1} have changed my view: I now rank ${now} first.`;
  if (now === LEAN_VIEW[h.stance].recommendation)
    return `On reflection I return to my own reading: I come down on ${now}.`;
  return `The arguments of round ${h.round - 1} have changed my view: I now come down on ${now}.`;
}

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
  const view = LEAN_VIEW[joined ? panelView : h.stance];
  return { position: { ...view, confidence }, joined };
}

type ShownClaim = { claimId: string; agent: string };

/** The claims of the round before as the debater prompt lists them: `- [a1-r1-cfo] CFO: …`. */
const shownClaims = (prompt: string): ShownClaim[] =>
  [...prompt.matchAll(/^- \[(a\d+-r\d+-[a-z0-9-]+)\] (.+?): /gm)].map((m) => ({
    claimId: m[1] ?? '',
    agent: m[2] ?? '',
  }));

function shuffle<T>(random: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
