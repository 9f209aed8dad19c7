import { longFunctions, productSources } from '@verdict/core/testing/code-shape';
import { describe, expect, it } from 'vitest';

/** No product function of the API over 80 lines: handlers are thin, one procedure a file. */
const MAX_FUNCTION_LINES = 80;

const files = productSources(import.meta.dirname);

describe('the API code', () => {
  it('has source files to look at', () => {
    expect(files.map((file) => file.name)).toContain('router.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES));
    expect(long.map((found) => `${found.file}:${found.line} ${found.name} (${found.lines} lines)`)).toEqual(
      [],
    );
  });
});
