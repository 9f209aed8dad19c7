import { describe, expect, it } from 'vitest';
import { interestKeywords } from './keywords.ts';

describe('interestKeywords', () => {
  it('ranks recurring words first, counting each once per question, and leaves stopwords and short words out', () => {
    const questions = [
      'Should we migrate our billing to Postgres?',
      'Is Postgres good enough as a job queue, or should we add Kafka?',
      'Should the billing team adopt Kafka Kafka Kafka?',
    ];
    expect(interestKeywords(questions, 4)).toEqual(['billing', 'postgres', 'kafka', 'migrate']);
  });

  it('keeps letters of any script and trims trailing apostrophes and hyphens', () => {
    expect(interestKeywords(["Faut-il déménager à Zürich l'été?", 'Zürich ou Genève?'], 2)).toEqual([
      'zürich',
      'faut-il',
    ]);
  });

  it('gives nothing for questions made of stopwords and short words', () => {
    expect(interestKeywords(['Should we do it?', 'What about this?'], 5)).toEqual([]);
  });
});
