import { STATUS_CODES } from 'node:http';
import type { HttpRequest, HttpResponse } from '@btc-vision/uwebsockets.js';
import { type DirectReads, leavesToFastify } from '../direct-reads.ts';
import { peerAddress } from './bridged-request.ts';
import { answerUnexpected } from './unexpected-answer.ts';

/**
 * Answers a plain read on uWebSockets.js (direct-reads.ts) if the request is one; false leaves it to
 * Fastify through the bridge. `onDone` is called once the answer is written or the client gone;
 * `onFailure` hears of a failure past the procedure's, whose answer is the 500 envelope.
 */
export function takeOnUws(
  reads: DirectReads,
  res: HttpResponse,
  req: HttpRequest,
  onDone: () => void,
  onFailure: (err: unknown) => void,
): boolean {
  // Not getMethod(): it lower-cases the method in uWebSockets.js's buffer, and Fastify, reading it after,
  // would route `get`, which no route takes.
  const direct = reads.find(req.getCaseSensitiveMethod(), req.getUrl(), req.getQuery());
  if (direct === undefined) return false;
  const headers = plainHeaders(req);
  if (headers === null) return false;
  const request = reads.request(direct, headers, () => peerAddress(res));
  res.onAborted(() => request.settle(true));
  reads
    .answer(direct, request)
    .then((answer) => {
      // As through Fastify: a request whose client left has no line, no metric.
      if (request.aborted) return;
      let head = `${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${reads.securityHeaders.wire}`;
      for (const [name, value] of answer.headers) head += `\r\n${name}: ${value}`;
      request.settle(false);
      res.cork(() => {
        res.writeStatus(head);
        res.end(answer.body);
      });
      reads.answered(direct, request, answer.status);
    })
    .catch((err: unknown) => {
      onFailure(err);
      if (!request.written && !request.aborted) {
        request.settle(false);
        answerUnexpected(res);
      }
    })
    .finally(onDone);
  return true;
}

/**
 * The request's headers, or null when it is not plain: a header that leaves it to Fastify, one given twice
 * (Node's rules for joining them are the bridge's), or `Connection: close` (Fastify's answer closes).
 */
function plainHeaders(req: HttpRequest): Record<string, string> | null {
  const headers: Record<string, string> = {};
  let plain = true;
  req.forEach((name, value) => {
    if (!plain) return;
    if (
      leavesToFastify(name) ||
      headers[name] !== undefined ||
      (name === 'connection' && value.toLowerCase().includes('close'))
    ) {
      plain = false;
    } else headers[name] = value;
  });
  return plain ? headers : null;
}
