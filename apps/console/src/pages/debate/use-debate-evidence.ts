import { useMemo } from 'react';
import { client } from '../../lib/api.ts';
import { type Passages, passagesOf } from '../../lib/passages.ts';
import { useLoad } from '../../lib/use-load.ts';

/**
 * A debate's passages from its evidence read, read once, and only when a turn cites one (`wanted`): a page
 * of a debate without citations asks nothing. Refused for the reader's plan (402), it says so with the
 * envelope's upgrade hint instead of failing.
 */
export function useDebateEvidence(id: string, wanted: boolean): Passages {
  const { data, error, loading } = useLoad(
    (signal) => (wanted ? client.debates.evidence(id, { signal }) : Promise.resolve(null)),
    [id, wanted],
  );
  return useMemo(() => passagesOf({ wanted, loading, data, error }), [wanted, loading, data, error]);
}
