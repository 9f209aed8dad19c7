import type { HttpResponse } from '@btc-vision/uwebsockets.js';
import { unexpectedFailure } from '@verdict/core';
import { envelopeOf } from '../envelope.ts';

/** The 500 envelope straight on uWebSockets.js's response: nothing of the bridge could be made. */
export function answerUnexpected(res: HttpResponse) {
  const body = JSON.stringify(envelopeOf(unexpectedFailure(new Error('the request could not be read'))));
  res.cork(() => {
    res.writeStatus('500 Internal Server Error').writeHeader('Content-Type', 'application/json').end(body);
  });
}
