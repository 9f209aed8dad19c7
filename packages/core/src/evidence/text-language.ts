/**
 * The text search configurations (PostgreSQL's, built in since 9.x and in PGlite) a source can be indexed
 * in, each known by some of its most frequent words. 'simple' (no stemming, no stop words) is the fallback:
 * it still matches words as written.
 */
const FREQUENT_WORDS = {
  english:
    'the and of to is in that it for with as was on are be this by not or have from which they we you an at but their has were will would can',
  german:
    'der die das und ist nicht ein eine zu den von mit sich des auf für im dem auch es als wird sind bei oder aus nach werden wir ich dass einer',
  french:
    'le la les et est des un une du en que qui dans pour pas au sur avec ce il sont par plus ne se nous vous mais ou cette aux de',
  spanish:
    'el la los las y es de que en un una por con para no se del al lo como más pero este esta son también muy',
  portuguese:
    'o os as e é de do da dos das em um uma que não para com por se mais na no ao como mas foi ser são também seu sua',
  italian:
    'il lo la gli le e è di che in un una per non con del della dei delle sono si da al alla anche come ma più questo questa',
  dutch:
    'de het een en van is dat niet te op voor met zijn ook aan er maar om als dit wordt bij door naar hij wij ze worden kan geen',
  swedish:
    'och att det som en är på för med inte av till den har de jag om ett var vi kan men eller så från sig',
  danish:
    'og at det som en er på for med ikke af til den har de jeg om et var vi kan men eller så fra sig der hvor',
  norwegian:
    'og at det som en er på for med ikke av til den har de jeg om et var vi kan men eller så fra seg hvor',
  finnish: 'ja on ei se että hän oli ovat mutta tai kun joka jos niin myös ole tämä mitä kuin sen',
  russian:
    'и в не на что с по это как а из к для от то о же все так его но он она они мы вы при или был быть',
  turkish: 've bir bu da de için ile çok daha olarak gibi ne ama olan en var değil',
  hungarian: 'az és hogy nem egy van meg ez mint csak már volt lesz vagy azt ami ha kell',
} as const;

export type TextLanguage = keyof typeof FREQUENT_WORDS | 'simple';

/** Every configuration `detectTextLanguage` may answer: each must exist in the database (a test checks). */
export const TEXT_LANGUAGES: readonly TextLanguage[] = [
  ...(Object.keys(FREQUENT_WORDS) as (keyof typeof FREQUENT_WORDS)[]),
  'simple',
];

const WORD_SETS = Object.entries(FREQUENT_WORDS).map(
  ([language, words]) => [language as TextLanguage, new Set(words.split(' '))] as const,
);

/** Enough of a source to tell its language: the start of a long one says as much as all of it. */
const SAMPLE_CHARS = 20_000;
/** Below this share of words that are frequent words of the best language, nothing is claimed. */
const MIN_SHARE = 0.08;
const MIN_HITS = 2;

/**
 * The text search configuration that suits `text`: the language whose frequent words make up the largest
 * share of it, when that share is convincing and no other language ties with it; 'simple' otherwise (a
 * language not listed, a table of numbers, text too short to tell).
 *
 * @example detectTextLanguage('Die Kündigungsrate ist nach der Preiserhöhung gestiegen') // 'german'
 */
export function detectTextLanguage(text: string): TextLanguage {
  const words =
    text
      .slice(0, SAMPLE_CHARS)
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return 'simple';
  const scored = WORD_SETS.map(([language, set]) => ({
    language,
    hits: words.reduce((n, word) => n + (set.has(word) ? 1 : 0), 0),
  })).sort((a, b) => b.hits - a.hits);
  const [best, second] = scored;
  if (!best || best.hits < MIN_HITS || best.hits / words.length < MIN_SHARE) return 'simple';
  if (second && second.hits === best.hits) return 'simple';
  return best.language;
}
