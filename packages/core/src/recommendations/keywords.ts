/** Words that say nothing about what a question is about. */
const STOPWORDS = new Set(
  (
    'about above after again against also because been before being below between both could does doing ' +
    'down during each either from further have having here into itself just more most much must need ' +
    'next only other ought over same shall should some such than that their them then there these they ' +
    'this those through under until very were what when where which while whom with within without would ' +
    'your yours year years month months week weeks make made take good better best worth really still ' +
    'keep move start stop going want wants instead rather versus whether'
  ).split(' '),
);

/**
 * The words that recur across a user's questions, most frequent first (ties: the more recent question
 * wins): lowercase words of four letters or more, stopwords left out, each counted once per question.
 *
 * @example
 * interestKeywords(['Should we migrate to Postgres?', 'Is Postgres a good queue?'], 3) // ['postgres', 'migrate', 'queue']
 */
export function interestKeywords(questions: readonly string[], max: number): string[] {
  const counts = new Map<string, { n: number; firstSeen: number }>();
  questions.forEach((question, index) => {
    const words = new Set(question.toLowerCase().match(/\p{L}[\p{L}\p{N}'-]{3,}/gu) ?? []);
    for (const word of words) {
      const clean = word.replace(/['-]+$/, '');
      if (clean.length < 4 || STOPWORDS.has(clean)) continue;
      const seen = counts.get(clean);
      counts.set(clean, { n: (seen?.n ?? 0) + 1, firstSeen: seen?.firstSeen ?? index });
    }
  });
  return [...counts]
    .sort(([, a], [, b]) => b.n - a.n || a.firstSeen - b.firstSeen)
    .slice(0, max)
    .map(([word]) => word);
}
