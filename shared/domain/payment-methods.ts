/** The five mobile-money providers, by the codes integrations send (lowercase, exactly). */
export const providerCodes = ['orange', 'wave', 'mtn', 'moov', 'djamo'] as const;
export type ProviderCode = (typeof providerCodes)[number];

export const isProviderCode = (value: string): value is ProviderCode =>
  (providerCodes as readonly string[]).includes(value);

/** Payer phones are Ivorian numbers in international form: +225 and 10 digits. */
export const payerPhonePattern = /^\+225\d{10}$/;
