import { describe, expect, it } from 'vitest';
import { minimalDocx, minimalPdf } from '../testing/documents.ts';
import { ExtractionError } from './extract-text.ts';
import { createSandboxPool, extractTextIsolated, SandboxesBusyError } from './extraction-sandbox.ts';
import { CONTENT_TYPES } from './file-types.ts';

describe('extraction in its sandbox', () => {
  it('reads PDF, Word and HTML in a worker thread, as the parsers do in process', async () => {
    expect(await extractTextIsolated(CONTENT_TYPES['.pdf'], minimalPdf('Churn fell to 2% in May'))).toContain(
      'Churn fell to 2% in May',
    );
    expect(await extractTextIsolated(CONTENT_TYPES['.docx'], minimalDocx(['One', 'Two']))).toBe('One\n\nTwo');
    const page = `<html><head><title>Pricing</title></head><body><nav>Home | About</nav><article>
      <h1>Pricing</h1><p>${'Our annual plan costs less than twelve monthly ones. '.repeat(12)}</p></article></body></html>`;
    const text = await extractTextIsolated('text/html; charset=utf-8', new TextEncoder().encode(page));
    expect(text.startsWith('Pricing\n\n')).toBe(true);
    expect(text).toContain('Our annual plan costs less than twelve monthly ones.');
    expect(text).not.toContain('Home | About');
  });

  it("answers the file's own failure with its reason", async () => {
    const forged = new TextEncoder().encode('%PDF-1.4 but nothing else');
    const failure = extractTextIsolated(CONTENT_TYPES['.pdf'], forged);
    await expect(failure).rejects.toThrow(ExtractionError);
    await expect(failure).rejects.toThrow(/The PDF could not be read/);
  });

  it('stops a file that takes longer than its deadline, with the reason', async () => {
    const slow = extractTextIsolated(CONTENT_TYPES['.pdf'], minimalPdf('x'), {
      timeoutMs: 1,
      maxMemoryMb: 512,
    });
    await expect(slow).rejects.toThrow(ExtractionError);
    await expect(slow).rejects.toThrow('Reading the file took longer than 0.001 s');
  });

  it('stops a file whose parsing outgrows its memory limit, and the process goes on', async () => {
    const nested = `<html><body>${'<div><span>deep</span>'.repeat(200_000)}</body></html>`;
    const bytes = new TextEncoder().encode(nested);
    const big = extractTextIsolated('text/html', bytes, { timeoutMs: 60_000, maxMemoryMb: 16 });
    await expect(big).rejects.toThrow('Reading the file needs more than 16 MB of memory');
    // The next extraction, in a fresh worker, is unaffected.
    expect(await extractTextIsolated(CONTENT_TYPES['.md'], new TextEncoder().encode('# still here'))).toBe(
      '# still here',
    );
  });

  it('runs at most its number of sandboxes at once, lines up the next ones per lane, and refuses past the line', async () => {
    const pool = createSandboxPool({ atOnce: 1, queued: { stored: 1, page: 0 } });
    const docx = (words: string) => minimalDocx([words]);
    const first = pool.extract('stored', CONTENT_TYPES['.docx'], docx('first'));
    const second = pool.extract('stored', CONTENT_TYPES['.docx'], docx('second'));
    expect({ active: pool.active, stored: pool.queued('stored') }).toEqual({ active: 1, stored: 1 });
    await expect(pool.extract('stored', CONTENT_TYPES['.docx'], docx('third'))).rejects.toThrow(
      SandboxesBusyError,
    );
    const page = new TextEncoder().encode('<p>page</p>');
    await expect(pool.extract('page', 'text/html', page)).rejects.toThrow(SandboxesBusyError);
    // Plain text needs no sandbox: it is read at once, whatever the pool holds.
    const markdown = new TextEncoder().encode('# read in process');
    expect(await pool.extract('page', CONTENT_TYPES['.md'], markdown)).toBe('# read in process');
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(pool.active).toBe(0);
    expect(await pool.extract('page', CONTENT_TYPES['.docx'], docx('room again'))).toBe('room again');
  });
});
