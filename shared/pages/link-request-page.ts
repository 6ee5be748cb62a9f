import type { LinkRequest } from '#shared/data/link-request.ts';
import type { Language } from '#shared/domain/languages.ts';
import { consentPageUrl } from '#shared/operations/link-requests.ts';
import { maskPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { ownUrl, type PageContext } from '#shared/pages/payment-page.ts';

/**
 * What the owner reads before letting a service provider act for their business: who asks, for
 * what, what the provider will be able to do (in a shop owner's words: a provider's keys act as
 * the business does, money out included, so that is said), and what it will see.
 */
const text = {
  fr: {
    title: 'Demande d’accès à votre entreprise',
    asks: (provider: string, merchant: string) =>
      `${provider} demande à gérer votre entreprise ${merchant} avec ses outils (caisse, application ou site de vente).`,
    canTitle: (provider: string) => `Si vous autorisez, ${provider} pourra\u00a0:`,
    can: [
      'encaisser des paiements au nom de votre entreprise et voir ses ventes et son solde\u00a0;',
      'envoyer de l’argent depuis le solde de votre entreprise, comme vous pouvez le faire\u00a0;',
      'être prévenu de chaque paiement reçu\u00a0;',
      'vérifier votre identité, pour que votre entreprise puisse encaisser davantage.',
    ],
    data: (provider: string) =>
      `Vos données\u00a0: ${provider} verra le nom de votre entreprise, ses paiements et son solde, pour vous rendre ce service. Il ne reçoit pas ce code. N’autorisez que si vous connaissez ${provider}\u00a0; sinon, refusez.`,
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
      `${provider} asks to manage your business ${merchant} with its tools (till, app or online shop).`,
    canTitle: (provider: string) => `If you allow it, ${provider} will be able to:`,
    can: [
      'take payments in your business’s name and see its sales and balance;',
      'send money from your business’s balance, as you can;',
      'be told of every payment received;',
      'check your identity, so that your business can take more.',
    ],
    data: (provider: string) =>
      `Your data: ${provider} will see your business’s name, payments and balance, to provide this service. It does not get this code. Allow only if you know ${provider}; otherwise, decline.`,
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
      ? html`<div class="panel">
<h1>${t.title}</h1>
<p data-testid="asks">${t.asks(request.serviceProviderBusinessName, request.merchantBusinessName)}</p>
<div class="who">
<p>${t.canTitle(request.serviceProviderBusinessName)}</p>
<ul>${t.can.map((line) => html`<li>${line}</li>`)}</ul>
</div>
<p class="privacy">${t.data(request.serviceProviderBusinessName)}</p>
<form method="post" action="${ownUrl(pageUrl, context)}">
<label class="field" for="code">${t.codeLabel}</label>
<input class="input" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required${wrongCode ? html` aria-invalid="true" aria-describedby="code-error"` : ''}>
${wrongCode && html`<p class="field-error" id="code-error" role="alert">${t.wrongCode(wrongCode.attemptsLeft)}</p>`}
<p class="muted">${t.codeSent(maskPhone(request.ownerPhone))}</p>
<div class="actions">
<button class="button button-approve" type="submit" name="decision" value="approve">${t.approve}</button>
<button class="button button-decline" type="submit" name="decision" value="decline">${t.decline}</button>
</div>
</form>
</div>`
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
