/**
 * The passages whose vectors are closest to the query's (all unit length: cosine is the dot product), best
 * first, `limit` of them; ties go to the lower number. For databases that store vectors as real[], where
 * the same sum in SQL costs about a second over a large corpus (pgvector computes it in SQL instead).
 */
export function rankByVector(
  vectors: ReadonlyMap<number, Float32Array>,
  query: readonly number[],
  skip: (number: number) => boolean,
  limit: number,
): { number: number; similarity: number }[] {
  const unit = Float64Array.from(query);
  const ranked: { number: number; similarity: number }[] = [];
  for (const [number, vector] of vectors) {
    if (skip(number) || vector.length !== unit.length) continue;
    let similarity = 0;
    for (let i = 0; i < vector.length; i++) similarity += vector[i]! * unit[i]!;
    ranked.push({ number, similarity });
  }
  return ranked.sort((a, b) => b.similarity - a.similarity || a.number - b.number).slice(0, limit);
}
