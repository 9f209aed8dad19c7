import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRouter } from '../router.ts';
import { CLIENT_TYPES_PATH, clientTypesOf } from './client-types.ts';
import { buildOpenApiDocument } from './document.ts';

/**
 * `npm run gen:client`: writes the openapi-typescript types of the API document, built without a server, to
 * tests/support/api-types.ts (the generated client's types). The types do not depend on the base URL.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const document = buildOpenApiDocument(appRouter as never, 'https://api.example.com');
const file = join(root, CLIENT_TYPES_PATH);
await writeFile(file, await clientTypesOf(document));
process.stdout.write(`wrote ${CLIENT_TYPES_PATH}\n`);
