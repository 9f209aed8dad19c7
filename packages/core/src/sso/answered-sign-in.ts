import { sha256Hex } from '../shared/crypto.ts';
import { SsoRefused } from './sign-in-refusal.ts';
import { type SignInRequest, useRequest } from './sign-in-requests.ts';
import type { SsoResources } from './sso-resources.ts';
import type { SignInTarget } from './workspace-connection.ts';

/** The sign-in the answer names, used once, from the browser that started it. */
export async function takeSignIn(
  { db, clock }: Pick<SsoResources, 'db' | 'clock'>,
  target: SignInTarget,
  id: string | null,
  binding: string | undefined,
): Promise<SignInRequest> {
  if (!id) throw new SsoRefused('unknown_request', 'the answer names no sign-in');
  const request = await db
    .em()
    .transactional((em) => useRequest(em, id, target.workspaceId, new Date(clock.now())));
  if (request === 'replayed')
    throw new SsoRefused('replayed', `sign-in ${id.slice(0, 12)}… was answered before`);
  if (request === 'unknown') throw new SsoRefused('unknown_request');
  if (!binding || sha256Hex(binding) !== request.bindingHash) throw new SsoRefused('other_browser');
  return request;
}
