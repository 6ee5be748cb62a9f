import { describe, expect, it } from 'vitest';
import { apiClient, type Body, newMerchant, platformKey } from '#test/support/api-client.ts';
import { newDataDir, startLocalHost } from '#test/support/local-host.ts';

describe('escrow holds across a stop of the local host', () => {
  // Two starts of the host on a loaded machine.
  it('ends a hold that fell due while the host was stopped, once started again', {
    timeout: 420_000,
  }, async () => {
    const dataDir = newDataDir();
    // The safety sweep is kept out of the way, so it is the schedule that ends the hold.
    const env = { ESCROW_MIN_HOLD_SECONDS: '2', ESCROW_SWEEP_SECONDS: '3600' };
    const first = await startLocalHost(dataDir, env);
    let second: Awaited<ReturnType<typeof startLocalHost>> | undefined;
    try {
      const merchant = await newMerchant(dataDir, 'Marché Restart');
      const { keyId, key } = await platformKey(dataDir, merchant.businessId);
      const platform = {
        'X-API-KEY-ID': keyId as string,
        'X-API-KEY': key as string,
        'content-type': 'application/json',
      };
      const call = apiClient(first.config.baseUrl);
      const created = await call('POST', '/partner_api/payment_requests', platform, {
        storeId: merchant.storeId,
        amountCents: 150_000,
        currency: 'XOF',
        reference: 'held-across-restart',
        escrow: { holdUntil: new Date(Date.now() + 20_000).toISOString() },
        paymentDetails: {
          type: 'redirect',
          data: { paymentMethod: 'wave', successUrl: 'myapp://paid', errorUrl: 'myapp://failed' },
        },
      });
      await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, platform, {
        payerPhone: '+2250700000001',
      });
      const escrowId = created.body.escrowId as string;
      const listed = async (baseUrl: string) =>
        ((await apiClient(baseUrl)('GET', '/partner_api/escrows', platform)).body as Body[]).find(
          (escrow) => escrow.id === escrowId,
        );
      const held = await listed(first.config.baseUrl);
      expect(held.status).toBe('held');
      expect(await first.stop()).toBe(0);

      // Stopped past the hold's end.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Date.parse(held.holdUntil) - Date.now() + 1000)),
      );
      second = await startLocalHost(dataDir, env);
      const deadline = Date.now() + 30_000;
      let escrow = await listed(second.config.baseUrl);
      while (escrow.status !== 'released' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        escrow = await listed(second.config.baseUrl);
      }
      expect(escrow.status).toBe('released');
      const balance = await apiClient(second.config.baseUrl)(
        'GET',
        `/partner_api/stores/${merchant.storeId}/balance`,
        platform,
      );
      expect(balance.body.amount).toBe(held.amount.amount - held.fees.amount);
    } finally {
      await first.stop();
      if (second) expect(await second.stop()).toBe(0);
    }
  });
});
