import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Client secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from SSO_SECRET_KEY, a fresh IV a
 * secret, the workspace's id bound in as associated data so a sealed secret copied to another workspace's
 * row does not open there. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url), the version naming the scheme.
 */
export type SecretBox = {
  seal: (secret: string, workspaceId: string) => string;
  open: (sealed: string, workspaceId: string) => string;
};

export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'verdict', 'sso client secret v1', 32));
  return {
    seal: (secret, workspaceId) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(workspaceId));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    open: (sealed, workspaceId) => {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        .setAAD(Buffer.from(workspaceId))
        .setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
