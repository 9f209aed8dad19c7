import type { IncomingMessage } from 'node:http';
import type { FakeProtocol } from './fake-llm-types.ts';

/** Which endpoint of the fake LLM server a request is for, and what its path says. */
export type Route = {
  protocol: FakeProtocol;
  model?: string;
  stream?: boolean;
  /** An embeddings endpoint, and which answer shape it has. */
  embedding?: 'openai' | 'google-single' | 'google-batch';
};

export function routeOf(method: string, url: URL): Route | null {
  if (method !== 'POST') return null;
  if (url.pathname === '/v1/messages') return { protocol: 'anthropic' };
  if (url.pathname === '/v1/chat/completions') return { protocol: 'openai' };
  if (url.pathname === '/v1/embeddings') return { protocol: 'openai', embedding: 'openai' };
  const googleEmbed = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(embedContent|batchEmbedContents)$/.exec(
    decodeURIComponent(url.pathname),
  );
  if (googleEmbed) {
    return {
      protocol: 'google',
      model: googleEmbed[1] ?? '',
      embedding: googleEmbed[2] === 'embedContent' ? 'google-single' : 'google-batch',
    };
  }
  const google = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(
    decodeURIComponent(url.pathname),
  );
  if (google) {
    return { protocol: 'google', model: google[1] ?? '', stream: google[2] === 'streamGenerateContent' };
  }
  return null;
}

export function keyOf(req: IncomingMessage): string | undefined {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const bearer = header('authorization')?.replace(/^Bearer\s+/i, '');
  return header('x-api-key') ?? header('x-goog-api-key') ?? bearer;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
