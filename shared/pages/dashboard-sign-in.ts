import { listActivities } from '#shared/domain/activities.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { SignUpField, SignUpForm } from '#shared/operations/dashboard-sign-in.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { maskPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

/**
 * The dashboard's way in, one question a page (GOV.UK's pattern for phones and security codes):
 * the phone, the code, and for a new phone the business. The words are the same whether the phone
 * has an account or not. Errors are summarised at the top, each linking to its field.
 */
const text = {
  fr: {
    phoneTitle: 'Continuer avec votre téléphone',
    phoneIntro:
      'Connexion ou création de compte : saisissez votre numéro, nous vous envoyons un code par SMS.',
    phoneLabel: 'Numéro de téléphone',
    sendCode: 'Recevoir un code',
    limited: 'Trop de codes demandés. Réessayez dans 15 minutes.',
    limitedStage: 'Le service d’envoi de codes est très sollicité. Réessayez dans une heure.',
    errorSummary: 'Il y a un problème',
    codeTitle: 'Saisissez le code reçu par SMS',
    codeIntro: 'Nous avons envoyé un code à 6 chiffres. Il est valable 5 minutes.',
    codeLabel: 'Code à 6 chiffres',
    codeMalformed: 'Saisissez les 6 chiffres du code.',
    codeWrong: (left: number) =>
      left > 1 ? `Code incorrect. Il vous reste ${left} essais.` : 'Code incorrect. Il vous reste 1 essai.',
    codeEnded: 'Ce code n’est plus valable. Demandez-en un nouveau.',
    continue: 'Continuer',
    newCode: 'Recevoir un nouveau code',
    signUpTitle: 'Créer votre entreprise',
    signUpIntro: (phone: string) => `Numéro vérifié : ${phone}. Quelques informations et c’est prêt.`,
    firstName: 'Votre prénom',
    lastName: 'Votre nom',
    businessName: 'Nom de l’entreprise',
    activityId: 'Activité',
    chooseActivity: 'Choisissez une activité',
    storeName: 'Nom de votre premier point de vente',
    storeHint: 'Par exemple le nom de la boutique ou du quartier',
    required: (label: string) => `Renseignez : ${label.toLowerCase()}.`,
    activityRequired: 'Choisissez une activité dans la liste.',
    create: 'Créer mon entreprise',
  },
  en: {
    phoneTitle: 'Continue with your phone',
    phoneIntro: 'Sign in or create an account: enter your number and we will text you a code.',
    phoneLabel: 'Phone number',
    sendCode: 'Get a code',
    limited: 'Too many codes asked for. Try again in 15 minutes.',
    limitedStage: 'The code service is very busy. Try again in an hour.',
    errorSummary: 'There is a problem',
    codeTitle: 'Enter the code we texted you',
    codeIntro: 'We sent a 6-digit code. It is valid for 5 minutes.',
    codeLabel: '6-digit code',
    codeMalformed: 'Enter the 6 digits of the code.',
    codeWrong: (left: number) =>
      left > 1 ? `Wrong code. You have ${left} tries left.` : 'Wrong code. You have 1 try left.',
    codeEnded: 'This code is no longer valid. Ask for a new one.',
    continue: 'Continue',
    newCode: 'Get a new code',
    signUpTitle: 'Create your business',
    signUpIntro: (phone: string) => `Number verified: ${phone}. A few details and you are set.`,
    firstName: 'Your first name',
    lastName: 'Your last name',
    businessName: 'Business name',
    activityId: 'Activity',
    chooseActivity: 'Choose an activity',
    storeName: 'Name of your first point of sale',
    storeHint: 'For example the shop’s or the neighbourhood’s name',
    required: (label: string) => `Enter ${label.toLowerCase()}.`,
    activityRequired: 'Choose an activity from the list.',
    create: 'Create my business',
  },
} satisfies Record<Language, unknown>;

export type SignInText = (typeof text)['fr'];

/** The page at `path`, whose language switch points back at it. */
const page = (context: DashboardPageContext, path: string, title: string, content: SafeHtml) =>
  layout({ language: context.language, title, content, pageUrl: `${context.baseUrl}/dashboard${path}` });

export type PhoneError = 'invalid' | 'limited' | 'limited_stage';

/**
 * Step 1: the phone, and the country its national form is read in (pre-set from the browser's
 * language region, `fr-SN` → Senegal; see {@link phoneCountryOf}).
 */
export function phonePage(
  context: DashboardPageContext,
  options: { phone?: string; country: UemoaCountry; error?: PhoneError },
) {
  const t = text[context.language];
  const examples = phoneExamples(options.country, context.language);
  const message =
    options.error === 'invalid'
      ? examples.invalid
      : options.error === 'limited'
        ? t.limited
        : options.error === 'limited_stage'
          ? t.limitedStage
          : undefined;
  return page(
    context,
    '/sign-in',
    t.phoneTitle,
    html`<div class="content">
${errorSummary(t.errorSummary, message ? [{ field: 'phone', message }] : [])}
<h1>${t.phoneTitle}</h1>
<p>${t.phoneIntro}</p>
<form method="post" action="${dashboardUrl(context, '/sign-in')}" novalidate>
${phoneField({
  name: 'phone',
  label: t.phoneLabel,
  country: options.country,
  language: context.language,
  hint: examples.hint,
  value: options.phone,
  error: message,
  attributes: html` type="tel" autocomplete="tel" inputmode="tel" maxlength="32" required`,
})}
<button class="button" type="submit">${t.sendCode}</button>
</form>
</div>`,
  );
}

export type CodeError = { kind: 'malformed' } | { kind: 'wrong'; triesLeft: number } | { kind: 'ended' };

/** Step 2: the code. An ended code offers a new one instead of the field. */
export function codePage(context: DashboardPageContext, error?: CodeError): string {
  const t = text[context.language];
  const newCodeUrl = dashboardUrl(context, '/sign-in');
  const message =
    error?.kind === 'malformed'
      ? t.codeMalformed
      : error?.kind === 'wrong'
        ? t.codeWrong(error.triesLeft)
        : error?.kind === 'ended'
          ? t.codeEnded
          : undefined;
  const content =
    error?.kind === 'ended'
      ? html`<div class="content">
${errorSummary(t.errorSummary, [{ field: 'new-code', message: t.codeEnded }])}
<h1>${t.codeTitle}</h1>
<a class="button" id="new-code" href="${newCodeUrl}">${t.newCode}</a>
</div>`
      : html`<div class="content">
${errorSummary(t.errorSummary, message ? [{ field: 'code', message }] : [])}
<h1>${t.codeTitle}</h1>
<p>${t.codeIntro}</p>
<form method="post" action="${dashboardUrl(context, '/sign-in/code')}" novalidate>
${field({
  name: 'code',
  label: t.codeLabel,
  error: message,
  attributes: html` inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required`,
})}
<button class="button" type="submit">${t.continue}</button>
</form>
<p class="note"><a href="${newCodeUrl}">${t.newCode}</a></p>
</div>`;
  return page(context, '/sign-in/code', t.codeTitle, content);
}

/** Step 3, for a phone without an account: the owner and the business. */
export function signUpPage(
  context: DashboardPageContext & { phone: string },
  form: Partial<SignUpForm> = {},
  invalid: readonly SignUpField[] = [],
): string {
  const t = text[context.language];
  const messageOf = (name: SignUpField) =>
    invalid.includes(name) ? (name === 'activityId' ? t.activityRequired : t.required(t[name])) : undefined;
  const errors = invalid.map((name) => ({ field: name, message: messageOf(name) ?? '' }));
  const nameField = (name: Exclude<SignUpField, 'activityId'>, extra: SafeHtml, hint?: string) =>
    field({
      name,
      label: t[name],
      value: form[name],
      error: messageOf(name),
      hint,
      attributes: html` maxlength="64" required${extra}`,
    });
  const activityError = messageOf('activityId');
  return page(
    context,
    '/sign-up',
    t.signUpTitle,
    html`<div class="content">
${errorSummary(t.errorSummary, errors)}
<h1>${t.signUpTitle}</h1>
<p>${t.signUpIntro(maskPhone(context.phone))}</p>
<form method="post" action="${dashboardUrl(context, '/sign-up')}" novalidate>
${nameField('firstName', html` autocomplete="given-name"`)}
${nameField('lastName', html` autocomplete="family-name"`)}
${nameField('businessName', html` autocomplete="organization"`)}
<label class="field" for="activityId">${t.activityId}</label>
${activityError && html`<p class="field-error" id="activityId-error">${activityError}</p>`}
<select class="input" id="activityId" name="activityId" required${activityError && html` aria-invalid="true" aria-describedby="activityId-error"`}>
<option value="">${t.chooseActivity}</option>
${listActivities(context.language).map(
  (category) => html`<optgroup label="${category.name}">
${category.activities.map(
  (activity) =>
    html`<option value="${activity.id}"${activity.id === form.activityId ? html` selected` : ''}>${activity.name}</option>`,
)}
</optgroup>`,
)}
</select>
${nameField('storeName', html``, t.storeHint)}
<button class="button" type="submit">${t.create}</button>
</form>
</div>`,
  );
}
