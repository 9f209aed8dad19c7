/**
 * Text a PostgreSQL `varchar` column takes, from a receiver's answer (bytes) or an error message: valid
 * UTF-8 (an invalid byte becomes U+FFFD; a character the limit cuts in two is dropped, not mangled), no NUL
 * (PostgreSQL refuses U+0000 in text, and one NUL would make the whole attempt unrecordable), and at most
 * `maxBytes` bytes once encoded, cut between whole characters (never inside a surrogate pair). At most
 * `maxBytes` bytes is also at most `maxBytes` characters, which is what a `varchar(n)` counts.
 *
 * @example
 * storedText(Buffer.from('ok\0 done'), 1024); // 'ok done'
 * storedText('é'.repeat(600), 1024); // 512 × 'é' (1,024 bytes)
 */
export function storedText(input: string | Uint8Array, maxBytes: number): string {
  const decoded =
    typeof input === 'string'
      ? input.toWellFormed()
      : // `stream: true` holds back a trailing character cut by the limit instead of turning it into U+FFFD.
        new TextDecoder('utf-8').decode(input.subarray(0, maxBytes), { stream: true });
  const text = decoded.replaceAll('\u0000', '');
  let bytes = 0;
  let end = 0;
  // A string's iterator yields code points: a surrogate pair stays whole.
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0)!);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

const utf8Length = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
