import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '#shared/domain/languages.ts';
import { html, trustedHtml } from '#shared/pages/html.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { type InboxMessage, sandboxInbox } from '#shared/sms/sandbox.ts';

/**
 * The phones of the sandbox SMS gateway, on the local host only (not an endpoint, like the
 * demo webhook receiver): every number's inbox, newest first, so a developer sees the receipt
 * arrive. It reloads itself every 5 seconds; French by default, English when the browser prefers
 * it or `?lang=en`.
 */
export const smsInboxPath = '/__local/sms';

const refreshSeconds = 5;

const text = {
  fr: {
    title: 'Téléphones du bac à sable SMS',
    intro: 'Les SMS envoyés par le bac à sable, par numéro, du plus récent au plus ancien.',
    empty: 'Aucun SMS pour le moment. Envoyez-en un avec POST /partner_api/messages.',
    messages: (count: number) => (count > 1 ? `${count} messages` : '1 message'),
    other: 'English',
  },
  en: {
    title: 'Sandbox SMS phones',
    intro: 'The texts the sandbox sent, by number, newest first.',
    empty: 'No text yet. Send one with POST /partner_api/messages.',
    messages: (count: number) => (count > 1 ? `${count} messages` : '1 message'),
    other: 'Français',
  },
} as const;

const styles = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#eef1f5;color:#1f2937;line-height:1.45}
main{max-width:760px;margin:0 auto;padding:16px 12px}h1{font-size:22px;margin:8px 0}p.intro{color:#4b5563;margin:0 0 16px}
.phones{display:grid;gap:16px;grid-template-columns:repeat(auto-fill,minmax(300px,1fr))}
.phone{background:#111827;border-radius:24px;padding:14px 10px}.phone h2{color:#f9fafb;font-size:16px;margin:4px 8px 2px;font-variant-numeric:tabular-nums}
.count{color:#9ca3af;font-size:13px;margin:0 8px 10px}ol{list-style:none;margin:0;padding:0;display:grid;gap:8px}
.sms{background:#e5e7eb;border-radius:16px 16px 16px 4px;padding:8px 12px;white-space:pre-wrap;overflow-wrap:anywhere}
time{display:block;font-size:12px;color:#6b7280;margin-top:4px}.empty{background:#fff;border-radius:12px;padding:16px}
nav{text-align:right}a{color:#0f766e}`;

export function smsInbox() {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const language = negotiateLanguage(
      request.headers['accept-language'],
      url.searchParams.get('lang') ?? undefined,
    );
    try {
      const body = renderInbox(await sandboxInbox(), language);
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
      response.end(body);
    } catch (error) {
      console.error('[sms inbox] failed:', error);
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('SMS inbox unavailable');
    }
  };
}

/** Phones ordered by their newest text, each with its texts newest first. */
export function renderInbox(messages: readonly InboxMessage[], language: Language): string {
  const t = text[language];
  const byNumber = new Map<string, InboxMessage[]>();
  for (const message of messages) byNumber.set(message.to, [...(byNumber.get(message.to) ?? []), message]);
  const formatter = new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: 'UTC',
  });
  const phones = [...byNumber.entries()].map(
    ([number, texts]) => html`<section class="phone" data-number="${number}">
  <h2>${number}</h2><p class="count">${t.messages(texts.length)}</p>
  <ol>${texts.map(
    (sms) =>
      html`<li class="sms">${sms.body}<time datetime="${sms.sentAt}">${formatter.format(new Date(sms.sentAt))} UTC</time></li>`,
  )}</ol>
</section>`,
  );
  const other: Language = language === 'fr' ? 'en' : 'fr';
  return html`<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="${refreshSeconds}"><title>${t.title}</title><style>${trustedHtml(styles)}</style></head>
<body><main><nav><a href="${smsInboxPath}?lang=${other}" lang="${other}">${t.other}</a></nav>
<h1>${t.title}</h1><p class="intro">${t.intro}</p>
${phones.length ? html`<div class="phones">${phones}</div>` : html`<p class="empty">${t.empty}</p>`}
</main></body></html>`.toString();
}
