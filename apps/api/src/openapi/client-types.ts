import openapiTS, { astToString } from 'openapi-typescript';

/** Where the generated types live, from the repository root: the end-to-end tests' client reads them. */
export const CLIENT_TYPES_PATH = 'tests/support/api-types.ts';

const HEADER = `/**
 * GENERATED FILE: do not edit. The openapi-typescript types of the API document the server serves at
 * /openapi.json, for the typed client of tests/support/api-client.ts. After changing the API, regenerate
 * with \`npm run gen:client\`; a test fails while this file differs from what the served document gives.
 */
`;

/**
 * The TypeScript types openapi-typescript produces from an API document, as the committed file holds them:
 * what `npm run gen:client` writes and what the test comparing the file with the served document computes.
 */
export async function clientTypesOf(document: object): Promise<string> {
  // The document the server serves (or buildOpenApiDocument returns) is already one resolved object.
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true });
  return `${HEADER}\n${astToString(ast)}`;
}
