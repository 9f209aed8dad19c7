import { useEffect, useReducer, useState } from 'react';
import { client, messageOf } from './api.ts';
import { applyEvent, type DebateLog, EMPTY_LOG } from './debate-log.ts';

export type DebateEvents = {
  log: DebateLog;
  /** Connected and following, between reconnects, or done (the debate ended, or the stream failed). */
  connection: 'connecting' | 'live' | 'ended' | 'failed';
  error: string | null;
};

/**
 * A debate's events from its SSE stream, replayed from the start then live: the SDK's iterator reconnects
 * after a dropped connection with Last-Event-ID, and the log ignores any event it already applied, so a
 * reconnect never shows a turn twice. The stream ends after the debate does.
 */
export function useDebateEvents(id: string): DebateEvents {
  const [log, dispatch] = useReducer(applyEvent, EMPTY_LOG);
  const [connection, setConnection] = useState<DebateEvents['connection']>('connecting');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setConnection('connecting');
    setError(null);
    (async () => {
      try {
        for await (const event of client.debates.stream(id, { signal: controller.signal })) {
          setConnection('live');
          dispatch(event);
        }
        if (!controller.signal.aborted) setConnection('ended');
      } catch (caught) {
        if (controller.signal.aborted) return;
        setConnection('failed');
        setError(messageOf(caught));
      }
    })();
    return () => controller.abort();
  }, [id]);

  return { log, connection, error };
}
