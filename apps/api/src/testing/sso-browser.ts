import type { Harness } from './http-harness.ts';

/**
 * A browser as single sign-on meets it, without one: it follows no redirect by itself (the test looks at
 * each), keeps the cookies the server sets (the binding cookie, the session), and sends them back. The
 * service's public address (PUBLIC_BASE_URL, which the providers redirect to) is mapped to the harness's
 * real one, so the test server can listen on any port.
 */
export function ssoBrowser(h: Harness, publicBaseUrl: string) {
  const jar = new Map<string, string>();
  const local = (url: string) =>
    url.startsWith(publicBaseUrl) ? h.baseUrl + url.slice(publicBaseUrl.length) : url;
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const send = async (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(local(url), {
      ...init,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
    });
    remember(response);
    return {
      status: response.status,
      location: response.headers.get('location') ?? '',
      text: await response.text(),
    };
  };
  return {
    cookies: jar,
    get: (url: string) => send(url.startsWith('/') ? `${h.baseUrl}${url}` : url),
    /** A form post, as a provider's auto-posting page makes it: from the provider's site. */
    postForm: (url: string, fields: Record<string, string>, fromOrigin: string) =>
      send(url, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: fromOrigin,
          'sec-fetch-site': 'cross-site',
        },
      }),
    /** The session cookie, once signed in. */
    session: () => jar.get('verdict_session'),
  };
}

export type SsoBrowser = ReturnType<typeof ssoBrowser>;
