import type { Language } from '#shared/domain/languages.ts';
import type { SmileIdWebSession } from '#shared/identity/smile-id.ts';
import {
  type IdentityDetails,
  identityVendor,
  type VerificationPageView,
  verificationPageUrl,
} from '#shared/operations/compliance-verifications.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { deBefore } from '#shared/pages/format.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';
import { contentSecurityPolicyAllowing, layout } from '#shared/pages/layout.ts';
import { ownUrl, type PageContext } from '#shared/pages/payment-page.ts';

/** What is wrong with a field, as the GOV.UK patterns word it. */
type FieldProblem = 'required' | 'dateIncomplete' | 'dateNotReal' | 'dateNotPast';

const text = {
  fr: {
    title: 'Vérification d’identité',
    asks: (provider: string, merchant: string) =>
      `${provider} vous demande de vérifier l’identité du responsable ${deBefore(merchant)}.`,
    asksOwn: (merchant: string) =>
      `Partner Payments Service vous demande de vérifier l’identité du responsable ${deBefore(merchant)}.`,
    why: 'Une entreprise qui encaisse des paiements doit faire connaître son responsable. Une fois votre identité vérifiée, votre entreprise peut encaisser davantage chaque mois.',
    intro: 'Renseignez les informations de votre pièce d’identité, comme elles y figurent.',
    privacy: (provider: string | undefined) =>
      provider
        ? `Vos données\u00a0: elles servent seulement à vérifier votre identité, ne sont pas conservées par Partner Payments Service et ne sont pas communiquées à ${provider}, qui apprend seulement si la vérification a réussi.`
        : 'Vos données\u00a0: elles servent seulement à vérifier votre identité, ne sont pas conservées par Partner Payments Service et ne sont communiquées à personne.',
    sandbox: 'Bac à sable : un numéro de pièce qui finit par 0000 est refusé, tout autre est accepté.',
    fixErrors: 'Les informations n’ont pas été envoyées',
    firstName: 'Prénoms',
    lastName: 'Nom',
    idNumber: 'Numéro de la pièce d’identité',
    dateOfBirth: 'Date de naissance',
    dateHint: 'Par exemple 27 3 1990',
    day: 'Jour',
    month: 'Mois',
    year: 'Année',
    submit: 'Envoyer',
    problems: {
      required: {
        firstName: 'Saisissez vos prénoms.',
        lastName: 'Saisissez votre nom.',
        idNumber: 'Saisissez le numéro de votre pièce d’identité.',
        dateOfBirth: 'Saisissez votre date de naissance.',
      },
      dateIncomplete: 'La date de naissance doit comprendre un jour, un mois et une année.',
      dateNotReal: 'La date de naissance doit être une vraie date.',
      dateNotPast: 'La date de naissance doit être dans le passé.',
    },
    approved: 'Identité vérifiée. Votre entreprise peut maintenant encaisser davantage.',
    rejected: 'Identité non confirmée. Vérifiez vos informations avec votre prestataire.',
    rejectedNotFound:
      'Identité non confirmée : ce numéro n’a pas été trouvé auprès de l’autorité d’identification. Vérifiez le numéro sur votre pièce, puis recommencez la vérification depuis l’accueil.',
    privacyVendor:
      'Vos données\u00a0: elles sont transmises à Smile ID, notre prestataire de vérification d’identité, seulement pour cette vérification, et ne sont pas conservées par Partner Payments Service.',
    underWay: 'Vérification en cours',
    underWayText:
      'Smile ID vérifie votre pièce auprès de l’autorité d’identification. Cela prend en général quelques minutes.',
    refresh: 'Actualiser la page',
    retry: {
      id_number_format:
        'Ce numéro n’a pas le format de votre pièce d’identité. Vérifiez-le sur la pièce, puis renvoyez le formulaire.',
      capture_unusable:
        'Les photos n’ont pas pu être lues. Recommencez dans un endroit bien éclairé, la pièce entière dans le cadre.',
    } as Record<string, string>,
    retryOther: 'La vérification n’a pas pu aboutir. Vérifiez vos informations, puis renvoyez le formulaire.',
    document: {
      intro:
        'Smile ID, notre prestataire de vérification d’identité, va photographier votre pièce d’identité puis votre visage, dans sa propre fenêtre.',
      needs:
        'Cette vérification a besoin de l’appareil photo de votre téléphone ou de votre ordinateur et de JavaScript. Ayez votre pièce d’identité originale sous la main, dans un endroit bien éclairé.',
      start: 'Commencer avec Smile ID',
      startAgain: 'Recommencer la vérification',
      noScript:
        'Cette vérification a besoin de JavaScript et de l’appareil photo : ils ne sont pas disponibles dans ce navigateur. Ouvrez cette page dans un navigateur qui les permet, par exemple sur votre téléphone.',
      back: 'Retour à l’accueil',
      privacy:
        'Vos données\u00a0: les photos de votre pièce et de votre visage vont directement à Smile ID, seulement pour cette vérification\u00a0; Partner Payments Service ne les reçoit pas.',
      capture: 'Photographiez votre pièce, puis votre visage',
      opening: 'Ouverture de la fenêtre de Smile ID…',
      open: 'Suivez les étapes dans la fenêtre de Smile ID.',
      sent: 'Photos envoyées. Smile ID vérifie votre pièce.',
      closed: 'La fenêtre de Smile ID a été fermée avant la fin. Recommencez depuis la page de vérification.',
      unavailable:
        'La fenêtre de Smile ID n’a pas pu s’ouvrir. Vérifiez votre connexion, puis recommencez depuis la page de vérification.',
      error: 'Smile ID n’a pas pu terminer la vérification. Recommencez depuis la page de vérification.',
      toPage: 'Aller à la page de vérification',
      refused:
        'Smile ID n’a pas accepté de commencer la vérification. Réessayez dans quelques minutes\u00a0; si cela continue, contactez le support.',
      underWayText: 'Smile ID vérifie votre pièce et votre photo. Cela prend en général quelques minutes.',
      leftEarly: 'Vous avez quitté la fenêtre de Smile ID avant la fin\u00a0? Recommencez\u00a0:',
      rejected:
        'Identité non confirmée : Smile ID n’a pas pu confirmer que la pièce est authentique et qu’elle est la vôtre. Recommencez la vérification depuis l’accueil avec votre pièce originale (pas une copie ni un écran), bien éclairée.',
    },
    vendor: {
      refused:
        'La vérification par numéro de pièce n’est pas encore possible pour le pays de votre entreprise. Contactez le support pour vérifier votre identité autrement.',
      unavailable:
        'Le service de vérification ne répond pas en ce moment : rien n’a été envoyé. Réessayez dans quelques minutes.',
    },
  },
  en: {
    title: 'Identity check',
    asks: (provider: string, merchant: string) =>
      `${provider} asks you to check the identity of the person responsible for ${merchant}.`,
    asksOwn: (merchant: string) =>
      `Partner Payments Service asks you to check the identity of the person responsible for ${merchant}.`,
    why: 'A business that takes payments must say who is responsible for it. Once your identity is checked, your business can take more each month.',
    intro: 'Enter the details of your identity document, as they appear on it.',
    privacy: (provider: string | undefined) =>
      provider
        ? `Your data: it is used only to check your identity, is not kept by Partner Payments Service and is not given to ${provider}, which learns only whether the check succeeded.`
        : 'Your data: it is used only to check your identity, is not kept by Partner Payments Service and is given to no one.',
    sandbox: 'Sandbox: a document number ending in 0000 is rejected, any other is approved.',
    fixErrors: 'Your details were not sent',
    firstName: 'First names',
    lastName: 'Last name',
    idNumber: 'Identity document number',
    dateOfBirth: 'Date of birth',
    dateHint: 'For example, 27 3 1990',
    day: 'Day',
    month: 'Month',
    year: 'Year',
    submit: 'Send',
    problems: {
      required: {
        firstName: 'Enter your first names.',
        lastName: 'Enter your last name.',
        idNumber: 'Enter your identity document number.',
        dateOfBirth: 'Enter your date of birth.',
      },
      dateIncomplete: 'Date of birth must include a day, a month and a year.',
      dateNotReal: 'Date of birth must be a real date.',
      dateNotPast: 'Date of birth must be in the past.',
    },
    approved: 'Identity verified. Your business may now collect more.',
    rejected: 'Identity not confirmed. Check your details with your provider.',
    rejectedNotFound:
      'Identity not confirmed: this number was not found at the identity authority. Check the number on your document, then start the check again from the home page.',
    privacyVendor:
      'Your data: it is sent to Smile ID, our identity check provider, for this check only, and is not kept by Partner Payments Service.',
    underWay: 'Check under way',
    underWayText:
      'Smile ID is checking your document with the identity authority. It usually takes a few minutes.',
    refresh: 'Refresh the page',
    retry: {
      id_number_format:
        'This number is not in your identity document’s format. Check it on the document, then send the form again.',
      capture_unusable:
        'The photos could not be read. Start again somewhere well lit, the whole document in the frame.',
    } as Record<string, string>,
    retryOther: 'The check could not finish. Check your details, then send the form again.',
    document: {
      intro:
        'Smile ID, our identity check provider, will photograph your identity document and then your face, in its own window.',
      needs:
        'This check needs your phone’s or computer’s camera and JavaScript. Have your original identity document at hand, somewhere well lit.',
      start: 'Start with Smile ID',
      startAgain: 'Start the check again',
      noScript:
        'This check needs JavaScript and the camera, which this browser does not offer. Open this page in a browser that allows them, for example on your phone.',
      back: 'Back to the home page',
      privacy:
        'Your data: the photos of your document and your face go straight to Smile ID, for this check only; Partner Payments Service does not receive them.',
      capture: 'Photograph your document, then your face',
      opening: 'Opening Smile ID’s window…',
      open: 'Follow the steps in Smile ID’s window.',
      sent: 'Photos sent. Smile ID is checking your document.',
      closed: 'Smile ID’s window was closed before the end. Start again from the verification page.',
      unavailable:
        'Smile ID’s window could not open. Check your connection, then start again from the verification page.',
      error: 'Smile ID could not finish the check. Start again from the verification page.',
      toPage: 'Go to the verification page',
      refused:
        'Smile ID did not accept to start the check. Try again in a few minutes; if it goes on, contact support.',
      underWayText: 'Smile ID is checking your document and photo. It usually takes a few minutes.',
      leftEarly: 'Did you leave Smile ID’s window before the end? Start again:',
      rejected:
        'Identity not confirmed: Smile ID could not confirm that the document is genuine and yours. Start the check again from the home page with your original document (not a copy or a screen), well lit.',
    },
    vendor: {
      refused:
        'Checking by document number is not yet possible for your business’s country. Contact support to check your identity another way.',
      unavailable:
        'The identity check service is not answering right now: nothing was sent. Try again in a few minutes.',
    },
  },
} satisfies Record<Language, unknown>;

const textFields = ['firstName', 'lastName', 'idNumber'] as const;
type IdentityField = (typeof textFields)[number] | 'dateOfBirth';
export type IdentityFormErrors = Partial<Record<IdentityField, FieldProblem>>;

/** The date of birth's three fields, GOV.UK's date input: no `type=date` and its mm/dd/yyyy. */
const dateParts = ['day', 'month', 'year'] as const;
const datePartName = (part: (typeof dateParts)[number]) => `dateOfBirth-${part}`;

/** `YYYY-MM-DD` from the three fields, or what is wrong with them. */
function dateOfBirth(form: Record<string, string>, today: Date): string | FieldProblem {
  const [day, month, year] = dateParts.map((part) => form[datePartName(part)]?.trim() ?? '');
  if (!day && !month && !year) return 'required';
  if (!day || !month || !year) return 'dateIncomplete';
  if (![day, month, year].every((value) => /^\d+$/.test(value)) || year.length !== 4) return 'dateNotReal';
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  // Date.UTC rolls 31/02 over to March: a date that does not read back as typed is not real.
  if (date.getUTCDate() !== Number(day) || date.getUTCMonth() !== Number(month) - 1) return 'dateNotReal';
  if (date.getTime() >= today.getTime()) return 'dateNotPast';
  return date.toISOString().slice(0, 10);
}

/** The identity details a posted form gives, or what is wrong with each of its fields. */
export function checkIdentityForm(
  form: Record<string, string>,
  today = new Date(),
): { details: IdentityDetails } | { errors: IdentityFormErrors } {
  const errors: IdentityFormErrors = {};
  for (const field of textFields) if (!form[field]?.trim()) errors[field] = 'required';
  const date = dateOfBirth(form, today);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) errors.dateOfBirth = date as FieldProblem;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    details: {
      firstName: form.firstName?.trim() ?? '',
      lastName: form.lastName?.trim() ?? '',
      idNumber: form.idNumber?.trim() ?? '',
      dateOfBirth: date,
    },
  };
}

/**
 * `/dashboard/verification/{id}`: the owner's identity form while pending, the outcome afterwards.
 * It says who asks and why, and what becomes of the details; a rejected submit opens with the
 * GOV.UK error summary, each line linked to its field, and keeps what was typed.
 */
export function verificationPage(
  { verification, serviceProviderName, merchantName, documentCheck }: VerificationPageView,
  context: PageContext,
  filled: {
    form?: Record<string, string>;
    errors?: IdentityFormErrors;
    csrfToken?: string;
    /** The vendor refused the check (no lookup for the country) or could not be reached. */
    vendorProblem?: 'refused' | 'unavailable';
  } = {},
): string {
  const t = text[context.language];
  const pageUrl = verificationPageUrl(context.baseUrl, verification.id);
  const errors = filled.errors ?? {};
  const problem = (field: IdentityField): string | undefined => {
    const found = errors[field];
    if (!found) return undefined;
    return found === 'required' ? t.problems.required[field] : t.problems[found];
  };
  const firstWrong = ([...textFields, 'dateOfBirth'] as const).find((field) => errors[field]);
  const input = (name: (typeof textFields)[number], autocomplete: string) => {
    const wrong = problem(name);
    return html`<label class="field" for="${name}">${t[name]}</label>
${wrong && html`<p class="field-error" id="${name}-error">${wrong}</p>`}
<input class="input" id="${name}" name="${name}" type="text" autocomplete="${autocomplete}" spellcheck="false" value="${filled.form?.[name] ?? ''}"${wrong ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}${firstWrong === name ? html` autofocus` : ''}>`;
  };
  const dateWrong = problem('dateOfBirth');
  const dateInput = html`<fieldset class="date" role="group" aria-describedby="dateOfBirth-hint${dateWrong ? ' dateOfBirth-error' : ''}">
<legend class="field">${t.dateOfBirth}</legend>
<p class="hint" id="dateOfBirth-hint">${t.dateHint}</p>
${dateWrong && html`<p class="field-error" id="dateOfBirth-error">${dateWrong}</p>`}
<div class="date-input">
${dateParts.map(
  (part, index) => html`<div class="date-part date-${part}">
<label for="${datePartName(part)}">${t[part]}</label>
<input class="input" id="${datePartName(part)}" name="${datePartName(part)}" type="text" inputmode="numeric" maxlength="${part === 'year' ? 4 : 2}" autocomplete="bday-${part}" value="${filled.form?.[datePartName(part)] ?? ''}"${dateWrong ? html` aria-invalid="true"` : ''}${firstWrong === 'dateOfBirth' && index === 0 ? html` autofocus` : ''}>
</div>
`,
)}</div>
</fieldset>`;
  const summary: SafeHtml[] = ([...textFields, 'dateOfBirth'] as const).flatMap((field) => {
    const wrong = problem(field);
    const target = field === 'dateOfBirth' ? datePartName('day') : field;
    return wrong ? [html`<li><a href="#${target}">${wrong}</a></li>`] : [];
  });
  const startDocumentCheck = (
    label: string,
  ) => html`<form method="post" action="${ownUrl(documentCheckUrl(pageUrl), context)}">
${filled.csrfToken && csrfField(filled.csrfToken)}
<button class="button" type="submit">${label}</button>
</form>`;
  const noScript = html`<noscript><div class="alert" role="alert"><p>${t.document.noScript}</p><p><a href="${dashboardUrl(context, '')}">${t.document.back}</a></p></div></noscript>`;
  const content =
    verification.status === 'pending' && verification.submittedAt && documentCheck
      ? html`<section class="status" data-status="submitted" data-check="document">
<h1>${t.underWay}</h1>
<p>${t.document.underWayText}</p>
<p><a href="${ownUrl(pageUrl, context)}">${t.refresh}</a></p>
<p class="muted">${t.document.leftEarly}</p>
${startDocumentCheck(t.document.startAgain)}
</section>`
      : verification.status === 'pending' && documentCheck
        ? html`<div class="panel" data-check="document">
<h1>${t.title}</h1>
<p data-testid="asks"><strong>${serviceProviderName ? t.asks(serviceProviderName, merchantName) : t.asksOwn(merchantName)}</strong></p>
<p>${t.why}</p>
${verification.retryReason && !filled.vendorProblem && html`<div class="alert" role="alert" id="retry"><p>${t.retry[verification.retryReason] ?? t.retryOther}</p></div>`}
${filled.vendorProblem && html`<div class="alert" role="alert" id="vendor-problem"><p>${filled.vendorProblem === 'refused' ? t.document.refused : t.vendor.unavailable}</p></div>`}
<p>${t.document.intro}</p>
<p>${t.document.needs}</p>
${noScript}
<p class="privacy">${t.document.privacy}</p>
${startDocumentCheck(t.document.start)}
</div>`
        : verification.status === 'pending' && verification.submittedAt
          ? html`<section class="status" data-status="submitted">
<h1>${t.underWay}</h1>
<p>${t.underWayText}</p>
<p><a href="${ownUrl(pageUrl, context)}">${t.refresh}</a></p>
</section>`
          : verification.status === 'pending'
            ? html`<div class="panel">
<h1>${t.title}</h1>
${summary.length > 0 && html`<div class="error-summary" role="alert" id="form-errors"><h2>${t.fixErrors}</h2><ul>${summary}</ul></div>`}
<p data-testid="asks"><strong>${serviceProviderName ? t.asks(serviceProviderName, merchantName) : t.asksOwn(merchantName)}</strong></p>
<p>${t.why}</p>
${identityVendor() === 'sandbox' && html`<p class="muted">${t.sandbox}</p>`}
${verification.retryReason && !filled.vendorProblem && html`<div class="alert" role="alert" id="retry"><p>${t.retry[verification.retryReason] ?? t.retryOther}</p></div>`}
${filled.vendorProblem && html`<div class="alert" role="alert" id="vendor-problem"><p>${t.vendor[filled.vendorProblem]}</p></div>`}
<form method="post" action="${ownUrl(pageUrl, context)}" novalidate>
${filled.csrfToken && csrfField(filled.csrfToken)}
<p>${t.intro}</p>
${input('firstName', 'given-name')}
${input('lastName', 'family-name')}
${input('idNumber', 'off')}
${dateInput}
<p class="privacy">${identityVendor() === 'smileid' ? t.privacyVendor : t.privacy(serviceProviderName)}</p>
<button class="button" type="submit">${t.submit}</button>
</form>
</div>`
            : html`<section class="status ${verification.status === 'approved' ? 'status-success' : 'status-error'}" data-status="${verification.status}">
<div class="status-icon" aria-hidden="true">${verification.status === 'approved' ? '✓' : '!'}</div>
<h1>${t.title}</h1>
<p>${verification.status === 'approved' ? t.approved : verification.rejectionReason === 'identity_not_found' ? t.rejectedNotFound : verification.rejectionReason === 'document_not_verified' ? t.document.rejected : t.rejected}</p>
</section>`;
  return layout({ language: context.language, title: t.title, content, pageUrl });
}

/** Where the page's "start" form posts: a web token, then Smile ID's capture. */
export const documentCheckUrl = (pageUrl: string) => `${pageUrl}/document_check`;

/**
 * The one script of the capture page, allowed by its hash: it hands Smile ID's web script
 * (`SmileIdentity`, loaded just before it) the token and the settings the page carries as data
 * (`#smile-id-config`, a JSON block no browser runs), as Smile ID's web integration takes them
 * (https://docs.usesmileid.com/integration-options/web-mobile-web/web-integration/usage, and its
 * own page smileidentity/web-client packages/embed/cypress/pages/document-verification.html):
 * token, product, callback_url, environment, partner_details, onSuccess, onClose, onError. The
 * status line says, in the page's language, where the owner is; once the photos are sent the
 * owner is taken to the verification page, which says the check is under way.
 */
const launcherScript = `(function () {
var status = document.getElementById('smile-id-status');
var say = function (state) { status.textContent = status.getAttribute('data-' + state); };
var config = JSON.parse(document.getElementById('smile-id-config').textContent);
if (typeof window.SmileIdentity !== 'function') { say('unavailable'); return; }
say('open');
window.SmileIdentity({
token: config.token,
product: config.product,
callback_url: config.callback_url,
environment: config.environment,
partner_details: config.partner_details,
onSuccess: function () { say('sent'); location.assign(config.page_url); },
onClose: function () { say('closed'); },
onError: function () { say('error'); }
});
})();`;

/**
 * The capture page's policy: the dashboard's, plus Smile ID's script by its origin (it runs its
 * capture in a frame of that origin, which then talks to Smile ID itself) and the launcher by its
 * hash. Only this page is served with it; every other page keeps the dashboard's.
 */
export function documentCheckContentSecurityPolicy(scriptUrl: string): string {
  const origin = new URL(scriptUrl).origin;
  return contentSecurityPolicyAllowing([launcherScript], { scriptSrc: [origin], frameSrc: [origin] });
}

/**
 * After the start: the page that loads Smile ID's web script and hands it the token, so the owner
 * photographs its document and its face in Smile ID's own window. Without JavaScript it says what
 * the check needs and links back.
 */
export function documentCapturePage(
  { verification, merchantName }: VerificationPageView,
  context: PageContext,
  session: SmileIdWebSession,
): string {
  const t = text[context.language];
  const pageUrl = verificationPageUrl(context.baseUrl, verification.id);
  const config = {
    token: session.token,
    product: session.product,
    callback_url: session.callbackUrl,
    environment: session.environment,
    partner_details: {
      partner_id: session.partnerId,
      name: merchantName ? `Partner Payments Service — ${merchantName}` : 'Partner Payments Service',
      // The service has no logo to show; its privacy notice for this check is the verification
      // page's own paragraph.
      policy_url: pageUrl,
      theme_color: '#0f766e',
    },
    page_url: ownUrl(pageUrl, context),
  };
  // A JSON block cannot end the script element early: `<` never appears in it as such.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const content = html`<div class="panel" data-check="document-capture">
<h1>${t.document.capture}</h1>
<p id="smile-id-status" role="status" aria-live="polite" data-open="${t.document.open}" data-sent="${t.document.sent}" data-closed="${t.document.closed}" data-unavailable="${t.document.unavailable}" data-error="${t.document.error}">${t.document.opening}</p>
<noscript><div class="alert" role="alert"><p>${t.document.noScript}</p></div></noscript>
<p><a href="${ownUrl(pageUrl, context)}">${t.document.toPage}</a></p>
<p><a href="${dashboardUrl(context, '')}">${t.document.back}</a></p>
</div>
<script type="application/json" id="smile-id-config">${trustedHtml(json)}</script>
<script src="${session.scriptUrl}"></script>
<script>${trustedHtml(launcherScript)}</script>`;
  return layout({ language: context.language, title: t.title, content, pageUrl });
}
