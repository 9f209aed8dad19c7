import type { TaskName, TurnPosition } from '@verdict/contracts';

/**
 * What the simulated provider reads to stay coherent. Real adapters ignore it: they see only the prompts.
 */
export type SimulationHints = {
  question: string;
  agent: string;
  role: string;
  stance: 'for' | 'against' | 'mixed';
  round: number;
  /** Names of the other agents whose previous-round turns this one may rebut. */
  opponents: string[];
  injected: string[];
  /** Names of the documents attached to the debate that this turn's prompt carries. */
  attached?: string[];
  /** How many options a comparison ranks (0 or absent: not a comparison). */
  options?: number;
  /**
   * What each agent that spoke in the round before stated (empty in round 1), so a simulated agent says it
   * moved, and to the panel's majority, only when it did. Absent: unknown, and no move is claimed.
   */
  previous?: { agent: string; position: TurnPosition | null }[];
};

/**
 * A passage of the debate's corpus offered to a debater: cited as `[E3]`. Adapters whose provider grounds
 * citations in supplied documents (Anthropic) send each as a document; the others write them into the
 * prompt (providers/documents.ts), so the prompt the engine builds never carries them itself.
 */
export type EvidenceDocument = { evidenceId: string; title: string; text: string };

/** A citation the provider itself grounded in one of the request's documents, mapped to its passage. */
export type GroundedCitation = { evidenceId: string; quote: string };

export type LlmRequest = {
  task: TaskName;
  model: string;
  system: string;
  prompt: string;
  maxTokens: number;
  /** Ask for a single JSON object (the judge). */
  json: boolean;
  signal: AbortSignal;
  hints?: SimulationHints;
  /** The passages this turn may cite (evidence engine on); absent or empty otherwise. */
  documents?: readonly EvidenceDocument[];
};

export type LlmResponse = {
  text: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /**
   * Citations the provider grounded itself (Anthropic's `char_location`), each also tagged `[E<n>]` in
   * `text` after the words it supports; the engine checks them like any other.
   */
  citations?: GroundedCitation[];
};

/** One port, several adapters (Anthropic, OpenAI, Google, OpenAI-compatible, simulated). */
export type LlmProvider = {
  readonly name: string;
  complete: (request: LlmRequest) => Promise<LlmResponse>;
};

export type LlmFailureKind = 'rate_limited' | 'server' | 'timeout' | 'client' | 'aborted';

/**
 * A provider call that failed, classified once by the adapter so the retry policy needs no knowledge of
 * SDKs: 429, 5xx and timeouts are retryable; 4xx and aborts are not.
 */
export class LlmCallError extends Error {
  override name = 'LlmCallError';
  readonly kind: LlmFailureKind;
  readonly status: number | undefined;

  constructor(kind: LlmFailureKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'server' || this.kind === 'timeout';
  }
}
