import { describe, expect, it } from 'vitest';
import { streamData } from './debate-stream-data.ts';

const debateId = '5f0c6b1e-8a4c-4d8e-9a51-0c3f1b6f2a10';

describe('streamData', () => {
  it('sends the verdict confidence as a whole-number percent and keeps the other fields', () => {
    const verdict = { recommendation: 'DEFER', oneLiner: 'Wait.', confidence: 0.644, reasoning: 'Split.' };
    expect(streamData('verdict', verdict)).toEqual({ ...verdict, confidence: 64 });
    expect(streamData('verdict', { ...verdict, confidence: 0.005 })).toMatchObject({ confidence: 1 });
    expect(streamData('verdict', { ...verdict, confidence: 0 })).toMatchObject({ confidence: 0 });
    expect(streamData('verdict', { ...verdict, confidence: 1 })).toMatchObject({ confidence: 100 });
    expect(verdict.confidence).toBe(0.644); // the input is not mutated
  });

  it('sends the calibrated confidence in percent too, with how it was made, and adds none that is absent', () => {
    const calibration = { method: 'platt-shrinkage', basedOn: 42, scope: 'domain' };
    const verdict = {
      recommendation: 'PROCEED',
      oneLiner: 'Go.',
      confidence: 0.9,
      calibratedConfidence: 0.716,
      calibration,
      reasoning: 'Mostly for.',
    };
    expect(streamData('verdict', verdict)).toEqual({ ...verdict, confidence: 90, calibratedConfidence: 72 });
    const { calibratedConfidence: _, calibration: __, ...raw } = verdict;
    expect(streamData('verdict', raw)).not.toHaveProperty('calibratedConfidence');
  });

  it('passes every other event through unchanged', () => {
    const cases: [string, unknown][] = [
      ['debate.started', { debateId, mode: 'fast', panel: [], rounds: 2 }],
      ['argument', { agent: 'Optimist', round: 1, content: 'Yes.', model: 'simulated/sonnet' }],
      [
        'rebuttal',
        { agent: 'Skeptic', round: 2, content: 'No.', model: 'simulated/haiku', targetAgent: 'Optimist' },
      ],
      ['debate.completed', { debateId, status: 'completed' }],
      ['debate.failed', { debateId, error: 'Provider down', code: 'PROVIDER_ERROR' }],
      ['round.started', { round: 1, injected: [] }],
      ['agent.thinking', { agent: 'Optimist', round: 1 }],
      ['synthesis.started', { skipped: false }],
      ['debate.resumed', {}],
      ['some.future.event', { confidence: 0.5 }],
    ];
    for (const [type, data] of cases) expect(streamData(type, data)).toBe(data);
  });

  it('leaves a verdict without a numeric confidence alone', () => {
    const odd = { recommendation: 'DEFER', oneLiner: 'Wait.', reasoning: 'Split.' };
    expect(streamData('verdict', odd)).toBe(odd);
  });
});
