import { writeFile } from 'node:fs/promises';
import { appRouter } from '../router.ts';
import { buildOpenApiDocument } from './document.ts';

/**
 * `node apps/api/src/openapi/export.ts <file> [baseUrl]`: writes the API document without starting a server
 * (what `npm run lint:api` lints, and what a client generator reads). The base URL defaults to an https one,
 * as production serves it.
 */
const [file, baseUrl = 'https://api.example.com'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: export.ts <file> [baseUrl]\n');
  process.exit(2);
}
await writeFile(file, `${JSON.stringify(buildOpenApiDocument(appRouter as never, baseUrl), null, 2)}\n`);
