/**
 * Header lines each HTTP server writes its own way, whatever the route: the time, uWebSockets.js's mark,
 * and how the body and connection are framed. Comparing two servers' answers, these are left out.
 */
export const INCIDENTAL_HEADERS: ReadonlySet<string> = new Set([
  'date',
  'uwebsockets',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);
