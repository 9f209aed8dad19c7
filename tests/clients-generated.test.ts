import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_TYPES_PATH, restTypesOf } from '../packages/sdk/scripts/rest-types.ts';
import { ROUTER_TYPES_PATH, routerTypesSource } from '../packages/sdk/scripts/router-type.ts';
import { TOOL_SCHEMAS_PATH, toolSchemasSource } from '../packages/sdk/scripts/tool-schemas.ts';
import { ROOT } from './support/packages.ts';
import { type RunningProcess, startApi } from './support/processes.ts';

const committed = (path: string) => readFile(join(ROOT, path), 'utf8');

// The clients' generated sources are committed; each must be what the API gives now (npm run gen:clients).
describe('the clients’ generated sources', () => {
  let dataDir: string;
  let api: RunningProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-gen-data-'));
    api = await startApi({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('hold the REST types openapi-typescript makes of the document the server serves', async () => {
    const served = await fetch(`${api.baseUrl}/openapi.json`);
    expect(served.status).toBe(200);
    const generated = await restTypesOf((await served.json()) as object);
    expect(generated).toContain('export interface paths');
    expect(await committed(REST_TYPES_PATH), `${REST_TYPES_PATH} is stale: npm run gen:clients`).toBe(
      generated,
    );
  });

  it('hold the router type the router defines now, every procedure with its input and output', async () => {
    const generated = routerTypesSource();
    expect(generated).toMatch(/debates: \{\n\s+create: TRPCMutationProcedure<\{/);
    expect(generated).not.toContain('@verdict/'); // nothing of the server's packages is referred to
    expect(await committed(ROUTER_TYPES_PATH), `${ROUTER_TYPES_PATH} is stale: npm run gen:clients`).toBe(
      generated,
    );
  }, 120_000);

  it('hold the MCP tools’ input schemas the contracts give now', async () => {
    expect(await committed(TOOL_SCHEMAS_PATH), `${TOOL_SCHEMAS_PATH} is stale: npm run gen:clients`).toBe(
      toolSchemasSource(),
    );
  });
});
