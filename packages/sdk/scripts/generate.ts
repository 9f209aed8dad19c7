import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../../../apps/api/src/openapi/document.ts';
import { appRouter } from '../../../apps/api/src/router.ts';
import { REST_TYPES_PATH, restTypesOf } from './rest-types.ts';
import { ROUTER_TYPES_PATH, routerTypesSource } from './router-type.ts';
import { TOOL_SCHEMAS_PATH, toolSchemasSource } from './tool-schemas.ts';

/**
 * `npm run gen:clients`: writes the clients' generated sources from the API as this repository defines it — the
 * REST types (openapi-typescript over the document the server serves), the tRPC router's type, and the
 * MCP tools' input schemas.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const document = buildOpenApiDocument(appRouter as never, 'https://api.example.com');
await writeFile(join(root, REST_TYPES_PATH), await restTypesOf(document));
await writeFile(join(root, ROUTER_TYPES_PATH), routerTypesSource());
await mkdir(dirname(join(root, TOOL_SCHEMAS_PATH)), { recursive: true });
await writeFile(join(root, TOOL_SCHEMAS_PATH), toolSchemasSource());
process.stdout.write(`wrote ${REST_TYPES_PATH}, ${ROUTER_TYPES_PATH} and ${TOOL_SCHEMAS_PATH}\n`);
