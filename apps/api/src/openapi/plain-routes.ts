import { Health, StreamEventData } from '@verdict/contracts';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { headerRefs } from './components.ts';
import { errorResponses, SECURITY_BY_AUTH } from './responses.ts';
import { routeErrors } from './route-errors.ts';

type Schema = Record<string, unknown>;

const pascal = (text: string) =>
  text
    .split(/[._-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** One SSE message per event type: `id:` (the event's seq), `event:` (its type) and `data:` (JSON). */
function streamMessageSchemas() {
  const schemas: Record<string, Schema> = {};
  const refs: { $ref: string }[] = [];
  for (const [type, data] of Object.entries(StreamEventData)) {
    const name = `${pascal(type)}Event`;
    const message = z
      .object({
        id: z.string().regex(/^\d+$/).max(20).meta({ description: 'The event seq (SSE `id:`)' }),
        event: z.literal(type).meta({ description: 'The event type (SSE `event:`)' }),
        data: data as z.ZodType,
      })
      .meta({ id: name, description: `The \`${type}\` message of a debate stream` });
    Object.assign(schemas, createSchema(message, { io: 'output' }).components);
    refs.push({ $ref: `#/components/schemas/${name}` });
  }
  schemas.DebateStreamMessage = {
    description:
      'One Server-Sent Events message of a debate stream; `data` is the JSON of the fields below. Keep-alive ' +
      'comments (`: keep-alive`) come in between while a debate runs.',
    oneOf: refs,
  };
  return schemas;
}

const STREAM_PARAMETERS = [
  {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: 'Resume after this event (what EventSource sends when it reconnects); empty is no event',
    schema: { type: 'string', pattern: '^\\d*$', maxLength: 20 },
  },
  {
    name: 'lastEventId',
    in: 'query',
    required: false,
    description: 'Resume after this event, for a first connection; Last-Event-ID wins',
    schema: { type: 'string', pattern: '^\\d+$', maxLength: 20 },
  },
];

const STREAM_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

function streamOperation(auth: 'key' | 'user', extension: boolean) {
  const errors = routeErrors(
    {
      auth,
      errors: {
        NOT_FOUND: 'Missing, deleted, or a private debate of another account',
        RATE_LIMITED: 'Over the stream budget: stream opens per minute, counted apart from requests',
      },
    },
    { method: 'GET', takesInput: true },
  );
  return {
    operationId: auth === 'key' ? 'v1-streamVerdict' : 'debates-stream',
    summary: 'Follow a debate as Server-Sent Events',
    description: [
      ...(extension ? ['**Extension**: the specification does not name the route streamUrl points to.'] : []),
      'Replays the stored events of the current attempt after Last-Event-ID, then follows live ones until',
      '`debate.completed` or `debate.failed`, then closes. A finished debate answers its events at once; with',
      'nothing left after Last-Event-ID it answers 204, which stops EventSource from reconnecting. Opening a',
      'stream counts against its own per-minute budget (STREAM_OPENS_PER_MINUTE), not the request budget.',
    ].join(' '),
    tags: [auth === 'key' ? 'v1' : 'debates'],
    security: SECURITY_BY_AUTH[auth],
    ...(extension ? { 'x-extension': true } : {}),
    parameters: STREAM_PARAMETERS,
    responses: {
      '200': {
        description: 'The stream: one message per event, in seq order',
        headers: headerRefs(STREAM_LIMIT_HEADERS),
        content: { 'text/event-stream': { schema: { $ref: '#/components/schemas/DebateStreamMessage' } } },
      },
      '204': {
        description: 'The debate is finished and nothing follows Last-Event-ID',
        headers: headerRefs(STREAM_LIMIT_HEADERS),
      },
      ...errorResponses(errors, [...STREAM_LIMIT_HEADERS]),
    },
  };
}

/** Routes served by plain Fastify handlers, described by hand: health and the two debate streams. */
export function plainRoutePaths() {
  const health = createSchema(Health.meta({ id: 'Health' }), { io: 'output' });
  return {
    schemas: { ...health.components, ...streamMessageSchemas() },
    paths: {
      '/health': {
        get: {
          operationId: 'health',
          summary: 'Readiness: the process and its database answer',
          tags: ['health'],
          security: [],
          responses: {
            '200': {
              description: 'The process and its database answer',
              headers: headerRefs([]),
              content: { 'application/json': { schema: health.schema } },
            },
            ...errorResponses(
              new Map([
                ['SERVICE_UNAVAILABLE', 'The database does not answer'],
                ['INTERNAL_ERROR', 'Unexpected failure; the message carries no internals'],
              ]),
              [],
            ),
          },
        },
      },
      '/v1/verdicts/{id}/stream': { get: streamOperation('key', false) },
      '/api/debates/{id}/stream': { get: streamOperation('user', true) },
    },
  };
}
