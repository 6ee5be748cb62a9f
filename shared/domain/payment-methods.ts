/** The five mobile-money providers, by the codes integrations send (lowercase, exactly). */
export const providerCodes = ['orange', 'wave', 'mtn', 'moov', 'djamo'] as const;
export type ProviderCode = (typeof providerCodes)[number];

/** How a transfer leaves the service: through a mobile-money provider, or to a bank account. */
export type PayoutMethod = ProviderCode | 'bank';

export const isProviderCode = (value: string): value is ProviderCode =>
  (providerCodes as readonly string[]).includes(value);

/**
 * Other names integrations send for a provider, read as its code and never answered back: public
 * integrations send `orange_money` for Orange Money.
 */
export const paymentMethodAliases = { orange_money: 'orange' } as const satisfies Record<
  string,
  ProviderCode
>;
export type PaymentMethodAlias = keyof typeof paymentMethodAliases;

/** A method as given, with an alias read as the code it stands for. */
export const canonicalPaymentMethod = (value: string): string =>
  Object.hasOwn(paymentMethodAliases, value) ? paymentMethodAliases[value as PaymentMethodAlias] : value;

/** Payer phones are Ivorian numbers in international form: +225 and 10 digits. */
export const payerPhonePattern = /^\+225\d{10}$/;

/**
 * A phone as payers type it, in international form: spaces, dots, dashes and brackets dropped,
 * `00225…` and `225…` read as `+225…`, and a bare 10-digit local number given the +225 prefix.
 * Undefined when the result is still not an Ivorian mobile-money number.
 */
export function normalizePayerPhone(input: string | undefined): string | undefined {
  const compact = (input ?? '').replace(/[\s.\-()]/g, '');
  const international = compact.startsWith('00')
    ? `+${compact.slice(2)}`
    : /^(225)?\d{10}$/.test(compact)
      ? `+${compact.length === 10 ? '225' : ''}${compact}`
      : compact;
  return payerPhonePattern.test(international) ? international : undefined;
}
