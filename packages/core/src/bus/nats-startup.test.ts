import { describe, expect, it } from 'vitest';
import { natsStartupProblem } from './nats-startup.ts';

const refused = new Error('connection refused', {
  cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
});

describe('NATS start-up problems', () => {
  it('names every server of NATS_URL without its credentials', () => {
    const problem = natsStartupProblem(refused, ['nats://user:pw@a.internal:4222', 'tok3n@b.internal']);
    expect(problem?.message).toBe(
      'cannot reach NATS at a.internal:4222, b.internal:4222 (connection refused); is it running? ' +
        'NATS_URL=nats://a.internal:4222,b.internal',
    );
    expect(problem?.message).not.toMatch(/pw|tok3n/);
  });

  it('says a NATS without JetStream needs it, and leaves any other failure alone', () => {
    const noJetStream = Object.assign(new Error('jetstream is not enabled'), { name: 'JetStreamNotEnabled' });
    expect(natsStartupProblem(noJetStream, ['nats://127.0.0.1:4222'])?.message).toMatch(
      /^NATS at 127\.0\.0\.1:4222 has no JetStream, .*start nats-server with -js/,
    );
    expect(natsStartupProblem(new Error('bad subject'), ['nats://127.0.0.1:4222'])).toBeNull();
  });
});
