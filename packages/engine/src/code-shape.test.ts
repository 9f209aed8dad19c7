import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The engine's code stays in parts a reader can hold: no file over 300 lines, no function over 80, and one
 * source of time (clock.ts): a `Date.now()` or `new Date()` elsewhere reads a clock no test can set.
 * Tests are not held to it.
 */
const ROOT = import.meta.dirname;
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
const CLOCK_LAYER = 'clock.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(ROOT).map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/** Every function-like node with a body, as "file:line (n lines)" when it is longer than the limit. */
function longFunctions(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) long.push(`${name}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}

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
    expect(files.flatMap((file) => longFunctions(file.name, file.text))).toEqual([]);
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

  it('finds what it forbids', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, () => '  work();').join('\n');
    expect(longFunctions('sample.ts', `function long() {\n${body}\n}`)).toEqual(['sample.ts:1 (82 lines)']);
    expect(longFunctions('sample.ts', 'const short = () => 1;')).toEqual([]);
  });
});
