import { longFunctions, productSources } from '@verdict/core/testing/code-shape';
import { describe, expect, it } from 'vitest';

/**
 * The engine's code stays in parts a reader can hold: no file over 300 lines, no function over 80, and one
 * source of time (clock.ts): a `Date.now()` or `new Date()` elsewhere reads a clock no test can set.
 * Tests and testing/ helpers are not held to it.
 */
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const CLOCK_LAYER = 'clock.ts';

const files = productSources(import.meta.dirname);

describe('the engine code', () => {
  it('has source files to look at', () => {
    expect(files.map((file) => file.name)).toContain(CLOCK_LAYER);
    expect(files.length).toBeGreaterThan(50);
  });

  it(`keeps every file within ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ name: file.name, lines: file.text.split('\n').length }))
      .filter((file) => file.lines > MAX_FILE_LINES)
      .map((file) => `${file.name} (${file.lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`keeps every function within ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES));
    expect(long.map((found) => `${found.file}:${found.line} ${found.name} (${found.lines} lines)`)).toEqual(
      [],
    );
  });

  it('reads the time only through its clock layer', () => {
    const readings = files
      .filter((file) => file.name !== CLOCK_LAYER)
      .flatMap((file) =>
        file.text
          .split('\n')
          .map((line, index) => ({ line, at: `${file.name}:${index + 1}` }))
          .filter(({ line }) => /Date\.now\b|new Date\(\)/.test(line))
          .map(({ at }) => at),
      );
    expect(readings).toEqual([]);
  });
});
