import type { Language } from '#shared/domain/languages.ts';
import { formatPhone, localPhone } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { countriesByName, countryNameIn, exampleNumberOf, inCountry } from '#shared/pages/country-choice.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * The country a dashboard phone field reads a national number in (`77 738 49 78` is Senegalese,
 * `07 07 12 34 56` Ivorian): a select beside the field, posted with the form (no script needed).
 * It starts at the business's country when there is one, else the region of the browser's
 * language (`fr-SN` → Senegal), else Côte d'Ivoire. A number typed with its `+` (or `00`) is read
 * as it says whatever the select. The field's examples are numbers of that country.
 */

/** The select's name on every form that has one. */
export const phoneCountryField = 'phoneCountry';

/**
 * The first country of the zone named as a region in Accept-Language, in the browser's order of
 * preference (`fr-SN,fr;q=0.9` → `SN`; `en-GB` → none).
 */
export function regionCountryOf(acceptLanguage: string | undefined): UemoaCountry | undefined {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...parameters] = entry.split(';').map((part) => part.trim());
      const quality = parameters.find((parameter) => /^q\s*=/i.test(parameter));
      return { tag, index, quality: quality === undefined ? 1 : Number(quality.split('=')[1]) };
    })
    .filter((entry) => Number.isFinite(entry.quality) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    // The region is the first two-letter subtag after the language (`fr-SN`, `fr-Latn-SN`).
    const region = tag
      .split('-')
      .slice(1)
      .find((subtag) => /^[a-z]{2}$/i.test(subtag))
      ?.toUpperCase();
    if (isUemoaCountry(region)) return region;
  }
  return undefined;
}

/** The country chosen on the form, else the business's, else the browser's region, else CI. */
export function phoneCountryOf(
  chosen: string | undefined,
  known: { businessCountry?: UemoaCountry | undefined; acceptLanguage?: string | undefined } = {},
): UemoaCountry {
  const picked = chosen?.trim().toUpperCase();
  if (isUemoaCountry(picked)) return picked;
  return known.businessCountry ?? regionCountryOf(known.acceptLanguage) ?? defaultCountry;
}

const texts = {
  fr: {
    countryLabel: 'Pays du numéro',
    hint: (countryIn: string, local: string, international: string) =>
      `Par exemple ${local} ${countryIn}, ou ${international}`,
    invalid: (countryIn: string, local: string) =>
      `Saisissez un numéro de téléphone valide ${countryIn}, par exemple ${local}, ou choisissez le pays du numéro.`,
    invalidMobile: (countryIn: string, local: string) =>
      `Saisissez un numéro de mobile valide ${countryIn}, par exemple ${local}, ou choisissez le pays du numéro.`,
  },
  en: {
    countryLabel: 'Country of the number',
    hint: (countryIn: string, local: string, international: string) =>
      `For example ${local} ${countryIn}, or ${international}`,
    invalid: (countryIn: string, local: string) =>
      `Enter a valid phone number ${countryIn}, for example ${local}, or choose the number’s country.`,
    invalidMobile: (countryIn: string, local: string) =>
      `Enter a valid mobile number ${countryIn}, for example ${local}, or choose the number’s country.`,
  },
} satisfies Record<Language, unknown>;

export interface PhoneExamples {
  /** `77 123 45 67` (the sentences below keep it on one line) */
  local: string;
  /** `+221 77 123 45 67` (no-break spaces) */
  international: string;
  /** The field's hint: the country's number, national and international. */
  hint: string;
  /** A number that cannot be read there: a valid one, or another country. */
  invalid: string;
  /** The same for a field that takes mobile-money numbers only. */
  invalidMobile: string;
}

/** The examples and messages of a phone field read in `country`, in the page's language. */
export function phoneExamples(country: UemoaCountry, language: Language): PhoneExamples {
  const t = texts[language];
  const example = exampleNumberOf(country);
  const local = localPhone(example);
  const international = formatPhone(example);
  const countryIn = inCountry(language, country);
  // No-break spaces in the sentences: a number split over two lines is misread.
  const unbroken = local.replace(/ /g, '\u00a0');
  return {
    local,
    international,
    hint: t.hint(countryIn, unbroken, international),
    invalid: t.invalid(countryIn, unbroken),
    invalidMobile: t.invalidMobile(countryIn, unbroken),
  };
}

/**
 * The country select, named by its `aria-label` ("Pays du numéro"): it sits in the phone field's
 * row, where the country it shows is its own visible label. `name` is {@link phoneCountryField}
 * unless a form has two phones.
 */
export function phoneCountrySelect(options: {
  country: UemoaCountry;
  language: Language;
  name?: string | undefined;
}): SafeHtml {
  const name = options.name ?? phoneCountryField;
  const { language } = options;
  return html`<select class="input phone-country" id="${name}" name="${name}" aria-label="${texts[language].countryLabel}">
${countriesByName(language).map((code) => html`<option value="${code}"${code === options.country ? html` selected` : ''}>${countryNameIn(language, code)}</option>\n`)}</select>`;
}

/**
 * A phone field with its country beside it, on one row (the number's label, hint and error above,
 * as a field's): one row less than a select of its own, so forms keep their button on a phone's
 * first screen.
 */
export function phoneField(options: {
  name: string;
  label: string;
  country: UemoaCountry;
  language: Language;
  value?: string | undefined;
  hint?: string | undefined;
  error?: string | undefined;
  attributes?: SafeHtml | undefined;
  countryName?: string | undefined;
}): SafeHtml {
  const { name } = options;
  const described = [options.hint && `${name}-hint`, options.error && `${name}-error`]
    .filter(Boolean)
    .join(' ');
  return html`<label class="field" for="${name}">${options.label}</label>
${options.hint && html`<p class="hint" id="${name}-hint">${options.hint}</p>`}
${options.error && html`<p class="field-error" id="${name}-error">${options.error}</p>`}
<div class="phone">
${phoneCountrySelect({ country: options.country, language: options.language, name: options.countryName })}
<input class="input" id="${name}" name="${name}" value="${options.value ?? ''}"${options.attributes}${described && html` aria-describedby="${described}"`}${options.error && html` aria-invalid="true"`}>
</div>`;
}
