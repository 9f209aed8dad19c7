import { configureConnection } from './configure-connection.ts';
import { deprovision } from './deprovision.ts';
import { finishOidcSignIn } from './finish-oidc-sign-in.ts';
import { finishSamlSignIn } from './finish-saml-sign-in.ts';
import { createOidcClients } from './oidc-client.ts';
import { readConnection } from './read-connection.ts';
import { removeConnection } from './remove-connection.ts';
import { samlServiceMetadata } from './saml-service-metadata.ts';
import { createSecretBox } from './secret-box.ts';
import { recordRefusal } from './sign-in-refusal.ts';
import type { SsoResources } from './sso-resources.ts';
import { startSignIn } from './start-sign-in.ts';

export type { SignedIn } from './complete-sign-in.ts';
export { SsoRefused } from './sign-in-refusal.ts';
export type { StartedSignIn } from './start-sign-in.ts';

/**
 * Single sign-on for Enterprise workspaces: each workspace's one connection (OIDC or SAML) set up by its
 * owner; sign-ins through it that create or link the member just in time; password sign-in refused where a
 * workspace requires it (password-sign-in-policy.ts, an accounts hook); deprovisioning. One operation a file.
 */
export function createSso(resources: SsoResources) {
  const deps = {
    ...resources,
    oidcClients: createOidcClients(resources.config.sso),
    secretBox: resources.config.sso.secretKey ? createSecretBox(resources.config.sso.secretKey) : null,
  };
  return {
    configure: configureConnection(deps),
    read: readConnection(deps),
    remove: removeConnection(deps),
    deprovision: deprovision(deps),
    start: startSignIn(deps),
    finishOidc: finishOidcSignIn(deps),
    finishSaml: finishSamlSignIn(deps),
    serviceMetadata: samlServiceMetadata(deps),
    /** Records a refused sign-in in the workspace's trail. */
    recordRefusal: (
      workspaceId: string,
      refusal: Parameters<typeof recordRefusal>[2],
      who?: Parameters<typeof recordRefusal>[3],
    ) => recordRefusal(resources, workspaceId, refusal, who),
  };
}

export type Sso = ReturnType<typeof createSso>;
