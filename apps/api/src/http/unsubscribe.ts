import { UnsubscribeType, UuidInput } from '@verdict/contracts';
import type { Services } from '@verdict/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';

const Query = z.object({ userId: UuidInput, type: UnsubscribeType, token: z.string().min(1).max(200) });

const WHAT = { comments: 'comments on your debates', forks: 'forks of your debates' } as const;

/** A small page; every interpolated value is one of the fixed texts above, never caller input. */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`;

/**
 * GET /api/unsubscribe?userId&type&token: the link at the bottom of a notification email. Answers HTML,
 * errors included (a person clicked it, not a program): 200 when that email is now off, 400 for a link
 * that is malformed, altered or forged.
 */
export function registerUnsubscribe(app: FastifyInstance, core: Services) {
  // The token is the link's signature: whoever holds it turns the email off, so no log line shows it.
  app.get(
    '/api/unsubscribe',
    { config: { secretParameters: ['token'] } },
    async (req, reply: FastifyReply) => {
      const html = (status: number, title: string, body: string) =>
        reply
          .code(status)
          .header('Content-Type', 'text/html; charset=utf-8')
          .header('Cache-Control', 'no-store')
          .send(page(title, body));
      const query = Query.safeParse(req.query);
      const bad = () =>
        html(
          400,
          'This link does not work',
          'The unsubscribe link is incomplete, altered or no longer valid.',
        );
      if (!query.success) return bad();
      const { userId, type, token } = query.data;
      const done = await core.notifications.unsubscribe(userId, type, token);
      if (!done) return bad();
      return html(
        200,
        'You are unsubscribed',
        `You will no longer get email about ${WHAT[type]}. Turn it back on in your notification settings.`,
      );
    },
  );
}
