import type { ComplianceVerification } from '#shared/data/compliance-verification.ts';
import type { Language } from '#shared/domain/languages.ts';
import { type IdentityDetails, verificationPageUrl } from '#shared/operations/compliance-verifications.ts';
import { html } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { ownUrl, type PageContext } from '#shared/pages/payment-page.ts';

const text = {
  fr: {
    title: 'Vérification d’identité',
    intro: 'Renseignez les informations de votre pièce d’identité, comme elles y figurent.',
    sandbox: 'Bac à sable : un numéro de pièce qui finit par 0000 est refusé, tout autre est accepté.',
    firstName: 'Prénoms',
    lastName: 'Nom',
    idNumber: 'Numéro de la pièce d’identité',
    dateOfBirth: 'Date de naissance',
    submit: 'Envoyer',
    required: 'Ce champ est obligatoire.',
    approved: 'Identité vérifiée. Votre entreprise peut maintenant encaisser davantage.',
    rejected: 'Identité non confirmée. Vérifiez vos informations avec votre prestataire.',
  },
  en: {
    title: 'Identity check',
    intro: 'Enter the details of your identity document, as they appear on it.',
    sandbox: 'Sandbox: a document number ending in 0000 is rejected, any other is approved.',
    firstName: 'First names',
    lastName: 'Last name',
    idNumber: 'Identity document number',
    dateOfBirth: 'Date of birth',
    submit: 'Send',
    required: 'This field is required.',
    approved: 'Identity verified. Your business may now collect more.',
    rejected: 'Identity not confirmed. Check your details with your provider.',
  },
} satisfies Record<Language, unknown>;

const fields = ['firstName', 'lastName', 'idNumber', 'dateOfBirth'] as const;

/** The fields left empty, or undefined when the details are complete. */
export function missingIdentityFields(form: Record<string, string>): string[] {
  return fields.filter((field) => !form[field]?.trim());
}

export const identityDetails = (form: Record<string, string>): IdentityDetails => ({
  firstName: form.firstName?.trim() ?? '',
  lastName: form.lastName?.trim() ?? '',
  idNumber: form.idNumber?.trim() ?? '',
  dateOfBirth: form.dateOfBirth?.trim() ?? '',
});

/** `/dashboard/verification/{id}`: the owner's identity form while pending, the outcome afterwards. */
export function verificationPage(
  verification: ComplianceVerification,
  context: PageContext,
  filled: { form?: Record<string, string>; missing?: string[]; csrfToken?: string } = {},
): string {
  const t = text[context.language];
  const pageUrl = verificationPageUrl(context.baseUrl, verification.id);
  const input = (name: (typeof fields)[number], type = 'text') => {
    const missing = filled.missing?.includes(name);
    return html`<label class="field" for="${name}">${t[name]}</label>
<input class="input" id="${name}" name="${name}" type="${type}" value="${filled.form?.[name] ?? ''}" required${missing ? html` aria-invalid="true"` : ''}>
${missing && html`<p class="field-error" role="alert">${t.required}</p>`}`;
  };
  const content =
    verification.status === 'pending'
      ? html`<h1>${t.title}</h1>
<p>${t.intro}</p>
<p class="muted">${t.sandbox}</p>
<form method="post" action="${ownUrl(pageUrl, context)}">
${filled.csrfToken && html`<input type="hidden" name="csrf" value="${filled.csrfToken}">`}
${input('firstName')}
${input('lastName')}
${input('idNumber')}
${input('dateOfBirth', 'date')}
<button class="button" type="submit">${t.submit}</button>
</form>`
      : html`<section class="status ${verification.status === 'approved' ? 'status-success' : 'status-error'}" data-status="${verification.status}">
<div class="status-icon" aria-hidden="true">${verification.status === 'approved' ? '✓' : '!'}</div>
<h1>${t.title}</h1>
<p>${verification.status === 'approved' ? t.approved : t.rejected}</p>
</section>`;
  return layout({ language: context.language, title: t.title, content, pageUrl });
}
