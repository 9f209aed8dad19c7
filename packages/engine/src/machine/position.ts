import { Recommendation, Stance, TurnPosition } from '@verdict/contracts';

/**
 * The machine-readable line a debater ends its turn with, and its reader. The line is taken out of the
 * turn's text: the stored and streamed content is the argument a person reads, the position goes beside it
 * (on the turn's row and event), so the next round and the judge read arguments, not JSON.
 */
export const POSITION_PREFIX = 'POSITION:';

/** The letters a comparison's options are ranked by: A for the first option given, and so on. */
export const optionLetter = (index: number) => String.fromCharCode(65 + index);

/** What the debater prompt asks for, per kind of debate. */
export function positionInstruction(options: readonly string[] | null): string {
  if (options && options.length > 0) {
    const letters = options.map((_, i) => optionLetter(i));
    return (
      `End with one last line, exactly: ${POSITION_PREFIX} {"ranking": [${letters.map((l) => `"${l}"`).join(', ')}]} ` +
      '— every option letter once, best first.'
    );
  }
  return (
    `End with one last line, exactly: ${POSITION_PREFIX} {"recommendation": "PROCEED"|"RECONSIDER"|"REJECT"|` +
    '"DEFER"|"MORE_INFO_NEEDED", "stance": "for"|"against"|"mixed", "confidence": 0..1} — your own current view.'
  );
}

export type ReadTurn = { content: string; position: TurnPosition | null };

/**
 * Splits a turn into its argument and its position. Lenient: the last `POSITION:` line wins, wherever it
 * stands, in any case; prose or a code fence around its object, a lower-case or spaced recommendation and a
 * percentage confidence are repaired; a field that is still wrong is dropped, not the whole position. A
 * turn with no such line, or none whose object parses, has an unknown position (null) and keeps its text as
 * it was. A ranking keeps only the known letters, each once (`letters`: the comparison's).
 */
export function readTurn(text: string, letters: readonly string[] | null = null): ReadTurn {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const at = line.toUpperCase().indexOf(POSITION_PREFIX);
    if (at === -1) continue;
    const position = parsePosition(line.slice(at + POSITION_PREFIX.length), letters);
    if (!position) return { content: text, position: null };
    const before = line.slice(0, at).trim();
    const kept = [...lines.slice(0, i), ...(before ? [before] : []), ...lines.slice(i + 1)];
    return { content: kept.join('\n').trim(), position };
  }
  return { content: text, position: null };
}

function parsePosition(rest: string, letters: readonly string[] | null): TurnPosition | null {
  const start = rest.indexOf('{');
  const end = rest.lastIndexOf('}');
  if (start === -1 || end <= start) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(rest.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const fields = raw as Record<string, unknown>;
  const position: TurnPosition = {};
  const recommendation = Recommendation.safeParse(
    typeof fields.recommendation === 'string'
      ? fields.recommendation
          .trim()
          .toUpperCase()
          .replace(/[\s-]+/g, '_')
      : undefined,
  );
  if (recommendation.success) position.recommendation = recommendation.data;
  const stance = Stance.safeParse(
    typeof fields.stance === 'string' ? fields.stance.trim().toLowerCase() : undefined,
  );
  if (stance.success) position.stance = stance.data;
  const confidence = fields.confidence;
  if (typeof confidence === 'number' && Number.isFinite(confidence) && confidence >= 0) {
    const fraction = confidence > 1 && confidence <= 100 ? confidence / 100 : confidence;
    if (fraction <= 1) position.confidence = fraction;
  }
  if (Array.isArray(fields.ranking)) {
    const seen = new Set<string>();
    for (const item of fields.ranking) {
      if (typeof item !== 'string') continue;
      const letter = item.trim().toUpperCase();
      if (seen.has(letter) || (letters ? !letters.includes(letter) : !/^[A-Z]$/.test(letter))) continue;
      seen.add(letter);
    }
    if (seen.size > 0) position.ranking = [...seen];
  }
  const parsed = TurnPosition.safeParse(position);
  return parsed.success && Object.keys(parsed.data).length > 0 ? parsed.data : null;
}

/** The line a debater writes for `position`: what the simulated model and test fakes end their turns with. */
export const positionLine = (position: TurnPosition) => `${POSITION_PREFIX} ${JSON.stringify(position)}`;
