/** The adapters a stage can route a payment method to; data only, so the stack can import it. */
export const adapterNames = ['wave', 'mtn', 'sandbox'] as const;
export type AdapterName = (typeof adapterNames)[number];

/** The secret each live adapter reads its credentials from (`<NAME>` or `<NAME>_ARN`). */
export const adapterSecretVariable = { wave: 'WAVE_PROVIDER_SECRET', mtn: 'MTN_PROVIDER_SECRET' } as const;
export type LiveAdapterName = keyof typeof adapterSecretVariable;

/**
 * The live adapters whose provider calls back about payouts (`/provider_callbacks/{method}/payouts`),
 * which need its credentials to confirm a callback. Wave sends no payout event: its adapter refuses
 * every payout callback without reading its secret.
 */
export const payoutCallbackAdapters: readonly LiveAdapterName[] = ['mtn'];
