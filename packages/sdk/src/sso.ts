import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';
import type * as T from './rest-types.ts';
import type { RequestOptions } from './transport.ts';

/** What of the client the resource calls through (the Verdict client is one). */
export type SsoHost = {
  readonly rest: Client<paths>;
  call(options?: RequestOptions): { signal?: AbortSignal; fetch: (request: Request) => Promise<Response> };
};

async function data<D>(call: Promise<{ data?: D; response: Response }>): Promise<D> {
  const { data } = await call;
  return data as D;
}

/**
 * A workspace's single sign-on (Enterprise): its OIDC or SAML connection, which the owner sets up and admins
 * read, and deprovisioning people who left (an offboarding script's call, with an admin's key).
 *
 * @example
 * await client.sso.configure(workspaceId, { protocol: 'saml', metadataXml, allowedDomains: ['acme.com'] });
 * await client.sso.deprovision(workspaceId, 'leaver@acme.com');
 */
export class Sso {
  readonly #client: SsoHost;
  constructor(client: SsoHost) {
    this.#client = client;
  }

  /** The connection (never its client secret); a NotFound error when none is set up. */
  get(workspaceId: string, options?: RequestOptions): Promise<T.SsoConnection> {
    return data(
      this.#client.rest.GET('/api/workspaces/{id}/sso', {
        params: { path: { id: workspaceId } },
        ...this.#client.call(options),
      }),
    );
  }

  /** Sets the connection up, or replaces it (the owner). */
  configure(
    workspaceId: string,
    connection: T.SsoConnectionBody,
    options?: RequestOptions,
  ): Promise<T.SsoConnection> {
    return data(
      this.#client.rest.PUT('/api/workspaces/{id}/sso', {
        params: { path: { id: workspaceId } },
        body: connection,
        ...this.#client.call(options),
      }),
    );
  }

  /** Turns single sign-on off (the owner). */
  async remove(workspaceId: string, options?: RequestOptions): Promise<void> {
    await this.#client.rest.DELETE('/api/workspaces/{id}/sso', {
      params: { path: { id: workspaceId } },
      ...this.#client.call(options),
    });
  }

  /** Someone who left, by email: out of the workspace, and its sign-in's sessions ended, at once. */
  deprovision(workspaceId: string, email: string, options?: RequestOptions): Promise<T.DeprovisionResult> {
    return data(
      this.#client.rest.POST('/api/workspaces/{id}/sso/deprovision', {
        params: { path: { id: workspaceId } },
        body: { email },
        ...this.#client.call(options),
      }),
    );
  }
}
