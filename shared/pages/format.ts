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

/**
 * `YYYY-MM-DD HH:mm:ss` (UTC, the transaction's executedAt) as day and time in Côte d'Ivoire,
 * whose time is UTC all year: ["23/11/2026", "14:05"].
 */
export function dayAndTime(executedAt: string): [string, string] {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(executedAt);
  if (!match) return [executedAt, ''];
  const [, year, month, day, hours, minutes] = match;
  return [`${day}/${month}/${year}`, `${hours}:${minutes}`];
}
