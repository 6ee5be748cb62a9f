import type { LinkRequest } from '#shared/data/link-request.ts';
import type { Language } from '#shared/domain/languages.ts';
import { consentPageUrl } from '#shared/operations/link-requests.ts';
import { maskPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { ownUrl, type PageContext } from '#shared/pages/payment-page.ts';

const text = {
  fr: {
    title: 'Demande d’accès à votre entreprise',
    asks: (provider: string, merchant: string) =>
      `${provider} demande à gérer votre entreprise ${merchant} : créer ses clés d’API, suivre ses paiements et lancer sa vérification d’identité.`,
    codeLabel: 'Code reçu par SMS',
    codeSent: (phone: string) => `Le code a été envoyé au ${phone}.`,
    approve: 'Autoriser',
    decline: 'Refuser',
    wrongCode: (left: number) =>
      left > 1 ? `Code incorrect. Il vous reste ${left} essais.` : 'Code incorrect. Il vous reste 1 essai.',
    approved: (provider: string) => `Accès accordé. ${provider} peut maintenant gérer votre entreprise.`,
    declined: 'Demande refusée. Aucun accès n’a été donné.',
    tooManyAttempts: 'Trop de codes incorrects : la demande a été refusée. Aucun accès n’a été donné.',
    expired: 'Cette demande a expiré. Demandez au prestataire d’en envoyer une nouvelle.',
  },
  en: {
    title: 'Request to access your business',
    asks: (provider: string, merchant: string) =>
      `${provider} asks to manage your business ${merchant}: create its API keys, follow its payments and start its identity check.`,
    codeLabel: 'Code received by SMS',
    codeSent: (phone: string) => `The code was sent to ${phone}.`,
    approve: 'Allow',
    decline: 'Decline',
    wrongCode: (left: number) =>
      left > 1 ? `Wrong code. You have ${left} tries left.` : 'Wrong code. You have 1 try left.',
    approved: (provider: string) => `Access granted. ${provider} can now manage your business.`,
    declined: 'Request declined. No access was given.',
    tooManyAttempts: 'Too many wrong codes: the request was declined. No access was given.',
    expired: 'This request has expired. Ask the provider to send a new one.',
  },
} satisfies Record<Language, unknown>;

/** `/lr/{id}`: the owner's consent form while the request is pending, its outcome afterwards. */
export function linkRequestPage(
  request: LinkRequest,
  context: PageContext,
  wrongCode?: { attemptsLeft: number },
): string {
  const t = text[context.language];
  const pageUrl = consentPageUrl(context.baseUrl, request.id);
  const content =
    request.status === 'pending'
      ? html`<h1>${t.title}</h1>
<p data-testid="asks">${t.asks(request.serviceProviderBusinessName, request.merchantBusinessName)}</p>
<form method="post" action="${ownUrl(pageUrl, context)}">
<label class="field" for="code">${t.codeLabel}</label>
<input class="input" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${wrongCode ? html` aria-invalid="true" aria-describedby="code-error"` : ''}>
${wrongCode && html`<p class="field-error" id="code-error" role="alert">${t.wrongCode(wrongCode.attemptsLeft)}</p>`}
<p class="muted">${t.codeSent(maskPhone(request.ownerPhone))}</p>
<div class="actions">
<button class="button button-approve" type="submit" name="decision" value="approve">${t.approve}</button>
<button class="button button-decline" type="submit" name="decision" value="decline">${t.decline}</button>
</div>
</form>`
      : html`<section class="status ${request.status === 'approved' ? 'status-success' : 'status-error'}" data-status="${request.status}">
<div class="status-icon" aria-hidden="true">${request.status === 'approved' ? '✓' : '!'}</div>
<h1>${t.title}</h1>
<p>${
          request.status === 'approved'
            ? t.approved(request.serviceProviderBusinessName)
            : request.status === 'expired'
              ? t.expired
              : request.declinedReason === 'too_many_code_attempts'
                ? t.tooManyAttempts
                : t.declined
        }</p>
</section>`;
  return layout({ language: context.language, title: t.title, content, pageUrl });
}
