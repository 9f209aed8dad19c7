import {
  CreateDebateInput,
  DebateListQuery,
  RecordOutcomeInput,
  SearchQuery,
  SimilarQuery,
  UuidInput,
} from '@verdict/contracts';
import { z } from 'zod';

export const TOOL_SCHEMAS_PATH = 'packages/cli/src/generated/tool-schemas.ts';

const HEADER = `/**
 * GENERATED FILE: do not edit; \`npm run gen:clients\` writes it. The input schemas of the MCP server's tools,
 * as JSON Schema from the API's contracts (packages/contracts), so a tool takes what the route takes.
 */
`;

const Id = z.object({ id: UuidInput.meta({ description: 'The debate id' }) });

/** Each tool's input, from the schema of the route it calls. */
const TOOLS = {
  ask_debate: CreateDebateInput.omit({ workspaceId: true, attachmentIds: true }).extend({
    wait: z
      .boolean()
      .optional()
      .meta({ description: 'Wait for the verdict (default true); false answers the debate id at once' }),
  }),
  get_debate: Id,
  get_evidence: Id,
  list_debates: DebateListQuery.omit({ workspaceId: true }),
  record_outcome: Id.extend(RecordOutcomeInput.shape),
  search_debates: SearchQuery,
  similar_debates: SimilarQuery,
};

/** The text of packages/cli/src/generated/tool-schemas.ts. */
export function toolSchemasSource(): string {
  const schemas = Object.fromEntries(
    Object.entries(TOOLS).map(([name, schema]) => {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
      const { $schema: _ignored, ...rest } = json as Record<string, unknown>;
      return [name, rest];
    }),
  );
  return `${HEADER}
export const TOOL_INPUT_SCHEMAS = ${JSON.stringify(schemas, null, 2)} as const;
`;
}
