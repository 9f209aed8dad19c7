// No parser is imported here at load: each is imported when its first file comes (extraction-worker.ts
// starts a thread per file, and loading every parser, or the contracts, for each would cost it ~200 ms).

/** Extraction could not read the bytes: `message` is the reason stored on the attachment. */
export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

/**
 * At most `max` characters of `text`, whitespace runs folded so the budget is spent on words; a cut never
 * leaves half a surrogate pair.
 */
export function capText(text: string, max: number): string {
  const folded = text
    // PostgreSQL text cannot hold NUL: a file or page that has one must not make its text unstorable.
    .replaceAll('\u0000', '')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
  if (folded.length <= max) return folded;
  const cut = folded.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The media type of a Content-Type value, parameters dropped: `Text/HTML; charset=utf-8` is `text/html`. */
export const mediaType = (contentType: string): string =>
  contentType.split(';')[0]?.trim().toLowerCase() ?? '';

const reason = (what: string, error: unknown) =>
  new ExtractionError(`${what}: ${error instanceof Error ? error.message.slice(0, 300) : 'unreadable'}`);

/**
 * The text of a stored attachment or fetched page by its content type, capped at `maxChars` (50,000 for
 * attachments). PDFs
 * through unpdf (pdf.js), Word documents through mammoth's raw text, HTML through Readability (the article,
 * without navigation and scripts), text files as strict UTF-8. Throws ExtractionError with a reason fit to
 * show the owner when the bytes cannot be read. Parsers run on untrusted bytes: callers go through
 * extraction-sandbox.ts, which runs this in a worker thread with time and memory limits.
 */
export async function extractText(contentType: string, bytes: Uint8Array, maxChars: number): Promise<string> {
  const type = mediaType(contentType);
  if (type === 'application/pdf') {
    const { extractText: extractPdfText, getDocumentProxy } = await import('unpdf');
    let text: string;
    try {
      // pdf.js may take ownership of the buffer it is given: hand it a copy.
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
      text = (await extractPdfText(pdf, { mergePages: true })).text;
    } catch (error) {
      throw reason('The PDF could not be read', error);
    }
    return capText(text, maxChars);
  }
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') {
    const expanded = zipExpandedSize(bytes);
    if (expanded === null || expanded > DOCX_EXPANDED_MAX) {
      throw new ExtractionError('The Word document expands to more than 50 MB, or its archive is unreadable');
    }
    const { default: mammoth } = await import('mammoth');
    let text: string;
    try {
      text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
    } catch (error) {
      throw reason('The Word document could not be read', error);
    }
    return capText(text, maxChars);
  }
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const [{ Readability }, { parseHTML }] = await Promise.all([
      import('@mozilla/readability'),
      import('linkedom'),
    ]);
    let text: string;
    try {
      const { document } = parseHTML(wholeDocument(new TextDecoder('utf-8').decode(bytes)));
      const article = new Readability(
        document as unknown as ConstructorParameters<typeof Readability>[0],
      ).parse();
      const body = article?.textContent ?? document.body?.textContent ?? '';
      text = article?.title ? `${article.title}\n\n${body}` : body;
    } catch (error) {
      throw reason('The page could not be read', error);
    }
    const capped = capText(text, maxChars);
    if (capped === '') throw new ExtractionError('The page has no readable text');
    return capped;
  }
  if (type === 'text/plain' || type === 'text/markdown') {
    try {
      return capText(new TextDecoder('utf-8', { fatal: true }).decode(bytes), maxChars);
    } catch (error) {
      throw reason('The text is not UTF-8', error);
    }
  }
  throw new ExtractionError(`No text extraction for ${type}`);
}

/**
 * The page as a whole document: linkedom builds no document element from a fragment or bare text (an
 * empty page, "Hello", "<p>…</p>"), and Readability refuses such a document.
 */
function wholeDocument(html: string): string {
  return /<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`;
}

/** What a .docx may expand to (every part, as its zip directory declares): a 10 MB upload of text is far less. */
const DOCX_EXPANDED_MAX = 50 * 1024 * 1024;

/**
 * The total size the entries of a zip archive declare once inflated, read from its central directory
 * without inflating anything; null when the directory cannot be found or uses ZIP64 (more than a .docx
 * needs). A small file that declares gigabytes (a "zip bomb") is refused before the library inflates it.
 */
export function zipExpandedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: in the last 22 bytes plus an optional comment of up to 64 KB.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) return null;
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}
