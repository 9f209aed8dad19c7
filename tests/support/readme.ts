/** A fenced code block of a Markdown document: its language tag and its text. */
export type CodeBlock = { lang: string; code: string };

/**
 * The fenced code blocks of the section `heading` names (its line exactly, e.g. `## Try it`), in order, up
 * to the next heading of any level: a subsection's blocks are its own, not its section's.
 */
export function codeBlocksUnder(markdown: string, heading: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`README.md has no section "${heading}"`);
  const blocks: CodeBlock[] = [];
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of lines.slice(start + 1)) {
    const fence = /^```(\w*)\s*$/.exec(line);
    if (open) {
      if (fence) {
        blocks.push({ lang: open.lang, code: open.lines.join('\n') });
        open = null;
      } else open.lines.push(line);
      continue;
    }
    if (fence) open = { lang: fence[1] ?? '', lines: [] };
    else if (/^#+ /.test(line)) break;
  }
  return blocks;
}
