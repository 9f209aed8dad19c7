/**
 * The one line that says the server is up: the base URL clients use (PUBLIC_BASE_URL), the API reference
 * and the OpenAPI document under it, and the address the socket is bound to. Tests and scripts wait for
 * its `listening at http://…` part.
 */
export function readyLine(publicBaseUrl: string, listeningAt: string): string {
  // PORT=0 without PUBLIC_BASE_URL: the default base URL names port 0 until the kernel has chosen one.
  const base = publicBaseUrl.replace(/:0$/, `:${new URL(listeningAt).port}`);
  return `ready: ${base} — API reference ${base}/docs, OpenAPI document ${base}/openapi.json (listening at ${listeningAt})`;
}
