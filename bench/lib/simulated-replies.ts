import { type LlmRequest, simulatedProvider } from '@verdict/engine';
import type { FakeReply, FakeRequest } from '@verdict/engine/testing';

/**
 * A fake LLM server's script that answers as the engine's SIMULATED model would (providers/simulated.ts),
 * through whichever wire protocol the request came by: debaters' turns, the judge's verdict and the
 * classifier's domain, at the simulated model's lengths, and with the simulated model's token counts (four
 * characters a token of the system prompt, the prompt and any passages; of the answer). So a debate runs on
 * real model names (priced), through the real SDK adapters, and answers exactly as the simulated one would.
 *
 * The simulated debater reads hints the engine passes it in process; here they are read back from the
 * prompts (seat, lean, round, options, the agent a rebuttal answers). Two are not in any prompt and go
 * unused: the stated positions of the round before (a turn then never explains a change of view) and the
 * rebuttal's target, taken as the first other agent the prompt quotes.
 */
type Text = {
  system: string;
  prompt: string;
  documents: { evidenceId: string; title: string; text: string }[];
};

type Block = { type?: string; text?: string; title?: string; source?: { data?: string } };
type Wire = {
  system?: string | Block[];
  messages?: { role: string; content: string | Block[] }[];
  systemInstruction?: { parts?: { text?: string }[] } | string;
  contents?: { parts?: { text?: string }[] }[] | string;
};

const joined = (parts: { text?: string }[] | undefined) => (parts ?? []).map((p) => p.text ?? '').join('');

/** The system prompt, the prompt and the passages sent as documents, from any of the three protocols. */
export function readWire(request: Pick<FakeRequest, 'protocol' | 'body'>): Text {
  const body = request.body as Wire;
  if (request.protocol === 'google') {
    const system =
      typeof body.systemInstruction === 'string'
        ? body.systemInstruction
        : joined(body.systemInstruction?.parts);
    const prompt =
      typeof body.contents === 'string'
        ? body.contents
        : (body.contents ?? []).map((c) => joined(c.parts)).join('');
    return { system, prompt, documents: [] };
  }
  const messages = body.messages ?? [];
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const systemMessage = messages.find((m) => m.role === 'system')?.content;
  const system =
    typeof body.system === 'string'
      ? body.system
      : Array.isArray(body.system)
        ? joined(body.system)
        : typeof systemMessage === 'string'
          ? systemMessage
          : '';
  if (typeof user === 'string') return { system, prompt: user, documents: [] };
  const documents = user
    .filter((block) => block.type === 'document')
    .map((block) => {
      const [, evidenceId = '', title = ''] = /^\[(E\d+)\] (.*)$/s.exec(block.title ?? '') ?? [];
      return { evidenceId, title, text: block.source?.data ?? '' };
    });
  const prompt = joined(user.filter((block) => block.type === 'text'));
  return { system, prompt, documents };
}

const LEANS = {
  'argue for': 'for',
  'argue against': 'against',
  'neither side; weigh both': 'mixed',
} as const;

/** The request the engine would have made of the simulated provider, read back from the wire. */
export function simulatedRequestOf(request: FakeRequest, text: Text, signal: AbortSignal): LlmRequest {
  const base = { model: request.model, system: text.system, prompt: text.prompt, maxTokens: 0, signal };
  if (text.system.startsWith('You sort decisions')) return { ...base, task: 'classifier', json: false };
  if (text.system.startsWith('You are the judge')) return { ...base, task: 'synthesizer', json: true };
  const seat = /^You are (.+?), the (.+?) on a panel/.exec(text.system);
  const lean = /Your lean: (argue for|argue against|neither side; weigh both)\./.exec(text.system);
  const agent = seat?.[1] ?? 'Agent';
  const previous = /^Round (\d+) arguments:$/m.exec(text.prompt);
  const quoted = [...text.prompt.matchAll(/^- \[[^\]]+\] (.+?): /gm)].map((m) => m[1] ?? '');
  const opponent = quoted.find((name) => name !== agent);
  const options = /^Options: (.*)$/m.exec(text.prompt)?.[1]?.split('; ').length ?? 0;
  return {
    ...base,
    task: 'debater',
    json: false,
    ...(text.documents.length > 0 ? { documents: text.documents } : {}),
    hints: {
      question: /^Question: (.*)$/m.exec(text.prompt)?.[1] ?? '',
      agent,
      role: seat?.[2] ?? 'panelist',
      stance: LEANS[(lean?.[1] ?? 'neither side; weigh both') as keyof typeof LEANS],
      round: previous ? Number(previous[1]) + 1 : 1,
      opponents: opponent ? [opponent] : [],
      injected: [...text.prompt.matchAll(/^New information from the moderator: (.*)$/gm)].map(
        (m) => m[1] ?? '',
      ),
      attached: [...text.prompt.matchAll(/^Attached document "(.*)" \(its text/gm)].map((m) => m[1] ?? ''),
      options,
    },
  };
}

/** The script: every request answered by the simulated model, with its text and its token counts. */
export function simulatedReplies(): (request: FakeRequest) => Promise<FakeReply> {
  const simulated = simulatedProvider();
  return async (request) => {
    const text = readWire(request);
    const response = await simulated.complete(
      simulatedRequestOf(request, text, new AbortController().signal),
    );
    return { text: response.text, inputTokens: response.inputTokens, outputTokens: response.outputTokens };
  };
}
