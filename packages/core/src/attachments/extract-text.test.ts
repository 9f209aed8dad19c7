import { ATTACHMENT_TEXT_MAX } from '@verdict/contracts';
import { describe, expect, it } from 'vitest';
import { minimalDocx, minimalPdf, storedZip } from '../testing/documents.ts';
import { shareBudget } from './agent-context.ts';
import { capText, ExtractionError, extractText, zipExpandedSize } from './extract-text.ts';
import { CONTENT_TYPES, contentMismatch, extensionOf } from './file-types.ts';

describe('text extraction', () => {
  it('reads the text a PDF page draws', async () => {
    const text = await extractText(
      CONTENT_TYPES['.pdf'],
      minimalPdf('Quarterly revenue grew (12%) in Q3'),
      ATTACHMENT_TEXT_MAX,
    );
    expect(text).toContain('Quarterly revenue grew (12%) in Q3');
  });

  it('reads the paragraphs of a Word document', async () => {
    const text = await extractText(
      CONTENT_TYPES['.docx'],
      minimalDocx(['First point', 'Second <point>']),
      ATTACHMENT_TEXT_MAX,
    );
    expect(text).toBe('First point\n\nSecond <point>');
  });

  it('reads UTF-8 text and markdown as they are', async () => {
    const bytes = new TextEncoder().encode('# Héllo\n\nwörld');
    expect(await extractText(CONTENT_TYPES['.md'], bytes, ATTACHMENT_TEXT_MAX)).toBe('# Héllo\n\nwörld');
  });

  it('fails with a reason, not a crash, on bytes that only look like a PDF', async () => {
    const forged = new TextEncoder().encode('%PDF-1.4 but nothing else');
    await expect(extractText(CONTENT_TYPES['.pdf'], forged, ATTACHMENT_TEXT_MAX)).rejects.toThrow(
      ExtractionError,
    );
    await expect(extractText(CONTENT_TYPES['.pdf'], forged, ATTACHMENT_TEXT_MAX)).rejects.toThrow(
      /The PDF could not be read/,
    );
  });

  it('reads a page sent as a fragment or bare text, and fails with a reason on one with no text', async () => {
    const page = (html: string) =>
      extractText('text/html', new TextEncoder().encode(html), ATTACHMENT_TEXT_MAX);
    expect(await page('Plain words served as HTML')).toBe('Plain words served as HTML');
    expect(await page('<p>Just a paragraph</p>')).toBe('Just a paragraph');
    for (const empty of ['', '   ', '<html><body></body></html>']) {
      await expect(page(empty)).rejects.toThrow(ExtractionError);
      await expect(page(empty)).rejects.toThrow('The page has no readable text');
    }
  });

  it('fails with a reason on a zip that is not a Word document', async () => {
    await expect(
      extractText(CONTENT_TYPES['.docx'], storedZip({ 'a.txt': 'x' }), ATTACHMENT_TEXT_MAX),
    ).rejects.toThrow(/The Word document could not be read/);
  });

  it('keeps at most 50,000 characters and never half a surrogate pair', () => {
    expect(capText('a'.repeat(ATTACHMENT_TEXT_MAX + 10), ATTACHMENT_TEXT_MAX)).toHaveLength(
      ATTACHMENT_TEXT_MAX,
    );
    const emoji = `${'a'.repeat(ATTACHMENT_TEXT_MAX - 1)}😀`;
    expect(capText(emoji, ATTACHMENT_TEXT_MAX)).toBe('a'.repeat(ATTACHMENT_TEXT_MAX - 1));
  });
});

describe('the expansion guard of Word documents', () => {
  const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

  it('reads the inflated size every entry declares, without inflating', () => {
    const files = { 'a.txt': 'x'.repeat(1000), 'b/c.xml': '<x/>' };
    expect(zipExpandedSize(storedZip(files))).toBe(1004);
    expect(zipExpandedSize(new TextEncoder().encode('not a zip at all'))).toBeNull();
  });

  it('refuses a document that declares more than 50 MB before the library inflates it', async () => {
    const docx = minimalDocx(['A small document that claims to be huge.']);
    await expect(extractText(DOCX, docx, ATTACHMENT_TEXT_MAX)).resolves.toContain('claims to be huge');
    // Rewrite the first central-directory entry's inflated size to 60 MB, as a zip bomb's would read.
    const bomb = new Uint8Array(docx);
    const view = new DataView(bomb.buffer);
    const directory = bomb.findIndex(
      (_, i) => i + 4 <= bomb.length && view.getUint32(i, true) === 0x02014b50,
    );
    view.setUint32(directory + 24, 60 * 1024 * 1024, true);
    await expect(extractText(DOCX, bomb, ATTACHMENT_TEXT_MAX)).rejects.toThrow(ExtractionError);
    await expect(extractText(DOCX, bomb, ATTACHMENT_TEXT_MAX)).rejects.toThrow(/more than 50 MB/);
  });
});

describe('file types', () => {
  it('accepts the four extensions in any case and nothing else', () => {
    expect(extensionOf('Report.PDF')).toBe('.pdf');
    expect(extensionOf('notes.md')).toBe('.md');
    expect(extensionOf('archive.tar.docx')).toBe('.docx');
    expect(extensionOf('script.exe')).toBeNull();
    expect(extensionOf('README')).toBeNull();
  });

  it('refuses bytes that are not what the extension says', () => {
    const html = new TextEncoder().encode('<html>not a pdf</html>');
    expect(contentMismatch('.pdf', html)).toMatch(/not a PDF/);
    expect(contentMismatch('.docx', html)).toMatch(/not a Word/);
    expect(contentMismatch('.txt', new Uint8Array([0xff, 0xfe, 0x00]))).toMatch(/not UTF-8/);
    expect(contentMismatch('.pdf', minimalPdf('x'))).toBeNull();
    expect(contentMismatch('.docx', minimalDocx(['x']))).toBeNull();
    expect(contentMismatch('.txt', html)).toBeNull();
  });
});

describe('the attachment budget of a prompt', () => {
  const excerpt = (name: string, length: number) => ({ name, text: name.repeat(length) });

  it('splits the budget equally among long texts', () => {
    const shared = shareBudget([excerpt('a', 100), excerpt('b', 100)], 60);
    expect(shared.map((e) => e.text.length)).toEqual([30, 30]);
  });

  it('hands what a short text leaves over to the longer ones, keeping their order', () => {
    const shared = shareBudget([excerpt('a', 100), excerpt('b', 5), excerpt('c', 100)], 65);
    expect(shared.map((e) => [e.name, e.text.length])).toEqual([
      ['a', 30],
      ['b', 5],
      ['c', 30],
    ]);
  });

  it('keeps every text whole when they fit', () => {
    expect(shareBudget([excerpt('a', 3), excerpt('b', 4)], 100).map((e) => e.text)).toEqual(['aaa', 'bbbb']);
  });
});
