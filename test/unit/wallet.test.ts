import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { available, storeBalance } from '#shared/domain/wallet.ts';

const cents = fc.integer({ min: 0, max: 1_000_000_000_000 });
const wallet = fc.record({ total: cents, blocked: cents });

describe('store balance', () => {
  it('is the sum over the wallets of total minus blocked', () => {
    expect(
      storeBalance([
        { total: 10_000, blocked: 2_500 },
        { total: 700, blocked: 0 },
      ]),
    ).toBe(8_200);
  });

  it('is zero for new wallets', () => {
    expect(
      storeBalance([
        { total: 0, blocked: 0 },
        { total: 0, blocked: 0 },
      ]),
    ).toBe(0);
  });

  it('stays an exact integer and equals the sum of available amounts for any wallets', () => {
    fc.assert(
      fc.property(fc.array(wallet, { maxLength: 5 }), (wallets) => {
        const balance = storeBalance(wallets);
        expect(Number.isSafeInteger(balance)).toBe(true);
        expect(balance).toBe(wallets.reduce((sum, w) => sum + available(w), 0));
        expect(balance).toBe(
          wallets.reduce((sum, w) => sum + w.total, 0) - wallets.reduce((sum, w) => sum + w.blocked, 0),
        );
      }),
    );
  });
});
