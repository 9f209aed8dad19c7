import type { ErrorCode } from '@verdict/contracts';
import type { OpenApiMeta } from 'trpc-to-openapi';

export type AuthKind = 'none' | 'user' | 'key' | 'optional';

/**
 * What a route can fail with beyond what every route of its kind can (authentication, rate limits, body
 * parsing, CSRF, 500 — see openapi/route-errors.ts), and what each failure means on this route.
 */
export type RouteErrors = Partial<Record<ErrorCode, string>>;

export type Meta = OpenApiMeta<{
  /** Which credentials the route accepts: none, session cookie or key (/api), key only (/v1). */
  auth?: AuthKind;
  /** REST success status; tRPC keeps 200. */
  successStatus?: 200 | 201 | 204;
  /** Marks the route deprecated: Deprecation, Sunset and Link headers, and `deprecated` in OpenAPI. */
  deprecation?: { sunset: Date; link: string };
  errors?: RouteErrors;
  /** Sends X-RateLimit-* although it takes no credentials (sign-up's per-IP budget). */
  rateLimitHeaders?: boolean;
  /** A route the interface specification does not name: marked as an extension in the document. */
  extension?: boolean;
  /** Its success sets (or clears) the session cookie: Set-Cookie in the document. */
  setsSessionCookie?: boolean;
  /**
   * Input fields that are secrets when they arrive in the URL (a path or query parameter, or tRPC's `input`):
   * request log lines and spans show them as [redacted] (http/url-redaction.ts).
   */
  secretParameters?: readonly string[];
}>;

const templates = new Map<string, string>();

/**
 * A path as Fastify writes it: "/v1/verdicts/{id}" is "/v1/verdicts/:id". Remembered, as procedures ask it
 * on every call; only the routes' own paths are ever asked.
 */
export function routeTemplate(path: string): string {
  let template = templates.get(path);
  if (template === undefined) {
    template = path.replace(/\{(\w+)\}/g, ':$1');
    templates.set(path, template);
  }
  return template;
}
