/** JSON over fetch with the status and headers kept, for black-box assertions. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; key?: string; cookie?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Registers a fresh user and returns its session cookie. */
export async function registerUser(baseUrl: string, label: string) {
  const email = `${label}-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await call(baseUrl, 'POST', '/api/auth/register', {
    body: { email, password: 'correct horse', name: label },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { email, cookie, userId: res.body.user.id as string };
}
