import type { Language } from '#shared/domain/languages.ts';
import { html } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { messages } from '#shared/pages/messages.ts';

/**
 * What a payer sees when a page cannot be shown: what happened in plain words, and for a fault of
 * ours the request id, which support can find in the logs. Never the error itself.
 */
export function errorPage({
  statusCode,
  language,
  requestId,
}: {
  statusCode: number;
  language: Language;
  requestId: string;
}): string {
  const t = messages[language];
  const [title, text] =
    statusCode === 404
      ? [t.notFoundTitle, t.notFoundText]
      : statusCode < 500
        ? [t.badRequestTitle, t.badRequestText]
        : [t.serverErrorTitle, t.serverErrorText];
  return layout({
    language,
    title,
    content: html`<section class="status status-error">
<div class="status-icon" aria-hidden="true">!</div>
<h1>${title}</h1>
<p>${text}</p>
${statusCode >= 500 && requestId && html`<p class="muted">${t.incident(requestId)}</p>`}
</section>`,
  });
}
