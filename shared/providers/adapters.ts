/** The adapters a stage can route a payment method to; data only, so the stack can import it. */
export const adapterNames = ['wave', 'mtn', 'sandbox'] as const;
export type AdapterName = (typeof adapterNames)[number];

/** The secret each live adapter reads its credentials from (`<NAME>` or `<NAME>_ARN`). */
export const adapterSecretVariable = { wave: 'WAVE_PROVIDER_SECRET', mtn: 'MTN_PROVIDER_SECRET' } as const;
export type LiveAdapterName = keyof typeof adapterSecretVariable;

/**
 * The fields each live adapter reads from its secret's JSON, every one a non-empty string: checked
 * when an operator puts a value in (admin put-provider-secret) and when a function reads it
 * (providerCredentials), so no call is ever signed with a missing key.
 */
export const adapterSecretFields: Record<LiveAdapterName, readonly string[]> = {
  wave: ['apiKey', 'webhookSecret'],
  mtn: [
    'collection.subscriptionKey',
    'collection.apiUser',
    'collection.apiKey',
    'disbursement.subscriptionKey',
    'disbursement.apiUser',
    'disbursement.apiKey',
  ],
};

/** What is wrong with `text` as the adapter's credentials, by field name only (never a value). */
export function providerSecretProblems(adapter: LiveAdapterName, text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ['the value must be a JSON object'];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return ['the value must be a JSON object'];
  }
  return adapterSecretFields[adapter].flatMap((field) => {
    const value = field
      .split('.')
      .reduce<unknown>(
        (node, part) =>
          typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined,
        parsed,
      );
    return typeof value === 'string' && value.trim() !== '' ? [] : [`${field} must be a non-empty string`];
  });
}

/**
 * The live adapters whose provider calls back about payouts (`/provider_callbacks/{method}/payouts`),
 * which need its credentials to confirm a callback. Wave sends no payout event: its adapter refuses
 * every payout callback without reading its secret.
 */
export const payoutCallbackAdapters: readonly LiveAdapterName[] = ['mtn'];
