/** The adapters a stage can route a payment method to; data only, so the stack can import it. */
export const adapterNames = ['wave', 'mtn', 'sandbox'] as const;
export type AdapterName = (typeof adapterNames)[number];

/** The secret each live adapter reads its credentials from (`<NAME>` or `<NAME>_ARN`). */
export const adapterSecretVariable = { wave: 'WAVE_PROVIDER_SECRET', mtn: 'MTN_PROVIDER_SECRET' } as const;
export type LiveAdapterName = keyof typeof adapterSecretVariable;
