/** What a link preview (Open Graph) says about a page. */
export type Preview = { title: string; description: string; url: string };

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The console's HTML for one page: the built index.html with the page's title and Open Graph tags in
 * place of its `<!--verdict:head-->` marker. Everything inserted is escaped text in attributes or a title:
 * a question cannot become markup, and the page keeps no inline script.
 */
export function renderDocument(indexHtml: string, preview: Preview | null): string {
  if (!preview) return indexHtml;
  const title = escapeHtml(clip(preview.title, 200));
  const description = escapeHtml(clip(preview.description, 300));
  const url = escapeHtml(preview.url);
  const tags = [
    `<meta property="og:type" content="article" />`,
    `<meta property="og:site_name" content="Verdict" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
  ].join('\n    ');
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${title} · Verdict</title>`)
    .replace(/<meta name="description"[^>]*>/, `<meta name="description" content="${description}" />`)
    .replace('<!--verdict:head-->', tags);
}
