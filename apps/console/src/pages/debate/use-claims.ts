import { useEffect, useState } from 'react';
import type { Claim } from '../../components/diagram/argument-graph-layout.ts';
import { client } from '../../lib/api.ts';

export type ClaimsState = {
  claims: Claim[];
  /** True once the stream has ended: the debate finished (or never will say more). */
  ended: boolean;
  error: unknown;
};

/** Claims reach the page in batches at most this often, so a replay is laid out once, not per event. */
const BATCH_MS = 250;

/**
 * The debate's claims (argument and rebuttal events) from its stream: replayed from the start, then live
 * until the debate finishes. The stream has a budget of its own, apart from the account's requests.
 */
export function useClaims(id: string): ClaimsState {
  const [state, setState] = useState<ClaimsState>({ claims: [], ended: false, error: undefined });
  useEffect(() => {
    const controller = new AbortController();
    const claims: Claim[] = [];
    let flush: ReturnType<typeof setTimeout> | undefined;
    const publish = (ended: boolean, error?: unknown) => {
      clearTimeout(flush);
      flush = undefined;
      if (!controller.signal.aborted) setState({ claims: [...claims], ended, error });
    };
    setState({ claims: [], ended: false, error: undefined });
    void (async () => {
      try {
        for await (const event of client.debates.stream(id, { signal: controller.signal })) {
          if (event.type !== 'argument' && event.type !== 'rebuttal') continue;
          const { claimId, agent, round } = event.data;
          claims.push({
            claimId,
            agent,
            round,
            kind: event.type,
            targetAgent: event.type === 'rebuttal' ? event.data.targetAgent : null,
          });
          flush ??= setTimeout(() => publish(false), BATCH_MS);
        }
        publish(true);
      } catch (error) {
        publish(true, error);
      }
    })();
    return () => {
      controller.abort();
      clearTimeout(flush);
    };
  }, [id]);
  return state;
}
