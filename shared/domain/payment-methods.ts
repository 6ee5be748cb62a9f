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
