import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';

/** Beneficiary numbers the sandbox payout provider answers as their names say. */
export const phones = {
  success: '+2250700000001',
  declined: '+2250700000002',
  limit: '+2250700000003',
  noCallback: '+2250700000004',
  refused: '+2250700000005',
  twice: '+2250700000006',
};

/** A merchant of its own whose store holds `cents` to send (100 000 F unless told). */
export async function fundedMerchant(dataDir: string, name: string, cents = 10_000_000): Promise<Merchant> {
  const merchant = await newMerchant(dataDir, name);
  await admin(dataDir, 'credit', '--store', merchant.storeId, '--amount', String(cents));
  return merchant;
}

/**
 * What the transfer tests do as `merchant()` (a getter, as the merchant is made in `beforeAll`):
 * call the API, read a balance, write an inline beneficiary, wait for a payout to settle, find its
 * line in the transaction list.
 */
export function transferHelpers(baseUrl: string, merchant: () => Merchant) {
  const call = apiClient(baseUrl);
  const api = (method: string, path: string, body?: unknown, headers = merchant().headers) =>
    call(method, path, headers, body);

  const balance = async (storeId = merchant().storeId, headers = merchant().headers) =>
    (await call('GET', `/partner_api/stores/${storeId}/balance`, headers)).body.amount as number;

  const toNumber = (number: string, overrides: Record<string, unknown> = {}) => ({
    storeId: merchant().storeId,
    amountCents: 100_000,
    currency: 'XOF',
    name: 'Fournisseur Bamba',
    paymentMethod: 'orange',
    identifier: { number },
    ...overrides,
  });

  /** The transfer once the provider has settled it (still pending after 15 s: as it is then). */
  const settled = (id: string): Promise<Body> =>
    eventually(
      async () => (await api('GET', `/partner_api/transfers/${id}`)).body,
      (body) => body.status !== 'pending',
      { intervalMs: 250 },
    );

  /** The transfer's line in the store's transaction list. */
  const listed = async (transfer: Body, storeId = merchant().storeId) => {
    const { body } = await api('GET', `/partner_api/transactions?storeId=${storeId}&limit=100`);
    return body.data.find((item: Body) => item.transactionDetails?.id === transfer.id);
  };

  return { call, api, balance, toNumber, settled, listed };
}
