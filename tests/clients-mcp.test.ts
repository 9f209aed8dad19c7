import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { CLI } from './support/cli.ts';
import { ROOT } from './support/packages.ts';
import { type RunningProcess, runAdmin, startApi } from './support/processes.ts';

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
const parsed = (result: unknown) => JSON.parse((result as ToolText).content[0]?.text ?? 'null');

// `verdict mcp` as an MCP host runs it: a child process speaking the protocol over stdio.
describe('the verdict MCP server', () => {
  let dataDir: string;
  let api: RunningProcess;
  let client: Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-mcp-data-'));
    api = await startApi({ DATA_DIR: dataDir, SIMULATED_FIRST_TOKEN_MS: '5' });
    const user = await registerUser(api.baseUrl, 'mcp');
    await runAdmin(['set-rate-limit', '--email', user.email, '--per-minute', '1000'], { DATA_DIR: dataDir });
    const key = await apiClient(api.baseUrl, { cookie: user.cookie }).POST('/api/keys', {
      body: { name: 'mcp' },
    });
    const [command, ...args] = CLI as [string, ...string[]];
    client = new Client({ name: 'verdict-test-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command,
        args: [...args, 'mcp'],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', VERDICT_URL: api.baseUrl, VERDICT_API_KEY: key.data?.key ?? '' },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists its tools with input schemas from the contracts', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask_debate',
      'get_debate',
      'get_evidence',
      'list_debates',
      'record_outcome',
      'search_debates',
      'similar_debates',
    ]);
    const ask = tools.find((t) => t.name === 'ask_debate');
    expect(ask?.inputSchema).toMatchObject({
      type: 'object',
      required: ['question'],
      properties: { question: { type: 'string', minLength: 10, maxLength: 2000 } },
    });
  });

  it('asks a debate and answers its verdict; the other tools find it and record its outcome', async () => {
    const asked = parsed(
      await client.callTool({
        name: 'ask_debate',
        arguments: { question: 'Should agents call this tool?', maxRounds: 1 },
      }),
    );
    expect(asked.debate.status).toBe('completed');
    expect(asked.verdict.recommendation).toMatch(/^[A-Z_]+$/);
    expect(asked.verdict.confidence).toEqual(expect.any(Number));
    const id = asked.debate.id as string;

    const got = parsed(await client.callTool({ name: 'get_debate', arguments: { id } }));
    expect(got.debate.id).toBe(id);
    const listed = parsed(await client.callTool({ name: 'list_debates', arguments: { limit: 5 } }));
    expect(listed.debates.map((d: { id: string }) => d.id)).toContain(id);
    const found = parsed(await client.callTool({ name: 'search_debates', arguments: { q: 'agents' } }));
    expect(found.results.map((r: { id: string }) => r.id)).toContain(id);
    const outcome = parsed(
      await client.callTool({ name: 'record_outcome', arguments: { id, outcomeStatus: 'correct' } }),
    );
    expect(outcome.outcomeStatus).toBe('correct');
    const similar = await client.callTool({ name: 'similar_debates', arguments: { q: 'agents and tools' } });
    expect((similar as ToolText).isError).toBeFalsy();
    // A free account's evidence read is refused with the plan to choose, as the API's envelope says it.
    const evidence = (await client.callTool({ name: 'get_evidence', arguments: { id } })) as ToolText;
    expect(evidence.isError).toBe(true);
    expect(JSON.parse(evidence.content[0]?.text ?? '{}').error).toMatchObject({
      code: 'BYOK_REQUIRED',
      requiredPlan: 'pro',
      upgradeUrl: expect.stringMatching(/\/pricing$/),
    });
  }, 60_000);

  it('answers ask_debate with wait=false at once with the debate id', async () => {
    const asked = parsed(
      await client.callTool({
        name: 'ask_debate',
        arguments: { question: 'Can an agent poll for this later?', wait: false },
      }),
    );
    expect(asked.debateId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a refused input as a tool error carrying the API’s envelope', async () => {
    const result = (await client.callTool({
      name: 'ask_debate',
      arguments: { question: 'short' },
    })) as ToolText;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '{}').error.code).toBe('VALIDATION_ERROR');
  });
});
