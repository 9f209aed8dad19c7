/** The fake LLM server's types (fake-llm-server.ts exports them): its script, its records, its handle. */

import type { FakeCitation } from './fake-anthropic-citations.ts';

export type FakeProtocol = 'anthropic' | 'openai' | 'google';

/** What the script sees of one request. */
export type FakeRequest = {
  /** 0-based, across all protocols. */
  index: number;
  protocol: FakeProtocol;
  path: string;
  model: string;
  stream: boolean;
  body: unknown;
  /** The key the client sent (x-api-key, Bearer token or x-goog-api-key). */
  apiKey: string | undefined;
  /** When its body had arrived (ms since the epoch): checks compare it with what the service stored when. */
  receivedAt: number;
};

/** One scripted answer. */
export type FakeReply =
  | {
      text: string;
      /** How the text is split into stream deltas; default: word by word. Must join to `text`. */
      chunks?: string[];
      /** Pause between stream chunks. */
      chunkDelayMs?: number;
      /** Stream this many chunks, then hold the connection open until the client leaves. */
      stallAfterChunks?: number;
      /** Stream this many chunks, then cut the connection (a reset mid-answer). */
      resetAfterChunks?: number;
      inputTokens?: number;
      outputTokens?: number;
      /**
       * Anthropic, to a request with document blocks whose citations are enabled: the spans the answer cites
       * before `text` (each in a block of its own). Default: the first sentence of each of the first two such
       * documents; [] cites nothing. Ignored for a request with no citable document.
       */
      citations?: FakeCitation[];
    }
  | { status: number; message?: string; retryAfterSeconds?: number }
  /** Accept the request and never answer: no status line, nothing, until the client closes. */
  | { stall: true }
  /** Cut the connection without answering. */
  | { reset: true };

/** Replies in order (the last one repeats when the queue runs out), or a function deciding per request. */
export type FakeScript = FakeReply[] | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

export type FakeRequestRecord = FakeRequest & {
  /**
   * How the exchange ended: 'completed' when the whole answer was written, 'server_reset' when the script
   * cut the connection, 'client_closed' when the client left first (an abort).
   */
  outcome: 'pending' | FakeOutcome;
  /** Resolves when the exchange ends. */
  settled: Promise<FakeOutcome>;
  /** Resolves when a stalling script has written what it writes and holds the answer open. */
  stalled: Promise<void>;
};

export type FakeOutcome = 'completed' | 'client_closed' | 'server_reset';

export type FakeLlmServer = {
  /** http://<host>:<port> (127.0.0.1 unless another address was asked for) */
  url: string;
  /** What each SDK wants as its base URL (OpenAI's ends in /v1). */
  baseUrls: { anthropic: string; openai: string; google: string };
  /** Every request received, in order. */
  requests: FakeRequestRecord[];
  /** Requests received per protocol (or in total). */
  count: (protocol?: FakeProtocol) => number;
  setScript: (script: FakeScript) => void;
  close: () => Promise<void>;
};
