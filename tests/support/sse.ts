export type SseMessage = { id: number; event: string; data: Record<string, unknown> };

/**
 * Reads an SSE stream until it ends, `stopAfter` messages arrived, or the signal aborts. Returns the
 * messages and whether the server closed the stream. `onMessage` is awaited on each message as it arrives,
 * before the next one is read: what it reads happens right after the client received that message.
 */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  options: {
    stopAfter?: number;
    timeoutMs?: number;
    onMessage?: (message: SseMessage) => Promise<void> | void;
  } = {},
): Promise<{
  status: number;
  headers: Headers;
  messages: SseMessage[];
  closedByServer: boolean;
  /** Each `retry:` the server sent, in ms (a server that is shutting down sends one last). */
  retries: number[];
}> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 30_000);
  const res = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  if (!res.body || res.status !== 200) {
    clearTimeout(timer);
    return { status: res.status, headers: res.headers, messages, closedByServer: true, retries };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  let closedByServer = false;
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((line) => line && !line.startsWith(':'))
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
        );
        if (fields.retry !== undefined) retries.push(Number(fields.retry));
        if (fields.data === undefined) continue;
        const message = {
          id: Number(fields.id),
          event: fields.event ?? 'message',
          data: JSON.parse(fields.data),
        };
        messages.push(message);
        await options.onMessage?.(message);
        if (options.stopAfter && messages.length >= options.stopAfter) {
          controller.abort();
          return { status: res.status, headers: res.headers, messages, closedByServer: false, retries };
        }
      }
    }
    closedByServer = true;
  } catch (err) {
    if (!controller.signal.aborted) {
      // Stop the body too: an onMessage that threw leaves it half read.
      controller.abort();
      throw err;
    }
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, headers: res.headers, messages, closedByServer, retries };
}
