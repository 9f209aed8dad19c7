/**
 * Synthetic business documents and debate turns for the evidence bench: seeded, so every run ranks the
 * same texts. Word frequencies follow Zipf's law as in real prose: English function words make up about
 * 40 % of the words, a general vocabulary of GENERAL_WORDS made-up words is drawn with a Zipf skew (a few
 * everywhere, most rare), and each document's topic adds words of its own. Paragraphs of 4–8 sentences.
 */

const GENERAL_WORDS = 4_000;
const TOPIC_WORDS = 300;

const FUNCTION_WORDS = (
  'the of and to a in that is was it for on with as be by at this from or have an are which but not ' +
  'were they their has been would will more can its also there when than other into these some only ' +
  'after over most such our we could them about should two those while under between'
).split(' ');

export const TOPIC_NAMES = [
  'pricing',
  'churn',
  'hiring',
  'infrastructure',
  'legal',
  'marketing',
  'sales',
  'support',
  'finance',
  'product',
];
const REAL_TOPIC_WORDS: Record<string, string[]> = {
  pricing: ['price', 'discount', 'tier', 'plan', 'seat', 'invoice', 'margin', 'upsell'],
  churn: ['churn', 'cancellation', 'renewal', 'retention', 'downgrade', 'cohort', 'loyalty'],
  hiring: ['recruiter', 'candidate', 'salary', 'headcount', 'interview', 'onboarding', 'engineer'],
  infrastructure: ['server', 'latency', 'outage', 'cluster', 'database', 'region', 'backup'],
  legal: ['contract', 'liability', 'clause', 'compliance', 'privacy', 'regulator', 'audit'],
  marketing: ['campaign', 'funnel', 'conversion', 'brand', 'webinar', 'lead', 'newsletter'],
  sales: ['pipeline', 'quota', 'prospect', 'deal', 'territory', 'demo', 'procurement'],
  support: ['ticket', 'escalation', 'response', 'satisfaction', 'backlog', 'agent', 'chatbot'],
  finance: ['revenue', 'runway', 'burn', 'budget', 'cash', 'valuation', 'expense'],
  product: ['feature', 'roadmap', 'release', 'usability', 'integration', 'dashboard', 'feedback'],
};

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'br',
  'cl',
  'st',
  'tr',
  'pl',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io'];
const CODAS = ['', 'n', 'r', 'l', 's', 't', 'nd', 'rk', 'st'];

/** `count` distinct made-up words of two or three syllables, the same for the same seed. */
function madeUpWords(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const words = new Set<string>();
  const pick = (items: string[]) => items[Math.floor(random() * items.length)] ?? '';
  while (words.size < count) {
    const syllables = 2 + Math.floor(random() * 2);
    words.add(Array.from({ length: syllables }, () => pick(ONSETS) + pick(VOWELS) + pick(CODAS)).join(''));
  }
  return [...words];
}

const GENERAL = madeUpWords(1, GENERAL_WORDS);
const TOPIC_VOCABULARY = Object.fromEntries(
  TOPIC_NAMES.map((topic, i) => [
    topic,
    [...(REAL_TOPIC_WORDS[topic] ?? []), ...madeUpWords(100 + i, TOPIC_WORDS)],
  ]),
);

/** A draw from `items` by Zipf's law (exponent 1): the k-th item about 1/k as often as the first. */
function zipf<T>(random: () => number, items: readonly T[]): T {
  // Inverse of the continuous approximation of the harmonic CDF: rank = n^u.
  const rank = Math.floor(items.length ** random());
  return items[Math.min(items.length - 1, Math.max(0, rank - 1))] as T;
}

function sentence(random: () => number, topic: string): string {
  const length = 12 + Math.floor(random() * 14);
  const topicWords = TOPIC_VOCABULARY[topic] ?? [];
  const words = Array.from({ length }, () => {
    const kind = random();
    if (kind < 0.4) return zipf(random, FUNCTION_WORDS);
    if (kind < 0.75) return zipf(random, GENERAL);
    if (kind < 0.97) return zipf(random, topicWords);
    return String(Math.floor(random() * 1000));
  });
  const text = words.join(' ');
  return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

/** A document of about `chars` characters on one topic, in paragraphs, with a title line. */
export function documentText(random: () => number, topic: string, chars: number): string {
  const paragraphs: string[] = [`${topic[0]?.toUpperCase()}${topic.slice(1)} report`];
  let length = paragraphs[0]?.length ?? 0;
  while (length < chars) {
    const count = 4 + Math.floor(random() * 5);
    const paragraph = Array.from({ length: count }, () =>
      sentence(
        random,
        random() < 0.85 ? topic : (TOPIC_NAMES[Math.floor(random() * TOPIC_NAMES.length)] ?? topic),
      ),
    ).join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, chars);
}

/**
 * What a debater's turn would ask for: the question, then the text of a claim it rebuts (2–4 sentences
 * on one topic), and that topic (documents on it are the relevant ones).
 */
export function turnQuery(random: () => number, question: string): { text: string; topic: string } {
  const topic = TOPIC_NAMES[Math.floor(random() * TOPIC_NAMES.length)] ?? 'pricing';
  const claim = Array.from({ length: 2 + Math.floor(random() * 3) }, () => sentence(random, topic)).join(' ');
  return { text: `${question}\n${claim}`, topic };
}
