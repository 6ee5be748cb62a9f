import type { Language } from '#shared/domain/languages.ts';
import { callingCodeOf, localPhone } from '#shared/domain/phone-numbers.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * The payer's country on the pages that take a payment: a small form of its own (GET, no script)
 * above the payment form, whose choice lists the providers of that country and reads a national
 * number there. The payment form carries the choice on in `payerCountry`.
 */

/** A real-looking mobile number of each country, for the phone field's hint. */
const exampleNumbers: Record<UemoaCountry, string> = {
  BJ: '+2290190123456',
  BF: '+22670123456',
  CI: '+2250707123456',
  GW: '+245955123456',
  ML: '+22370123456',
  NE: '+22790123456',
  SN: '+221771234567',
  TG: '+22890123456',
};

export const exampleNumberOf = (country: UemoaCountry): string => exampleNumbers[country];

/** Each country's name, and the phrase for "in that country" (French takes au or en). */
const names: Record<Language, Record<UemoaCountry, { name: string; in: string }>> = {
  fr: {
    BJ: { name: 'Bénin', in: 'au Bénin' },
    BF: { name: 'Burkina Faso', in: 'au Burkina Faso' },
    CI: { name: 'Côte d’Ivoire', in: 'en Côte d’Ivoire' },
    GW: { name: 'Guinée-Bissau', in: 'en Guinée-Bissau' },
    ML: { name: 'Mali', in: 'au Mali' },
    NE: { name: 'Niger', in: 'au Niger' },
    SN: { name: 'Sénégal', in: 'au Sénégal' },
    TG: { name: 'Togo', in: 'au Togo' },
  },
  en: {
    BJ: { name: 'Benin', in: 'in Benin' },
    BF: { name: 'Burkina Faso', in: 'in Burkina Faso' },
    CI: { name: 'Côte d’Ivoire', in: 'in Côte d’Ivoire' },
    GW: { name: 'Guinea-Bissau', in: 'in Guinea-Bissau' },
    ML: { name: 'Mali', in: 'in Mali' },
    NE: { name: 'Niger', in: 'in Niger' },
    SN: { name: 'Senegal', in: 'in Senegal' },
    TG: { name: 'Togo', in: 'in Togo' },
  },
};

/** A country's name in the page's language (`SN` → "Sénégal"). */
export const countryNameIn = (language: Language, country: UemoaCountry): string =>
  names[language][country].name;

/** "In that country" in the page's language (`SN` → "au Sénégal", "in Senegal"). */
export const inCountry = (language: Language, country: UemoaCountry): string => names[language][country].in;

/** The eight countries in the alphabetical order of their names in the page's language. */
export const countriesByName = (language: Language): UemoaCountry[] =>
  [...uemoaCountries].sort((a, b) =>
    names[language][a].name.localeCompare(names[language][b].name, language),
  );

const texts = {
  fr: {
    countryLabel: 'Pays du numéro',
    showProviders: 'Changer',
    phoneHint: (example: string) => `Par exemple ${example}`,
    phoneInvalid: (countryIn: string, example: string) =>
      // Short: it is shown twice (summary and field) and Pay must stay in a phone's first screen.
      `Saisissez un numéro mobile ${countryIn}, par exemple ${example}.`,
    unserved: (provider: string, countryIn: string) =>
      `${provider} ne prend pas les paiements ${countryIn}. Choisissez un autre moyen de paiement.`,
    noProvider: (countryIn: string) =>
      `Aucun de nos moyens de paiement ne fonctionne encore ${countryIn}. Vous pouvez payer avec un numéro d’un autre pays.`,
  },
  en: {
    countryLabel: 'Country of the number',
    showProviders: 'Change',
    phoneHint: (example: string) => `For example ${example}`,
    phoneInvalid: (countryIn: string, example: string) =>
      `Enter a mobile number ${countryIn}, for example ${example}.`,
    unserved: (provider: string, countryIn: string) =>
      `${provider} does not take payments ${countryIn}. Choose another payment method.`,
    noProvider: (countryIn: string) =>
      `None of our payment methods works ${countryIn} yet. You can pay with a number of another country.`,
  },
} as const;

export interface CountryTexts {
  phoneHint: string;
  placeholder: string;
  phoneInvalid: string;
  unserved: (provider: string, numberCountry: UemoaCountry) => string;
  noProvider: string;
  callingCode: string;
}

/** What the payment form says about the chosen country, in the page's language. */
export function countryTexts(country: UemoaCountry, language: Language): CountryTexts {
  const t = texts[language];
  const example = localPhone(exampleNumbers[country]);
  return {
    phoneHint: t.phoneHint(example),
    placeholder: example,
    phoneInvalid: t.phoneInvalid(names[language][country].in, example),
    unserved: (provider, numberCountry) => t.unserved(provider, names[language][numberCountry].in),
    noProvider: t.noProvider(names[language][country].in),
    callingCode: `+${callingCodeOf(country)}`,
  };
}

/**
 * The country form. A GET drops the query of its action, so the page's own parameters
 * (`lang`, `payment`) go along as hidden fields.
 */
export function countryChoice(action: string, country: UemoaCountry, language: Language): SafeHtml {
  const url = new URL(action);
  const kept = [...url.searchParams].filter(([name]) => name !== 'country');
  const t = texts[language];
  const sorted = countriesByName(language);
  return html`<form class="country" method="get" action="${url.origin}${url.pathname}">
${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<label class="country-label" for="payerCountry">${t.countryLabel}</label>
<select class="input" id="payerCountry" name="country">
${sorted.map((code) => html`<option value="${code}"${code === country ? html` selected` : ''}>${names[language][code].name}</option>\n`)}</select>
<button class="button button-secondary" type="submit">${t.showProviders}</button>
</form>`;
}
