import type { OpenApiRouter } from 'trpc-to-openapi';
import type { Meta } from '../trpc/meta.ts';

type Def = { type: string; coerce?: boolean; [key: string]: unknown };
type Schema = { _zod: { def: Def } };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WRAPPERS = ['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch'];

/**
 * trpc-to-openapi turns on zod's coercion for every number and boolean of every input schema on each REST
 * request — meant for query strings, but it also reaches JSON bodies (and, as it mutates the shared schema,
 * tRPC too): `"rateLimit": "10"` would be accepted. For procedures that take a body, this pins `coerce` to
 * false on those schemas, so JSON keeps its types; query-string procedures keep the coercion they need.
 */
export function keepBodyTypesStrict(router: OpenApiRouter) {
  for (const procedure of Object.values(router._def.procedures) as unknown as {
    _def: { meta?: Meta; inputs?: Schema[] };
  }[]) {
    const openapi = procedure._def.meta?.openapi;
    if (!openapi || !BODY_METHODS.has(openapi.method)) continue;
    const pathParams = new Set([...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    for (const input of procedure._def.inputs ?? []) lock(input, pathParams);
  }
}

function lock(schema: Schema, skipKeys = new Set<string | undefined>(), seen = new Set<Def>()) {
  const def = schema._zod.def;
  if (seen.has(def)) return;
  seen.add(def);
  if (['number', 'boolean', 'bigint', 'date'].includes(def.type)) {
    // Already pinned when another server was built in this process (tests build several).
    if (Object.getOwnPropertyDescriptor(def, 'coerce')?.get) return;
    Object.defineProperty(def, 'coerce', { get: () => false, set: () => {}, configurable: false });
    return;
  }
  const child = (value: unknown) => value && lock(value as Schema, undefined, seen);
  if (def.type === 'object') {
    for (const [key, value] of Object.entries(def.shape as Record<string, Schema>)) {
      if (!skipKeys.has(key)) child(value);
    }
  } else if (WRAPPERS.includes(def.type)) child(def.innerType);
  else if (def.type === 'array') child(def.element);
  else if (def.type === 'record') child(def.valueType);
  else if (def.type === 'union') for (const option of def.options as Schema[]) child(option);
  else if (def.type === 'pipe') {
    child(def.in);
    child(def.out);
  }
}
