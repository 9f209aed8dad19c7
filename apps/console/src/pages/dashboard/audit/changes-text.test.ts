import { describe, expect, it } from 'vitest';
import { actorText, changeLines } from './changes-text.ts';

describe('an audit entry as the console shows it', () => {
  it('reads each change as a line: changed values, secrets, set and cleared fields', () => {
    expect(
      changeLines({
        name: { before: 'draft', after: 'final' },
        secret: { changed: true },
        url: { before: null, after: 'https://a.example/hook' },
        description: { before: 'old', after: null },
        events: { before: ['a'], after: ['a', 'b'] },
      }),
    ).toEqual([
      'name: draft → final',
      'secret: changed',
      'url: set to https://a.example/hook',
      'description: cleared (was old)',
      'events: ["a"] → ["a","b"]',
    ]);
    expect(changeLines({})).toEqual([]);
  });

  it('names the actor by kind', () => {
    expect(actorText({ kind: 'user', id: 'u1', keyId: null })).toBe('User u1');
    expect(actorText({ kind: 'key', id: 'u1', keyId: 'k1' })).toBe('Key k1 of user u1');
    expect(actorText({ kind: 'operator', id: 'set-plan', keyId: null })).toBe('Operator (set-plan)');
    expect(actorText({ kind: 'system', id: 'stripe', keyId: null })).toBe('Service (stripe)');
  });
});
