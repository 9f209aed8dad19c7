import { AppError, type Services, withAuditContext } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { requestAuditContext } from '../auth/audit-context.ts';
import { noteRequestFailure } from './request-log.ts';

export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook';

/**
 * POST /api/billing/webhook: the payment processor's events. A plain route, not a procedure: the signature
 * covers the exact bytes sent, so the body is kept raw (any content type) in this route's own scope and
 * handed to billing unparsed. 200 {received, duplicate} once applied (or when seen before), 400 for a
 * missing or wrong signature, 503 when billing is not configured; any other failure is a 5xx, after which
 * the processor delivers the event again.
 */
export async function registerStripeWebhook(app: FastifyInstance, core: Services) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      try {
        // The request's origin; billing names the processor as the actor of what the event changes.
        const receipt = await withAuditContext(requestAuditContext(request, null), () =>
          core.stripeWebhooks.receive(body, Array.isArray(signature) ? signature[0] : signature),
        );
        return reply.code(200).send(receipt);
      } catch (error) {
        // The error handler answers the envelope and logs unexpected failures; the processor not answering
        // a read is logged here, as the reason the event will come again.
        if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
          noteRequestFailure(request, error.cause ?? error);
        }
        throw error;
      }
    });
  });
}
