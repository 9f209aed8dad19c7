import { CHAIN_CONTEXT_MAX, type ChainRelationship } from '@verdict/contracts';
import type { StoredNode } from './chain-views.ts';

/** How far a question or one-liner is shortened when the chain does not fit whole. */
const CLIPPED_TEXT_MAX = 120;

const RELATIONSHIP_WORDS: Record<ChainRelationship, string> = {
  follow_up: 'follow-up',
  reversal: 'reversal',
  refinement: 'refinement',
};

/** `text` on one line, at most `max` characters, an ellipsis marking a cut (never half a surrogate pair). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, Math.max(0, max - 1));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

type Entry = { number: number; node: StoredNode; parentNumber: number | null };

function describe(entry: Entry, textMax: number): string {
  const { node, number, parentNumber } = entry;
  const link =
    node.relationship === null
      ? 'first decision'
      : `${RELATIONSHIP_WORDS[node.relationship]}${parentNumber === null ? '' : ` of #${parentNumber}`}`;
  const { recommendation, confidence, oneLiner, status } = node.debate;
  const verdict =
    recommendation === null
      ? `no verdict (${status})`
      : `${recommendation}${confidence === null ? '' : ` (${Math.round(confidence * 100)}% confidence)`}` +
        (oneLiner ? `: ${clip(oneLiner, textMax)}` : '');
  return `#${number} (${link}) ${clip(node.debate.question, textMax)}\n   Verdict: ${verdict}`;
}

/**
 * The chain summed up for the `context` of a next debate, within CHAIN_CONTEXT_MAX characters: each
 * debate's question and verdict (recommendation, confidence, one-liner), in the order added. Deleted
 * debates are left out. When the whole text is too long, the oldest debates give way first, since the
 * latest decisions matter most to the next one: their question and one-liner are shortened, oldest first;
 * if that is not enough, the oldest are left out (the root last), a line saying how many.
 */
export function chainContext(
  name: string,
  nodes: StoredNode[],
): { context: string; nodes: number; truncated: boolean } {
  const shown = nodes.filter((node) => !node.deleted);
  const numbers = new Map(shown.map((node, i) => [node.debateId, i + 1]));
  const entries: Entry[] = shown.map((node, i) => ({
    number: i + 1,
    node,
    parentNumber: node.parentDebateId === null ? null : (numbers.get(node.parentDebateId) ?? null),
  }));
  const header = `Earlier decisions of the chain "${clip(name, 200)}", oldest first:`;
  const texts = entries.map((entry) => describe(entry, Number.POSITIVE_INFINITY));
  const kept = entries.map(() => true);
  const render = () => {
    const omitted = kept.filter((k) => !k).length;
    const lines = [header];
    if (omitted > 0) lines.push(`(${omitted} earlier decision${omitted === 1 ? '' : 's'} left out)`);
    texts.forEach((text, i) => {
      if (kept[i]) lines.push(text);
    });
    return lines.join('\n');
  };

  let context = render();
  let truncated = false;
  for (let i = 0; i < entries.length && context.length > CHAIN_CONTEXT_MAX; i++) {
    texts[i] = describe(entries[i] as Entry, CLIPPED_TEXT_MAX);
    context = render();
    truncated = true;
  }
  // Oldest first but the root (the frame of the whole chain) last.
  const dropOrder = [...entries.keys()].slice(1).concat(entries.length > 0 ? [0] : []);
  for (const i of dropOrder) {
    if (context.length <= CHAIN_CONTEXT_MAX) break;
    kept[i] = false;
    context = render();
    truncated = true;
  }
  // Unreachable with names of at most 200 characters; kept so the limit never depends on that.
  if (context.length > CHAIN_CONTEXT_MAX) {
    context = context.slice(0, CHAIN_CONTEXT_MAX);
    truncated = true;
  }
  return { context, nodes: kept.filter(Boolean).length, truncated };
}
