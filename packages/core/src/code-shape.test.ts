import { describe, expect, it } from 'vitest';
import { longFunctions, productSources } from './testing/code-shape.ts';

/**
 * No product function of core over 80 lines: each feature is one operation a file over shared resources
 * (resources.ts), its entry only gathering them (collections/collections.ts is the shape).
 */
const MAX_FUNCTION_LINES = 80;

const files = productSources(import.meta.dirname);

describe('the core code', () => {
  it('has source files to look at', () => {
    expect(files.map((file) => file.name)).toContain('core.ts');
    expect(files.some((file) => file.name.startsWith('testing/'))).toBe(false);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((file) => longFunctions(file, MAX_FUNCTION_LINES));
    expect(long.map((found) => `${found.file}:${found.line} ${found.name} (${found.lines} lines)`)).toEqual(
      [],
    );
  });

  it('finds what it forbids, by the name a reader looks for', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, () => '  work();').join('\n');
    const sample = (text: string) => longFunctions({ name: 'sample.ts', text }, MAX_FUNCTION_LINES);
    expect(sample(`function long() {\n${body}\n}`)).toEqual([
      { file: 'sample.ts', name: 'long', line: 1, lines: 82 },
    ]);
    expect(sample(`export const make = (db: Db) => {\n${body}\n};`).map((f) => f.name)).toEqual(['make']);
    expect(sample(`const short = () => 1;\nfunction alsoShort() {\n  work();\n}`)).toEqual([]);
  });
});
