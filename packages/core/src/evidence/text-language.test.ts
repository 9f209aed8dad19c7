import { describe, expect, it } from 'vitest';
import { detectTextLanguage } from './text-language.ts';

describe('detectTextLanguage', () => {
  it.each([
    [
      'english',
      'Churn doubled after the last price rise, and most of the customers who left were on the annual plan.',
    ],
    [
      'german',
      'Die Kündigungsrate hat sich nach der letzten Preiserhöhung verdoppelt, und die meisten Kunden sind nicht zurückgekommen.',
    ],
    [
      'french',
      "Le taux de résiliation a doublé après la dernière hausse des prix, et la plupart des clients sont partis avec l'offre annuelle.",
    ],
    [
      'spanish',
      'La tasa de cancelación se duplicó después del último aumento de precios, y los clientes se fueron con el plan anual.',
    ],
    [
      'portuguese',
      'A taxa de cancelamento dobrou após o último aumento de preços, e os clientes não voltaram para o plano anual.',
    ],
    [
      'italian',
      "Il tasso di abbandono è raddoppiato dopo l'ultimo aumento dei prezzi, e la maggior parte dei clienti non sono tornati.",
    ],
    [
      'dutch',
      'Het opzeggingspercentage is na de laatste prijsverhoging verdubbeld, en de meeste klanten zijn niet teruggekomen.',
    ],
    [
      'swedish',
      'Andelen uppsägningar har fördubblats efter den senaste prishöjningen, och de flesta kunder har inte kommit tillbaka.',
    ],
    [
      'finnish',
      'Asiakaspoistuma kaksinkertaistui viimeisen hinnankorotuksen jälkeen, ja se on ongelma, mutta ei ole vielä ratkaistu.',
    ],
    [
      'russian',
      'Отток клиентов удвоился после последнего повышения цен, и большинство из них не вернулись, так как это было дорого.',
    ],
  ])('recognises %s', (language, text) => {
    expect(detectTextLanguage(text)).toBe(language);
  });

  it("falls back to 'simple' for text that names no language clearly", () => {
    expect(detectTextLanguage('')).toBe('simple');
    expect(detectTextLanguage('2024 | 14.2 | 15.9 | 17.3\n2025 | 18.0 | 19.4 | 21.1')).toBe('simple');
    expect(detectTextLanguage('Lisbon')).toBe('simple');
    expect(detectTextLanguage('東京のオフィスを開くべきか')).toBe('simple');
  });

  it('decides by the words, not by a stray foreign one', () => {
    const english =
      'The board says that the Lisbon office is a good idea, and the team agrees with the plan. '.repeat(3);
    expect(detectTextLanguage(`${english} Voilà, c'est la vie.`)).toBe('english');
  });
});
