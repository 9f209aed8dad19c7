/**
 * A debate's corpus for the evidence engine: its sources cut into numbered passages (build-corpus.ts),
 * retrieved per turn (retrieval.ts) and read back by number or whole (corpus-reads.ts).
 */
export { type BuildCorpusOptions, buildCorpus } from './build-corpus.ts';
export { releaseCorpusIndex } from './corpus-index.ts';
export { type CorpusPassage, EVIDENCE_PROMPT_BUDGET } from './corpus-passage.ts';
export { passagesByNumber, readCorpus } from './corpus-reads.ts';
export { PASSAGE_SIZES, splitPassages } from './passage-splitter.ts';
export { type RetrievalRequest, retrievePassages } from './retrieval.ts';
export { detectTextLanguage, TEXT_LANGUAGES, type TextLanguage } from './text-language.ts';
