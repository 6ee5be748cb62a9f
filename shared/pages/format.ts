const whole = new Map<string, Intl.NumberFormat>();
const fractional = new Map<string, Intl.NumberFormat>();

function formatter(cache: Map<string, Intl.NumberFormat>, currency: string, digits: number | undefined) {
  let format = cache.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', {
      style: 'currency',
      currency,
      ...(digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    });
    cache.set(currency, format);
  }
  return format;
}

/**
 * An amount as payers in Côte d'Ivoire write it, on French and English pages alike:
 * 150000 cents → "1 500 F CFA" (Intl's narrow no-break space between thousands, a no-break space
 * before the symbol). Amounts are integer cents, 100 to the franc; the franc has no subunit in
 * use, so a whole amount shows no decimals, and an amount that is not whole shows exactly two
 * (150 → "1,50 F CFA") rather than being rounded to a sum the payer would not be charged.
 */
export function formatAmount(amountCents: number, currency = 'XOF'): string {
  const units = amountCents / 100;
  return Number.isInteger(units)
    ? formatter(whole, currency, 0).format(units)
    : formatter(fractional, currency, 2).format(units);
}

// Numbers are shown by the module that reads them, for every country of the zone.
export { formatPhone, localPhone, maskPhone } from '#shared/domain/phone-numbers.ts';

/**
 * A transaction id a payer can read out over the phone: its first eight characters, upper case,
 * in two groups ("BFE3-7C2F"). The merchant finds it at the start of the transaction's id.
 */
export function shortReference(transactionId: string): string {
  const head = transactionId.replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${head.slice(0, 4)}-${head.slice(4)}`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/**
 * `YYYY-MM-DD HH:mm:ss` (UTC, the transaction's executedAt) as the day, the time and the zone where
 * the store is: ["23/11/2026", "14:05", "UTC+0"] in Abidjan, ["23/11/2026", "15:05", "UTC+1"] in
 * Porto-Novo. The zone is written as an offset, which reads the same for a payer anywhere
 * (French says UTC, English GMT).
 */
export function dayAndTime(
  executedAt: string,
  timeZone = 'Africa/Abidjan',
  language: 'fr' | 'en' = 'fr',
): [string, string, string] {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(executedAt);
  if (!match) return [executedAt, '', ''];
  const [, year, month, day, hours, minutes, seconds = '00'] = match;
  const key = `${language}|${timeZone}`;
  let clock = clocks.get(key);
  if (!clock) {
    clock = new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'shortOffset',
    });
    clocks.set(key, clock);
  }
  const parts = Object.fromEntries(
    clock
      .formatToParts(new Date(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`))
      .map((part) => [part.type, part.value]),
  );
  // "GMT" alone is English's way of writing +0: written with its sign, as French writes it.
  const zone = parts.timeZoneName === 'GMT' ? 'GMT+0' : (parts.timeZoneName ?? '');
  return [`${parts.day}/${parts.month}/${parts.year}`, `${parts.hour}:${parts.minute}`, zone];
}

/**
 * The dashboard's one way to write an instant (issue 35): the day and the time where the merchant
 * is, as people there write them, "28/11/2026 à 04:05" in French, "28/11/2026 at 04:05" in
 * English. `at` is an ISO instant or the API's `YYYY-MM-DD HH:mm:ss` (UTC); the zone is the store's
 * (`storeTimeZone`), Côte d'Ivoire's (UTC+0, as six of the eight countries) when none is known.
 */
export function dashboardTime(at: string, timeZone = 'Africa/Abidjan', language: 'fr' | 'en' = 'fr'): string {
  const [day, time] = dayAndTime(at, timeZone, language);
  return time ? `${day} ${language === 'fr' ? 'à' : 'at'} ${time}` : day;
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * A count with its word in the right number, as each language counts: French puts 0 and 1 in the
 * singular ("0 clé active", "2 clés actives"), English 1 alone ("0 active keys", "1 active key").
 * `forms.one` and `forms.other` are the whole phrase, `#` standing for the count.
 */
export function plural(language: 'fr' | 'en', count: number, forms: { one: string; other: string }): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  const form = rules.select(count) === 'one' ? forms.one : forms.other;
  return form.replace('#', String(count));
}

/** French names whose `h` is mute (elided before: "d’Hélène"); others' is not ("de Hawa"). */
const muteH = /^h(é|è|ê|enri|ervé|ugo|ubert|onoré|ortense|ippolyte|erman)/i;

/**
 * French's "de" before a name or a word, elided before a vowel or a mute h as French writes it:
 * "de Moussa", "d’Aminata", "d’Hélène", "d’Yves", "d’avril", but "de Yacouba" (a `y` before a
 * vowel is a consonant) and "de Hawa".
 */
export function deBefore(word: string): string {
  const elided =
    /^[aeiouàâäæéèêëîïôöœùûü]/i.test(word) || /^y[^aeiouéèêàâîôû]/i.test(word) || muteH.test(word);
  return elided ? `d’${word}` : `de ${word}`;
}
