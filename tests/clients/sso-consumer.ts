// An outside project's use of the SDK's single sign-on, type-checked with `tsc --strict` and run by
// tests/clients-sdk.test.ts with an Enterprise owner's key: a SAML connection set up from a provider's
// metadata (its file given by the test), read back, someone deprovisioned, and the connection removed.
import { readFile } from 'node:fs/promises';
import { Verdict, VerdictError } from '@verdict/sdk';

const [baseUrl = '', ownerKey = '', workspaceId = '', metadataFile = '', memberEmail = ''] =
  process.argv.slice(2);
const say = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);

const client = new Verdict({ baseUrl, apiKey: ownerKey });
const metadataXml = await readFile(metadataFile, 'utf8');
const configured = await client.sso.configure(workspaceId, {
  protocol: 'saml',
  metadataXml,
  allowedDomains: ['example.com'],
  defaultRole: 'viewer',
});
say({
  step: 'configure',
  protocol: configured.protocol,
  acsUrl: configured.serviceProvider.acsUrl,
  fingerprint: configured.certificateFingerprint,
});

const read = await client.sso.get(workspaceId);
say({
  step: 'get',
  issuer: read.issuer,
  defaultRole: read.defaultRole,
  hasClientSecret: read.hasClientSecret,
});

const gone = await client.sso.deprovision(workspaceId, memberEmail);
say({
  step: 'deprovision',
  removed: gone.removedFromWorkspace,
  again: (await client.sso.deprovision(workspaceId, memberEmail)).removedFromWorkspace,
});

await client.sso.remove(workspaceId);
try {
  await client.sso.get(workspaceId);
  say({ step: 'removed', status: 200 });
} catch (error) {
  say({
    step: 'removed',
    status: error instanceof VerdictError ? error.status : null,
    code: error instanceof VerdictError ? error.code : null,
  });
}
