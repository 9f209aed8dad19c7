import openapiTS, { astToString } from 'openapi-typescript';

export const REST_TYPES_PATH = 'packages/sdk/src/generated/openapi.ts';

const HEADER = `/**
 * GENERATED FILE: do not edit; \`npm run gen:clients\` writes it. The openapi-typescript types of the API
 * document the server serves at /openapi.json: the SDK's REST client is typed by them. A test fails while
 * this file differs from what the served document gives.
 */
`;

/** The SDK's REST types from an API document, as the committed file holds them. */
export async function restTypesOf(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true });
  return `${HEADER}\n${astToString(ast)}`;
}
