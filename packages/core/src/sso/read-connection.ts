import type { SsoConnection } from '@verdict/contracts';
import { notFound } from '../shared/app-error.ts';
import { ssoAccess } from './connection-access.ts';
import { findConnection } from './connection-record.ts';
import { toConnectionView } from './connection-view.ts';
import type { SsoResources } from './sso-resources.ts';

/** GET /api/workspaces/:id/sso: the connection, for the owner and admins; 404 when none is set up. */
export const readConnection =
  ({ db, plans, config }: SsoResources) =>
  (userId: string, workspaceId: string): Promise<SsoConnection> =>
    db.em().transactional(async (em) => {
      const { slug } = await ssoAccess(em, plans, workspaceId, userId, 'readSso');
      const row = await findConnection(em, workspaceId);
      if (!row) throw notFound('Single sign-on connection');
      return toConnectionView(row, slug, config.publicBaseUrl);
    });
