import { AppError } from '@verdict/core';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { type Meta, routeTemplate } from '../trpc/meta.ts';

type Def = { type: string; innerType?: Schema; in?: Schema; shape?: Record<string, Schema> };
type Schema = { _zod: { def: Def } };

const WRAPPERS = ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'];

/** A number as a query string writes it: decimal digits, maybe signed, maybe with a fraction. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

function isNumber(schema: Schema): boolean {
  const def = schema._zod.def;
  if (def.type === 'number') return true;
  if (WRAPPERS.includes(def.type) && def.innerType) return isNumber(def.innerType);
  if (def.type === 'pipe' && def.in) return isNumber(def.in);
  return false;
}

/**
 * The query parameters each GET route reads as numbers. trpc-to-openapi coerces them with `Number()`, which
 * also reads `0x1f`, `1e3`, `0b11` or ` 7 ` as numbers, where the document says an integer: such text is
 * refused here, before the coercion, and decimal text goes on to the input schema (range, integer).
 */
export function queryNumberGuard(router: OpenApiRouter) {
  // By the route's template as Fastify names it ("/api/debates/:id"): one lookup per request.
  const numberKeys = new Map<string, string[]>();
  for (const procedure of Object.values(router._def.procedures) as unknown as {
    _def: { meta?: Meta; inputs?: Schema[] };
  }[]) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi?.method !== 'GET') continue;
    const keys = (procedure._def.inputs ?? []).flatMap((input) =>
      Object.entries(input._zod.def.shape ?? {})
        .filter(([, schema]) => isNumber(schema))
        .map(([key]) => key),
    );
    if (keys.length > 0) numberKeys.set(routeTemplate(openapi.path), keys);
  }

  return (request: { method: string; routeOptions: { url?: string }; query: unknown }): AppError | null => {
    if (request.method !== 'GET') return null;
    const keys = numberKeys.get(request.routeOptions.url ?? '');
    if (!keys) return null;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const bad = keys.filter((key) =>
      [query[key] ?? []].flat().some((value) => typeof value === 'string' && !DECIMAL.test(value)),
    );
    if (bad.length === 0) return null;
    return new AppError('VALIDATION_ERROR', 'Request validation failed', {
      details: bad.map((key) => ({
        path: key,
        message: 'Expected a number in decimal digits',
        code: 'invalid_type',
      })),
    });
  };
}
