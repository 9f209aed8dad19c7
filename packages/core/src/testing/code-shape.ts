import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * What the code-shape tests of each package read: its source files (tests and testing/ helpers left out),
 * and the functions in them longer than a limit. Its own entry point (`@verdict/core/testing/code-shape`):
 * it loads the TypeScript compiler, which no other test needs.
 */

export type SourceFile = { name: string; text: string };

/** Every `.ts` file under `root` but tests and testing/ helpers, named relative to `root`. */
export function productSources(root: string): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'testing' ? [] : walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
    });
  return walk(root).map((path) => ({ name: relative(root, path), text: readFileSync(path, 'utf8') }));
}

export type LongFunction = { file: string; name: string; line: number; lines: number };

/** The function's name as a reader finds it: its own, the variable or property it is assigned to, else its line. */
function nameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(file);
  if (parent && ts.isCallExpression(parent)) {
    const outer = parent.parent;
    if (outer && ts.isVariableDeclaration(outer)) return outer.name.getText(file);
  }
  return `(anonymous, line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1})`;
}

/** Every function-like node with a body longer than `maxLines`, outermost first. */
export function longFunctions(source: SourceFile, maxLines: number): LongFunction[] {
  const file = ts.createSourceFile(source.name, source.text, ts.ScriptTarget.Latest, true);
  const long: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines)
        long.push({ file: source.name, name: nameOf(node, file), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}
