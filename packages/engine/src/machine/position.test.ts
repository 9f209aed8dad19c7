import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionLine, readTurn } from './position.ts';

describe('reading a turn’s position', () => {
  it('takes the POSITION line out of the text and keeps the argument', () => {
    const text =
      'Go ahead: the upside is clear.\nPOSITION: {"recommendation":"PROCEED","stance":"for","confidence":0.7}';
    expect(readTurn(text)).toEqual({
      content: 'Go ahead: the upside is clear.',
      position: { recommendation: 'PROCEED', stance: 'for', confidence: 0.7 },
    });
  });

  it('repairs what is safe: case, spacing, a fence, a percentage; drops a wrong field, not the position', () => {
    const text =
      'Wait.\n**position:** ```{"recommendation":"more info needed","stance":"Mixed","confidence":65, "x":1}```';
    expect(readTurn(text).position).toEqual({
      recommendation: 'MORE_INFO_NEEDED',
      stance: 'mixed',
      confidence: 0.65,
    });
    expect(readTurn('POSITION: {"recommendation":"MAYBE","stance":"for","confidence":700}').position).toEqual(
      {
        stance: 'for',
      },
    );
  });

  it('reads a ranking by the comparison’s letters, each once', () => {
    const text = 'B wins.\nPOSITION: {"ranking":["b","A","b","Z","C"]}';
    expect(readTurn(text, ['A', 'B', 'C']).position).toEqual({ ranking: ['B', 'A', 'C'] });
  });

  it('leaves a turn without a readable position as it was, with an unknown position', () => {
    for (const text of [
      'No line here.',
      'POSITION: none of your business',
      'POSITION: {"stance": 3}',
      'POSITION: [1]',
    ]) {
      expect(readTurn(text)).toEqual({ content: text, position: null });
    }
  });

  it('gives back any position it writes, and the text before it (property)', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.toUpperCase().includes('POSITION:')),
        fc.constantFrom('PROCEED', 'REJECT', 'DEFER'),
        fc.constantFrom('for', 'against', 'mixed'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (argument, recommendation, stance, confidence) => {
          const position = { recommendation, stance, confidence } as const;
          const read = readTurn(`${argument}\n${positionLine(position)}`);
          expect(read.position).toEqual(position);
          expect(read.content).toBe(argument.trim());
        },
      ),
    );
  });
});
