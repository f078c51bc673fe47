import type { TestServer } from '../harness.ts';
import { createUser } from '../../src/domain/dashboard/users.ts';

export interface Page {
  status: number;
  location: string | null;
  text: string;
}

/** A browser's share of HTTP for the dashboard: a cookie jar, form posts, and the CSRF token read off each page. */
export class DashboardClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly server: TestServer) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async send(method: string, path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Page> {
    const body = form ? new URLSearchParams(Object.entries(form).flatMap(([k, v]) => [v].flat().map((x): [string, string] => [k, x]))).toString() : undefined;
    const res = await fetch(this.server.url + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size > 0 && { cookie: this.cookieHeader() }),
        ...(body !== undefined && { 'content-type': 'application/x-www-form-urlencoded', origin: this.server.url }),
        ...headers,
      },
      body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  get(path: string): Promise<Page> {
    return this.send('GET', path);
  }

  /** Posts a form the way the page would: with the CSRF token the page carried. */
  async submit(pagePath: string, action: string, form: Record<string, string | string[]> = {}): Promise<Page> {
    const page = await this.get(pagePath);
    return this.send('POST', action, { _csrf: csrfOf(page.text), ...form });
  }

  /** `headers` go with both requests: an X-Forwarded-For, say, to sign in from another address through a trusted proxy. */
  async signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Page> {
    const login = await this.send('GET', '/dashboard/login', undefined, headers);
    return this.send('POST', '/dashboard/login', { _csrf: csrfOf(login.text), email, password, next: '/dashboard/test/keys' }, headers);
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return match[1]!;
}

export const password = 'correct horse battery staple';

/** An account with a dashboard user; answers the account id and the user's email. */
export async function accountWithUser(server: TestServer, email = `owner-${Math.random().toString(36).slice(2)}@example.com`): Promise<{ account: string; email: string }> {
  const account = await server.account();
  await createUser(server.services.database.db, server.clock, account, email, password);
  return { account, email };
}
