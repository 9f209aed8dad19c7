import { describe, expect, it } from 'vitest';
import { contentDisposition } from './attachment-routes.ts';

describe('Content-Disposition of a download', () => {
  it('gives an ASCII fallback name and the exact name in filename*, as RFC 6266 has it', () => {
    expect(contentDisposition('plan "B" 100%.pdf')).toBe(
      `attachment; filename="plan _B_ 100_.pdf"; filename*=UTF-8''plan%20%22B%22%20100%25.pdf`,
    );
    expect(contentDisposition("l'été (1).md")).toBe(
      `attachment; filename="l'_t_ (1).md"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29.md`,
    );
  });
});
