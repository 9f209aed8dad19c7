/**
 * Turns text into a vector with the deployment's embedding model (routing's embeddingModelFor). The engine
 * builds it from the provider SDKs; a process with no embedding-capable key has none.
 */
export type Embedder = {
  /** "provider:model": which model made a stored vector, so vectors of different models never meet. */
  readonly model: string;
  /** The similarity below which this model's matches are noise: search's semantic hits start above it. */
  readonly relatedAbove: number;
  embed: (text: string, signal?: AbortSignal) => Promise<number[]>;
};

/** The vector scaled to length 1, so cosine similarity is a dot product; a zero vector stays zero. */
export function unitVector(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector.map(() => 0) : vector.map((x) => x / norm);
}

/** What is embedded of a debate: what it asked, its context, and what the verdict said in one line. */
export function debateEmbeddingText(debate: {
  question: string;
  context: string | null;
  oneLiner: string | null;
}): string {
  return [debate.question, debate.context, debate.oneLiner].filter(Boolean).join('\n\n').slice(0, 8000);
}
