import { TRPCError } from '@trpc/server';
import type { Services } from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptsRequestBody,
  coerceSchema,
  getInputOutputParsers,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  type OpenApiProcedure,
  type OpenApiRouter,
  unwrapZodType,
} from 'trpc-to-openapi';
import { ZodArray } from 'zod';
import { toAppError } from '../trpc/app-errors.ts';
import { contextFactory } from '../trpc/context.ts';
import { routeTemplate } from '../trpc/meta.ts';
import type { RequestLinks } from '../trpc/request-links.ts';
import { responseMeta } from '../trpc/response-meta.ts';
import { callProcedure, leanChain, type ProcedureDefinition } from './call-procedure.ts';
import { envelopeOf } from './envelope.ts';

type ProcedureFn = { _def: ProcedureDefinition };

/** What the dispatcher knows of an operation before its first request. */
export type Operation = {
  /** The procedure's middleware chain, called by call-procedure.ts. */
  chain: ProcedureDefinition;
  /** The procedure's name in the router ("debates.get"): what tRPC middlewares see as `path`. */
  name: string;
  /** The request's input comes from its JSON body (POST, PUT, PATCH) or from its query string. */
  usesBody: boolean;
  /** The input schema takes nothing (void): the procedure gets `undefined`. */
  takesNoInput: boolean;
  /** Query parameters the schema reads as arrays: a single `?ids=a` still arrives as `['a']`. */
  arrayKeys: Set<string>;
};

export type RestDispatchOptions = {
  router: OpenApiRouter;
  services: Services;
  onError: (failure: { error: { code: string; cause?: unknown }; req: unknown }) => void;
};

/**
 * One Fastify route per REST operation of the router (`meta.openapi`), each calling its tRPC procedure
 * directly: Fastify's radix router finds the operation, its parsed body, query and params are the input, and
 * the answer is written once. What trpc-to-openapi's handler did for each request — scan every route's
 * regular expression, merge and walk the input schemas to switch coercion on, build a WHATWG Request, a
 * router caller and an abort signal — is done here once at start, or not at all; what a request sees is the
 * same: the same input to the same procedure, the same status, headers and body, every error in the
 * envelope (openapi/fuzz.integration.test.ts and the generated-client suites hold it so).
 */
export function registerRestDispatch(rest: FastifyInstance, options: RestDispatchOptions) {
  const createContext = contextFactory(options.services, 'rest');
  const procedures = options.router._def.procedures as unknown as Record<string, ProcedureFn>;
  for (const [name, procedure] of Object.entries(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    if (!openapi || procedure._def.type === ('subscription' as string)) continue;
    const operation = prepareOperation(name, procedure, openapi.method);
    const secretParameters = procedure._def.meta?.secretParameters;
    rest.route({
      method: openapi.method,
      url: routeTemplate(openapi.path),
      ...(secretParameters ? { config: { secretParameters } } : {}),
      handler: (request, reply) => dispatch(operation, request, reply, createContext, options.onError),
    });
  }
}

export function prepareOperation(name: string, procedure: ProcedureFn, method: string): Operation {
  const { inputParser } = getInputOutputParsers(procedure as unknown as OpenApiProcedure);
  const schema = unwrapZodType(inputParser, true);
  const usesBody = acceptsRequestBody(method as 'GET');
  const arrayKeys = new Set<string>();
  if (instanceofZodTypeObject(schema)) {
    // Query strings carry only text: numbers and booleans of the input are read from it. A body's types
    // stay strict (http/body-coercion.ts pins them before this runs).
    coerceSchema(schema);
    if (!usesBody) {
      for (const [key, shape] of Object.entries(schema.shape)) {
        const inner = instanceofZodTypeOptional(shape) ? shape.unwrap() : shape;
        if (inner instanceof ZodArray) arrayKeys.add(key);
      }
    }
  }
  return {
    chain: leanChain(procedure._def),
    name,
    usesBody,
    takesNoInput: instanceofZodTypeLikeVoid(schema),
    arrayKeys,
  };
}

async function dispatch(
  operation: Operation,
  request: FastifyRequest,
  reply: FastifyReply,
  createContext: ReturnType<typeof contextFactory>,
  onError: RestDispatchOptions['onError'],
) {
  const answer = await runOperation(
    operation,
    request,
    () => {
      if (operation.usesBody && !request.headers['content-type']?.startsWith('application/json')) {
        const contentType = request.headers['content-type'];
        throw new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: contentType ? `Unsupported content-type "${contentType}` : 'Missing content-type header',
        });
      }
      const input = operation.takesNoInput ? undefined : inputOf(operation, request);
      return { ctx: createContext({ req: request, res: reply }), input };
    },
    onError,
    (req) => reply.server.linksOf?.(req),
  );
  return reply
    .code(answer.status)
    .header('content-type', 'application/json')
    .headers(answer.headers)
    .send(answer.body);
}

/** What an operation answers: its status, the headers it collected, and the JSON text (none for no data). */
export type OperationAnswer = { status: number; headers: Record<string, string>; body: string | undefined };

type Context = ReturnType<ReturnType<typeof contextFactory>>;

/**
 * Runs an operation's procedure for one request and says what to answer, every failure as its envelope:
 * `prepare` gives the context and input (or throws the request's refusal), `onError` hears of each error,
 * `linksOf` gives the bases an envelope's links go on. Shared by Fastify's routes (above) and the direct
 * reads (direct-reads.ts), so both answer alike.
 */
export async function runOperation(
  operation: Pick<Operation, 'chain' | 'name'>,
  request: FastifyRequest,
  prepare: () => { ctx: Context; input: unknown },
  onError: RestDispatchOptions['onError'],
  linksOf: (request: FastifyRequest) => RequestLinks | undefined,
): Promise<OperationAnswer> {
  let ctx: Context | undefined;
  try {
    const prepared = prepare();
    ctx = prepared.ctx;
    const data = await callProcedure(operation.chain, {
      ctx,
      getRawInput: async () => prepared.input,
      path: operation.name,
      type: operation.chain.type,
      signal: undefined,
      batchIndex: 0,
    });
    const meta = responseMeta({ ctx, errors: [] });
    return { ...meta, body: data === undefined ? undefined : JSON.stringify(data) };
  } catch (cause) {
    const error =
      cause instanceof TRPCError
        ? cause
        : new TRPCError({
            code: 'INTERNAL_SERVER_ERROR',
            message: 'Internal server error',
            cause: cause instanceof Error ? cause : undefined,
          });
    onError({ error, req: request });
    const meta = responseMeta({ ctx, errors: [error] });
    return { ...meta, body: JSON.stringify(envelopeOf(toAppError(error), linksOf(request))) };
  }
}

/**
 * The procedure's input as trpc-to-openapi would build it: the body's fields, or the query's (a parameter
 * given once is its value, given several times the list of them, and always a list where the schema takes
 * one), then the path's parameters over both.
 */
function inputOf(operation: Operation, request: FastifyRequest): Record<string, unknown> {
  const params = request.params as Record<string, string>;
  if (operation.usesBody) return { ...(request.body as object | undefined), ...params };
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.query as Record<string, unknown>)) {
    const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
    input[key] = operation.arrayKeys.has(key) && !Array.isArray(single) ? [single] : single;
  }
  return Object.assign(input, params);
}
