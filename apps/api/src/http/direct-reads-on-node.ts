import type { IncomingMessage, ServerResponse } from 'node:http';
import { unexpectedFailure } from '@verdict/core';
import { type DirectReads, leavesToFastify } from './direct-reads.ts';
import { writeAppError } from './envelope.ts';

/**
 * Answers a plain read on Node's http (direct-reads.ts) if the request is one; false leaves it to Fastify.
 * Node has parsed the request already: what is saved is Fastify's routing, hooks and reply. `onFailure`
 * hears of a failure past the procedure's, whose answer is the 500 envelope.
 */
export function takeOnNode(
  reads: DirectReads,
  req: IncomingMessage,
  res: ServerResponse,
  onFailure: (err: unknown) => void,
): boolean {
  const url = req.url ?? '';
  const queryAt = url.indexOf('?');
  const direct = reads.find(
    req.method ?? '',
    queryAt < 0 ? url : url.slice(0, queryAt),
    queryAt < 0 ? undefined : url.slice(queryAt),
  );
  if (direct === undefined) return false;
  for (const name in req.headers) if (leavesToFastify(name)) return false;
  const request = reads.request(
    direct,
    req.headers as Record<string, string>,
    () => req.socket.remoteAddress,
  );
  reads
    .answer(direct, request)
    .then((answer) => {
      // As through Fastify: a request whose client left has no line, no metric.
      if (res.destroyed) return;
      const headers: string[] = [];
      for (const [name, value] of reads.securityHeaders.entries) headers.push(name, value);
      for (const [name, value] of answer.headers) headers.push(name, value);
      headers.push('content-length', String(Buffer.byteLength(answer.body)));
      request.settle(false);
      res.writeHead(answer.status, headers);
      res.end(answer.body);
      reads.answered(direct, request, answer.status);
    })
    .catch((err: unknown) => {
      onFailure(err);
      if (res.headersSent || res.destroyed) return void res.destroy();
      writeAppError(res, unexpectedFailure(err));
    });
  return true;
}
