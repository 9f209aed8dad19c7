import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION, type Verdict, VerdictError } from '@verdict/sdk';
import { TOOL_INPUT_SCHEMAS } from './generated/tool-schemas.ts';

type ToolName = keyof typeof TOOL_INPUT_SCHEMAS;
type Args = Record<string, unknown>;

const DESCRIPTIONS: Record<ToolName, string> = {
  ask_debate:
    'Run a debate between AI agents on a decision and answer its verdict (recommendation, confidence, ' +
    'decision matrix). With wait=false, answers the debate id at once; get_debate reads it later.',
  get_debate: 'A debate, and its full verdict once completed',
  get_evidence:
    "A debate's evidence (Pro, BYOK Pro, Enterprise): every passage E1, E2 … cut from its documents and " +
    'context, who cited it (verified or not) and the claims it supports or undercuts',
  list_debates: 'Your debates, newest first (page, limit, status)',
  record_outcome: 'Say what became of a decided question: correct, partially_correct, wrong or too_early',
  search_debates: 'Search your debates by keyword and full text',
  similar_debates: 'Your completed debates closest in meaning to a text',
};

/** What each tool does with its (schema-checked by the API) arguments. */
const HANDLERS: Record<ToolName, (client: Verdict, args: Args) => Promise<unknown>> = {
  ask_debate: async (client, { wait, ...body }) => {
    const created = await client.debates.create(body as Parameters<Verdict['debates']['create']>[0]);
    if (wait === false) return created;
    for await (const _event of client.debates.stream(created.debateId)) {
      // The stream ends after debate.completed or debate.failed, which every read already shows.
    }
    return client.verdicts.retrieve(created.debateId);
  },
  get_debate: (client, { id }) => client.verdicts.retrieve(String(id)),
  get_evidence: (client, { id }) => client.verdicts.evidence(String(id)),
  list_debates: (client, args) => client.debates.page(args as Parameters<Verdict['debates']['page']>[0]),
  record_outcome: (client, { id, ...body }) =>
    client.outcomes.record(String(id), body as Parameters<Verdict['outcomes']['record']>[1]),
  search_debates: (client, args) =>
    client.search.debates(args as Parameters<Verdict['search']['debates']>[0]),
  similar_debates: (client, args) =>
    client.search.similar(args as Parameters<Verdict['search']['similar']>[0]),
};

const isTool = (name: string): name is ToolName => Object.hasOwn(TOOL_INPUT_SCHEMAS, name);

/**
 * The MCP server over stdio (`verdict mcp`): the tools call the API with the CLI's login. A rate-limited
 * call waits as the CLI's do (a plain line on stderr, which hosts log) before the tool answers.
 */
export async function serveMcp(client: Verdict): Promise<void> {
  const server = new Server({ name: 'verdict', version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(TOOL_INPUT_SCHEMAS).map(([name, inputSchema]) => ({
      name,
      description: DESCRIPTIONS[name as ToolName],
      inputSchema: inputSchema as { type: 'object'; [key: string]: unknown },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (!isTool(name)) {
      return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool ${name}` }] };
    }
    try {
      const result = await HANDLERS[name](client, args);
      return {
        content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (error) {
      // A refused call is the tool's answer (the model can correct its input, or tell its user which plan
      // to choose: the envelope's extra fields go with it), not a protocol error.
      const text =
        error instanceof VerdictError
          ? JSON.stringify({
              error: { code: error.code, message: error.message, details: error.details, ...error.extra },
            })
          : String(error);
      return { isError: true, content: [{ type: 'text' as const, text }] };
    }
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // Serve until the client closes stdin.
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
}
