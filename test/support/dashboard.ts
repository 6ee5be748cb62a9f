import { randomInt } from 'node:crypto';
import { escapeHtml } from '#shared/pages/html.ts';

/**
 * The dashboard as a browser without JavaScript uses it, over real HTTP: a cookie jar, forms
 * posted from the service's own Origin, redirects looked at rather than followed, and the codes
 * read from the local host's SMS inbox, as the phone got them.
 */

/**
 * How long a test waits for the local host's work in the background (the table's stream, a queue,
 * the SMS worker) before it calls it a failure: long, since a machine busy with other work may be
 * slow, and only a failure waits it out.
 */
export const backgroundWorkMs = 60_000;

/** What the local SMS inbox shows of one phone's texts, newest first, as HTML. */
async function inboxSectionOf(baseUrl: string, phone: string): Promise<string> {
  const page = await (await fetch(`${baseUrl}/__local/sms`)).text();
  return (
    new RegExp(
      `<section class="phone" data-number="${escapeHtml(phone).replace('+', '\\+')}">([\\s\\S]*?)</section>`,
    ).exec(page)?.[1] ?? ''
  );
}

/** The sign-in codes a phone got, newest first, as the local SMS inbox shows them. */
export async function signInCodesOf(baseUrl: string, phone: string): Promise<string[]> {
  return [...(await inboxSectionOf(baseUrl, phone)).matchAll(/(?:votre code est|your code is) (\d{6})/g)].map(
    (match) => match[1] as string,
  );
}

/** The links of the invitations a phone got, newest first (the SMS worker sends them shortly after). */
export async function invitationLinksOf(
  baseUrl: string,
  phone: string,
  timeoutMs = backgroundWorkMs,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const links = [
      ...(await inboxSectionOf(baseUrl, phone)).matchAll(/(?:invité|invited)[^<]*?(https?:\/\/[^\s<]+)/g),
    ].map((match) => (match[1] as string).replaceAll('&amp;', '&'));
    if (links.length > 0 || Date.now() > deadline) return links;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The texts a phone got, newest first, once it has `atLeast` of them (or the wait is over). */
export async function textsOf(baseUrl: string, phone: string, atLeast: number): Promise<string[]> {
  const deadline = Date.now() + backgroundWorkMs;
  for (;;) {
    const texts = [...(await inboxSectionOf(baseUrl, phone)).matchAll(/<li class="sms">([^<]*)/g)].map(
      (match) => match[1] as string,
    );
    if (texts.length >= atLeast || Date.now() > deadline) return texts;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits for the phone's next code: one more than it had (`had`), sent by the SMS worker. */
export async function nextCodeOf(baseUrl: string, phone: string, had: number, timeoutMs = backgroundWorkMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const codes = await signInCodesOf(baseUrl, phone);
    if (codes.length > had) return codes[0] as string;
    if (Date.now() > deadline) throw new Error(`no new sign-in code for ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface Answer {
  status: number;
  location: string | null;
  setCookie: string | null;
  headers: Headers;
  text: string;
}

export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  get cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...(options.form
          ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl }
          : {}),
        ...options.headers,
      },
      body: options.form ? new URLSearchParams(options.form).toString() : undefined,
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair = ''] = setCookie.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/Max-Age=0/.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      setCookie,
      headers: response.headers,
      text: await response.text(),
    };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, form: Record<string, string>, headers?: Record<string, string>) =>
    this.request('POST', path, { form, headers });

  /** Phone → code: where the code step sent this browser (the dashboard, or the sign-up form). */
  async signInWith(phone: string): Promise<Answer> {
    const had = (await signInCodesOf(this.baseUrl, phone)).length;
    const sent = await this.post('/dashboard/sign-in', { phone });
    if (sent.status !== 303) throw new Error(`no code sent: ${sent.status} ${sent.text.slice(0, 300)}`);
    const code = await nextCodeOf(this.baseUrl, phone, had);
    return this.post('/dashboard/sign-in/code', { code });
  }

  /** The CSRF token of the page at `path`'s first form. */
  async csrfOf(path = '/dashboard'): Promise<string> {
    const page = await this.get(path);
    const token = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!token) throw new Error(`no token on ${path}: ${page.status}`);
    return token;
  }
}

/** A new phone of Côte d'Ivoire, random enough that runs do not meet. */
export const newDashboardPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** A new owner through the whole sign-up, signed in: their browser, phone and business's id. */
export async function signUpOwner(
  baseUrl: string,
  form: Record<string, string> = {
    firstName: 'Aïcha',
    lastName: 'Traoré',
    businessName: 'Maquis Aïcha',
    activityId: 'commerce.boutique',
    storeName: 'Yopougon',
  },
) {
  const browser = new DashboardBrowser(baseUrl);
  const phone = newDashboardPhone();
  const code = await browser.signInWith(phone);
  if (code.location !== `${baseUrl}/dashboard/sign-up`) throw new Error(`not to the sign-up: ${code.status}`);
  const created = await browser.post('/dashboard/sign-up', form);
  if (created.status !== 303)
    throw new Error(`sign-up refused: ${created.status} ${created.text.slice(0, 300)}`);
  const home = await browser.get('/dashboard');
  const businessId = /data-business-id="([^"]+)"/.exec(home.text)?.[1] ?? '';
  return { browser, phone, businessId };
}

/** The hidden fields of the page's form posting to `action`, as a browser would send them. */
export function formFields(page: string, action: string): Record<string, string> {
  const form = new RegExp(`<form method="post" action="[^"]*${action}[^"]*"[^>]*>([\\s\\S]*?)</form>`).exec(
    page,
  )?.[1];
  if (!form) throw new Error(`no form to ${action}`);
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [
      match[1] as string,
      (match[2] as string).replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'"),
    ]),
  );
}

/** Where a post's 303 leads, as a browser follows it (a GET of the Location); any other answer as it is. */
export async function followed(browser: DashboardBrowser, answer: Answer): Promise<Answer> {
  if (answer.status !== 303 || !answer.location) return answer;
  const location = new URL(answer.location);
  return browser.get(`${location.pathname}${location.search}`);
}
