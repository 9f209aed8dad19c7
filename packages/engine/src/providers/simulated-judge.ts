import {
  type AgentArgument,
  Recommendation,
  Stance,
  type TurnPosition,
  type Verdict,
} from '@verdict/contracts';
import { LEAN_VIEW, SIMULATED_LABEL, viewOf } from './simulated-views.ts';

/**
 * The SIMULATED judge. It reads the judge prompt back (machine/prompts.ts#judgePrompt: the Panel's
 * `- Name [lean] (role)` lines and each transcript turn's `[position: …]` note, past any evidence lines
 * listed under a turn) and rules on what the agents
 * last stated, never on their seats' leans — so its verdict, its dissent and its counts agree with the
 * transcript and with convergence (machine/convergence.ts), which measures the same stated positions.
 */
export function simulatedVerdictJson(prompt: string): string {
  return JSON.stringify(simulatedVerdict(prompt));
}

/** Where an agent ended: its last stated position, or, having stated none readable, its seat's lean. */
type Ending = {
  agent: string;
  /** A recommendation, or in a comparison the option letter it ranked first. */
  view: string;
  stance: string;
  confidence: number | undefined;
  /** The round of the position read; null when read by lean. */
  round: number | null;
  ranking: readonly string[] | undefined;
};

/**
 * - recommendation: the view most agents ended on — in a comparison PROCEED (with the option most agents
 *   ranked first); a tie between the most-backed views is SPLIT_DECISION; nobody to read, MORE_INFO_NEEDED.
 * - confidence = share × certainty: share = the agents behind the most-backed view ÷ the agents read, and
 *   certainty = the mean, over those backers (all tied views' on a split), of 0.5 + confidence / 2 — the
 *   weight convergence gives a stated confidence, 0.75 when none was stated. A unanimous panel scores
 *   0.5–1 and a split one at most 0.5, and a split or doubtful panel less than a sure one.
 */
function simulatedVerdict(prompt: string): Omit<Verdict, 'missingAgents'> {
  const endings = endingsOf(prompt);
  const comparison = endings.some((ending) => ending.ranking !== undefined);
  const groups = new Map<string, Ending[]>();
  for (const ending of endings) groups.set(ending.view, [...(groups.get(ending.view) ?? []), ending]);
  // Most-backed first; equal backing keeps the order the views were first met in (panel order).
  const ranked = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
  const top = ranked[0]?.[1].length ?? 0;
  const leaders = ranked.filter(([, backers]) => backers.length === top);
  const winner = leaders.length === 1 ? (leaders[0]?.[0] ?? null) : null;
  const recommendation: Recommendation =
    endings.length === 0
      ? 'MORE_INFO_NEEDED'
      : winner === null
        ? 'SPLIT_DECISION'
        : comparison
          ? 'PROCEED'
          : (winner as Recommendation);
  const backers = leaders.flatMap(([, group]) => group);
  const certainty =
    backers.reduce((sum, ending) => sum + 0.5 + (ending.confidence ?? 0.5) / 2, 0) / (backers.length || 1);
  const share = endings.length ? top / endings.length : 0;
  const byLean = endings.filter((ending) => ending.round === null).length;

  const counts = ranked.map(([view, group], i) =>
    comparison
      ? `${i === 0 ? `${group.length} of ${endings.length} agents` : group.length} ranked ${view} first`
      : i === 0
        ? `${group.length} of ${endings.length} agents ended on ${view}`
        : `${group.length} on ${view}`,
  );
  const outcome = comparison && winner !== null ? `proceed with option ${winner}` : words(recommendation);
  const leanNote =
    byLean > 0 ? ` (${byLean} stated no position and ${byLean === 1 ? 'is' : 'are'} read by lean)` : '';
  const oneLiner =
    endings.length === 0
      ? `${SIMULATED_LABEL} No agent stated a position: ${outcome}.`
      : `${SIMULATED_LABEL} ${counts.join(', ')}${leanNote}: ${outcome}.`;

  return {
    recommendation,
    oneLiner,
    confidence: Math.round(share * certainty * 100) / 100,
    narrative:
      `${SIMULATED_LABEL} This verdict comes from the simulated judge, not a language model. It read the last ` +
      `position each of ${endings.length} agents stated: ${endings.map(summary).join('; ') || 'none'}.`,
    arguments: endings.map(
      (ending): AgentArgument => ({
        agent: ending.agent,
        stance: ending.stance,
        keyPoints: [`${SIMULATED_LABEL} ${summary(ending)}`],
      }),
    ),
    keyEvidence: [],
    decisionMatrix: [],
    nextSteps: [`${SIMULATED_LABEL} Run this debate with a real provider key for a substantive verdict.`],
    revisitTriggers: [],
  };
}

/** The side a recommendation stated without its stance is on: a lean's own, else mixed. */
const stanceOf = (recommendation: string): Stance =>
  Object.values(LEAN_VIEW).find((view) => view.recommendation === recommendation)?.stance ?? 'mixed';

const words = (recommendation: Recommendation) => recommendation.toLowerCase().replaceAll('_', ' ');

function summary(ending: Ending): string {
  if (ending.round === null) return `${ending.agent} stated no position; read by its lean, ${ending.view}`;
  const stated = ending.ranking
    ? `ranked ${ending.ranking.join(' > ')}`
    : `ended on ${ending.view}${ending.confidence !== undefined ? ` (confidence ${ending.confidence})` : ''}`;
  return `${ending.agent} ${stated} in round ${ending.round}`;
}

type SpokenTurn = { agent: string; round: number; position: TurnPosition | null };

/**
 * Every agent that spoke, where it ended: the position of its latest turn with a readable one (a
 * comparison's ranking, else a recommendation), or its seat's lean when none of its turns had one. A seat
 * that never spoke stated nothing and is not read; neither is a comparison's agent with no ranking (a lean
 * ranks no option). In order of the Panel lines, then of first speaking.
 */
function endingsOf(prompt: string): Ending[] {
  const { leans, turns } = readJudgePrompt(prompt);
  const comparison = turns.some((turn) => turn.position?.ranking !== undefined);
  const readable = (position: TurnPosition | null) =>
    comparison ? position?.ranking !== undefined : position?.recommendation !== undefined;
  const agents = [...new Set([...leans.keys(), ...turns.map((turn) => turn.agent)])];
  return agents.flatMap((agent): Ending[] => {
    const spoken = turns.filter((turn) => turn.agent === agent);
    if (spoken.length === 0) return [];
    const last = spoken.filter((turn) => readable(turn.position)).sort((a, b) => b.round - a.round)[0];
    const lean = leans.get(agent);
    if (last?.position) {
      const { position } = last;
      const view = viewOf(position) as string;
      return [
        {
          agent,
          view,
          stance: comparison ? `${view} first` : (position.stance ?? stanceOf(view)),
          confidence: position.confidence,
          round: last.round,
          ranking: position.ranking,
        },
      ];
    }
    if (comparison || !lean) return [];
    const { recommendation, stance } = LEAN_VIEW[lean];
    return [{ agent, view: recommendation, stance, confidence: undefined, round: null, ranking: undefined }];
  });
}

const SEAT_LINE = /^- (.+) \[(for|against|mixed)\] \(.*\)$/;
const TURN_START = /^Round (\d+), (.+?): /;
const NOTE_START = ' [position: ';
/**
 * A line of a turn's verified evidence, which judgePrompt lists under the turn when the evidence engine is
 * on (`  evidence: [E3] "quote" (report.pdf)`): not part of the argument, so not where its note is looked for.
 */
const EVIDENCE_LINE = /^\s+evidence: \[E\d+\]/;

/** The Panel's leans and the transcript's turns, as judgePrompt wrote them. */
function readJudgePrompt(prompt: string): { leans: Map<string, Stance>; turns: SpokenTurn[] } {
  const lines = prompt.split('\n');
  const leans = new Map<string, Stance>();
  const panelAt = lines.indexOf('Panel:');
  for (let i = panelAt + 1; panelAt !== -1 && i < lines.length; i++) {
    const seat = SEAT_LINE.exec(lines[i] as string);
    if (!seat) break;
    leans.set(seat[1] as string, seat[2] as Stance);
  }
  const turns: (SpokenTurn & { text: string })[] = [];
  const transcriptAt = lines.indexOf('Transcript:', panelAt + 1);
  for (let i = transcriptAt + 1; transcriptAt !== -1 && i < lines.length; i++) {
    const line = lines[i] as string;
    if (EVIDENCE_LINE.test(line)) continue;
    const start = TURN_START.exec(line);
    const current = turns.at(-1);
    if (start) {
      const text = line.slice(start[0].length);
      turns.push({ agent: start[2] as string, round: Number(start[1]), position: null, text });
    } else if (current) current.text += `\n${line}`;
  }
  // A turn's note follows the last line of its argument (an argument may run over several lines).
  return { leans, turns: turns.map(({ text, ...turn }) => ({ ...turn, position: noteOf(text) })) };
}

/**
 * Reads `[position: ranking B > A, PROCEED, for, confidence 0.7]` back; null without one. The note ends the
 * argument's last line, which is not always the turn's last: after the last turn, the prompt's closing
 * words on evidence follow it.
 */
function noteOf(text: string): TurnPosition | null {
  const line = text
    .split('\n')
    .reverse()
    .find((candidate) => candidate.endsWith(']') && candidate.includes(NOTE_START));
  if (!line) return null;
  const at = line.lastIndexOf(NOTE_START);
  const position: TurnPosition = {};
  for (const part of line.slice(at + NOTE_START.length, -1).split(', ')) {
    const recommendation = Recommendation.safeParse(part);
    const stance = Stance.safeParse(part);
    const confidence = /^confidence (\d+(?:\.\d+)?)$/.exec(part);
    if (part.startsWith('ranking ')) position.ranking = part.slice('ranking '.length).split(' > ');
    else if (recommendation.success) position.recommendation = recommendation.data;
    else if (stance.success) position.stance = stance.data;
    else if (confidence) position.confidence = Math.min(1, Number(confidence[1]));
  }
  return Object.keys(position).length > 0 ? position : null;
}
