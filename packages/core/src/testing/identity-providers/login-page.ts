import type { IncomingMessage } from 'node:http';

/**
 * The pages the test identity providers show a person, and the few steps of a browser their `signIn`
 * helpers take without one. Both providers show the same form, so a browser test signs in the same way at
 * either: it fills the field labelled "Email" and clicks "Sign in".
 */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => {
    const chars: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
    return chars[name] ?? '';
  });

/** The message both forms show for an email no user has (never signed up, or removed since). */
export const NO_SUCH_USER = 'No such user';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body><main>${body}</main></body></html>`;

const hiddenInputs = (hidden: Record<string, string>) =>
  Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');

/**
 * The sign-in form: one labelled email field and a submit button; `error` is shown in an alert region
 * (and the email kept) when the last try found no one.
 */
export function loginPage(options: {
  title: string;
  action: string;
  hidden?: Record<string, string>;
  email?: string;
  error?: string;
}): string {
  const error = options.error ? `<p role="alert">${escapeHtml(options.error)}</p>` : '';
  return page(
    options.title,
    `<h1>${escapeHtml(options.title)}</h1>${error}` +
      `<form method="post" action="${escapeHtml(options.action)}">${hiddenInputs(options.hidden ?? {})}` +
      `<label for="email">Email</label>` +
      `<input id="email" name="email" type="text" autocomplete="username" value="${escapeHtml(options.email ?? '')}">` +
      `<button type="submit">Sign in</button></form>`,
  );
}

/**
 * A page that posts `fields` to `action` as soon as it loads (the SAML HTTP-POST binding), with a visible
 * Continue button for a browser that runs no script.
 */
export function autoPostPage(action: string, fields: Record<string, string>): string {
  return page(
    'Signing in',
    `<form method="post" action="${escapeHtml(action)}">${hiddenInputs(fields)}` +
      `<noscript><p>Continue to finish signing in.</p></noscript><button type="submit">Continue</button></form>` +
      `<script>document.forms[0].submit()</script>`,
  );
}

/** A request's urlencoded body. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The first form of a page as a browser would submit it: its action and its inputs by name. */
export function firstForm(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[unescapeHtml(name)] = unescapeHtml(/\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? '');
  }
  return { action: unescapeHtml(form[1] ?? ''), fields };
}

/** The error a page shows, if any (the alert region of `loginPage`). */
export const pageError = (html: string) => {
  const alert = /<p role="alert">([^<]*)<\/p>/.exec(html)?.[1];
  return alert === undefined ? null : unescapeHtml(alert);
};

/**
 * The cookies of one browser for one site: what `Set-Cookie` headers left (expired ones removed), sent
 * back on every request. Paths are ignored: each `signIn` is a fresh browser talking to one provider.
 */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    store: (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expires = attributes.find((a) => /^\s*expires=/i.test(a))?.split('=')[1];
        const maxAge = attributes.find((a) => /^\s*max-age=/i.test(a))?.split('=')[1];
        const gone =
          value === '' ||
          (maxAge !== undefined && Number(maxAge) <= 0) ||
          (expires !== undefined && Date.parse(expires) <= Date.now());
        if (gone) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}
