import createClient from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './openapi-types.ts';

/**
 * A typed client of the Partner Payments API, exported as `partner-payments-service/client`. Its
 * types are generated from the published reference (`npm run openapi` writes `openapi-types.ts`),
 * so paths, parameters, bodies and answers, errors included, are checked by the compiler.
 */
export type { components, operations, paths, webhooks };

/** The reference's schemas by name: `Schemas['PaymentRequest']`, `Schemas['TransactionCompletedEvent']`. */
export type Schemas = components['schemas'];

export interface PartnerPaymentsClientOptions {
  /** The host: `http://localhost:3000`, or a stage's address with its stage path. */
  baseUrl: string;
  /** `X-API-KEY-ID`: the key's id. */
  keyId: string;
  /** `X-API-KEY`: the secret, `ppsk_…`. */
  key: string;
  /** Another fetch (a test's, or one with a proxy); the global one by default. */
  fetch?: typeof fetch;
}

export function createPartnerPaymentsClient(options: PartnerPaymentsClientOptions) {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { 'X-API-KEY-ID': options.keyId, 'X-API-KEY': options.key },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type PartnerPaymentsClient = ReturnType<typeof createPartnerPaymentsClient>;
