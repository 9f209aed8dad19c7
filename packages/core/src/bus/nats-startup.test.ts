import { describe, expect, it } from 'vitest';
import { natsStartupProblem, StreamReplicasUnavailable } from './nats-startup.ts';

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

  it('says how many servers the stream replicas asked for need, for a lone server and a cluster too small', () => {
    const alone = natsStartupProblem(new StreamReplicasUnavailable(3, null), ['nats://u:pw@a:4222']);
    expect(alone?.message).toBe(
      'NATS_STREAM_REPLICAS=3 asks for 3 copies of each stream, but NATS at a:4222 is a single server, not a ' +
        'cluster: list the servers of a NATS cluster of at least 3 with JetStream in NATS_URL, or set ' +
        'NATS_STREAM_REPLICAS=1 (NATS_URL=nats://a:4222)',
    );
    const small = new StreamReplicasUnavailable(5, 'east', 'no suitable peers for placement');
    expect(natsStartupProblem(small, ['a:4222', 'b:4222', 'c:4222'])?.message).toBe(
      'NATS_STREAM_REPLICAS=5 asks for 5 copies of each stream, but NATS cluster "east" at a:4222, b:4222, ' +
        'c:4222 cannot place them (JetStream: no suitable peers for placement): it needs at least 5 servers ' +
        'with JetStream up; start them, or set NATS_STREAM_REPLICAS=1 (NATS_URL=a:4222,b:4222,c:4222)',
    );
  });
});
