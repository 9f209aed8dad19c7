import { Health, Readiness, StreamEventData } from '@verdict/contracts';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { attachmentPaths } from './attachment-operations.ts';
import { auditPaths } from './audit-operations.ts';
import { headerRefs } from './components.ts';
import { errorResponses, SECURITY_BY_AUTH } from './responses.ts';
import { routeErrors } from './route-errors.ts';
import { ssoPaths } from './sso-operations.ts';

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

function notificationStreamOperation() {
  const errors = routeErrors(
    {
      auth: 'user',
      errors: {
        VALIDATION_ERROR: 'A Last-Event-ID that is not a notification id',
        RATE_LIMITED: 'Over the stream budget: stream opens per minute, counted apart from requests',
        SERVICE_UNAVAILABLE: 'The server is shutting down, or could not subscribe; retry shortly',
      },
    },
    { method: 'GET', takesInput: false },
  );
  return {
    operationId: 'notifications-stream',
    summary: 'Follow your notifications as Server-Sent Events',
    description: [
      '`connected` (data: {"userId"}) once, then a `notification` message (data: a Notification, `id:` its',
      'id) for each notification created after connecting, wherever it was created, oldest first, and `ping`',
      '(data: "") every 30 seconds. A first connection gets nothing from before (read GET /api/notifications',
      'for that). A reconnect that sends back the last id it received as Last-Event-ID (as EventSource does)',
      'first gets the notifications stored after it, oldest first, then the new ones: none missed, none',
      "twice; an id that is not one of the caller's replays nothing. Opening counts against the stream",
      'budget (STREAM_OPENS_PER_MINUTE).',
    ].join(' '),
    tags: ['notifications'],
    security: SECURITY_BY_AUTH.user,
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description:
          'Resume after this notification (what EventSource sends when it reconnects); empty is none',
        schema: { type: 'string', maxLength: 36 },
      },
    ],
    responses: {
      '200': {
        description: 'The stream',
        headers: headerRefs(STREAM_LIMIT_HEADERS),
        content: {
          'text/event-stream': {
            schema: {
              description: 'One SSE message: event connected, notification or ping',
              oneOf: [
                {
                  type: 'object',
                  properties: {
                    event: { const: 'connected' },
                    data: {
                      type: 'object',
                      properties: { userId: { type: 'string' } },
                      required: ['userId'],
                    },
                  },
                },
                {
                  type: 'object',
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    event: { const: 'notification' },
                    data: { $ref: '#/components/schemas/Notification' },
                  },
                },
                { type: 'object', properties: { event: { const: 'ping' }, data: { const: '' } } },
              ],
            },
          },
        },
      },
      ...errorResponses(errors, [...STREAM_LIMIT_HEADERS]),
    },
  };
}

const UNSUBSCRIBE_PARAMETERS = [
  { name: 'userId', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } },
  { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: ['comments', 'forks'] } },
  {
    name: 'token',
    in: 'query',
    required: true,
    description: 'HMAC-SHA256 (hex) from the email link',
    schema: { type: 'string', maxLength: 200 },
  },
];

function unsubscribeOperation() {
  const html = (description: string) => ({
    description,
    content: { 'text/html': { schema: { type: 'string' } } },
  });
  return {
    operationId: 'unsubscribe',
    summary: 'Turn off one kind of notification email from its link',
    description:
      'The link at the bottom of each notification email. Answers a small HTML page, errors included: ' +
      '400 for a link that is incomplete, altered or forged (the token is checked in constant time).',
    tags: ['notifications'],
    security: [],
    parameters: UNSUBSCRIBE_PARAMETERS,
    responses: {
      '200': html('That email is now off'),
      '400': html('The link is malformed, altered or forged'),
      '500': html('Unexpected failure'),
    },
  };
}

const publicDebateOptions = {
  operationId: 'sharing-publicDebatePreflight',
  summary: 'CORS preflight of the public read',
  description:
    'Answers 204 with Access-Control-Allow-Origin *, Access-Control-Allow-Methods GET, OPTIONS and ' +
    'Access-Control-Allow-Headers Content-Type.',
  tags: ['public'],
  security: [],
  parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
  responses: {
    '204': { description: 'Any origin may read the shared debate', headers: headerRefs([]) },
    ...errorResponses(
      new Map([
        ['VALIDATION_ERROR', 'A path that cannot be decoded (bad percent-encoding)'],
        ['INTERNAL_ERROR', 'Unexpected failure; the message carries no internals'],
      ]),
      [],
    ),
  },
};

function stripeWebhookOperation() {
  const errors = routeErrors(
    {
      errors: {
        VALIDATION_ERROR:
          'Stripe-Signature missing, or not a valid signature of the body with the webhook secret',
        BILLING_NOT_CONFIGURED: 'STRIPE_WEBHOOK_SECRET or STRIPE_SECRET_KEY is not set',
        SERVICE_UNAVAILABLE:
          'The payment processor did not answer a read the event needs; it will deliver again',
      },
    },
    { method: 'POST', takesInput: true },
  );
  return {
    operationId: 'billing-webhook',
    summary: "The payment processor's events (Stripe webhook endpoint)",
    description: [
      '**Extension**: the specification does not name it; the billing flow needs it. Called by Stripe, not',
      'by clients: the body is verified against Stripe-Signature with STRIPE_WEBHOOK_SECRET, byte for byte.',
      'Handles checkout.session.completed (credits once, plan set), invoice.paid and invoice.payment_failed',
      '(invoice rows, monthly credits), customer.subscription.created/updated/deleted (plan changes). Each',
      'event applies once: a replay answers 200 with duplicate true and changes nothing. Other types: 200,',
      'ignored.',
    ].join(' '),
    tags: ['billing'],
    security: [],
    'x-extension': true,
    parameters: [
      {
        name: 'Stripe-Signature',
        in: 'header',
        required: true,
        description: 't=<timestamp>,v1=<HMAC-SHA256 of "<timestamp>.<body>">',
        schema: { type: 'string', maxLength: 2048 },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', description: 'A Stripe event object', additionalProperties: true },
        },
      },
    },
    responses: {
      '200': {
        description: 'Applied now, or seen before (duplicate) and left as it was',
        headers: headerRefs([]),
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { received: { const: true }, duplicate: { type: 'boolean' } },
              required: ['received', 'duplicate'],
              additionalProperties: false,
            },
          },
        },
      },
      ...errorResponses(errors, []),
    },
  };
}

/** Routes served by plain Fastify handlers, described by hand: health, streams, files and webhooks. */
export function plainRoutePaths() {
  const health = createSchema(Health.meta({ id: 'Health' }), { io: 'output' });
  const readiness = createSchema(Readiness.meta({ id: 'Readiness' }), { io: 'output' });
  const attachments = attachmentPaths();
  return {
    schemas: {
      ...health.components,
      ...readiness.components,
      ...streamMessageSchemas(),
      ...attachments.schemas,
    },
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
      '/ready': {
        get: {
          operationId: 'ready',
          summary: 'Readiness for a load balancer: database, bus, migrations, and not shutting down',
          description:
            'Whether to send this process work. Unlike /health it also asks the bus and the schema, and it ' +
            'answers 503 from the moment the process receives SIGTERM (SHUTDOWN_DELAY_MS), while what it has ' +
            'in flight finishes. The 503 carries every check in `error.checks`.',
          tags: ['health'],
          security: [],
          'x-extension': true,
          responses: {
            '200': {
              description: 'Every check passed',
              headers: headerRefs([]),
              content: { 'application/json': { schema: readiness.schema } },
            },
            ...errorResponses(
              new Map([
                [
                  'SERVICE_UNAVAILABLE',
                  'A check failed, or the process is shutting down (error.checks says which)',
                ],
                ['INTERNAL_ERROR', 'Unexpected failure; the message carries no internals'],
              ]),
              [],
            ),
          },
        },
      },
      '/v1/verdicts/{id}/stream': { get: streamOperation('key', false) },
      '/api/debates/{id}/stream': { get: streamOperation('user', true) },
      '/api/notifications/stream': { get: notificationStreamOperation() },
      '/api/unsubscribe': { get: unsubscribeOperation() },
      '/api/public/debates/{token}': { options: publicDebateOptions },
      '/api/billing/webhook': { post: stripeWebhookOperation() },
      ...attachments.paths,
      ...auditPaths(),
      ...ssoPaths(),
    },
  };
}
