import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitFee } from '#shared/domain/fees.ts';
import {
  accounts,
  assertBalanced,
  parseWalletAccount,
  paymentPostings,
  refundPostings,
} from '#shared/domain/ledger.ts';
import { UnbalancedEntry } from '#shared/errors/ledger.ts';

describe('journal entries', () => {
  it('must sum to zero, in whole non-zero cents, each account once', () => {
    expect(() =>
      assertBalanced([
        { account: 'a', amount: 100 },
        { account: 'b', amount: -100 },
      ]),
    ).not.toThrow();
    expect(() =>
      assertBalanced([
        { account: 'a', amount: 100 },
        { account: 'b', amount: -99 },
      ]),
    ).toThrow(UnbalancedEntry);
    expect(() =>
      assertBalanced([
        { account: 'a', amount: 0.5 },
        { account: 'b', amount: -0.5 },
      ]),
    ).toThrow(UnbalancedEntry);
    expect(() =>
      assertBalanced([
        { account: 'a', amount: 0 },
        { account: 'b', amount: 0 },
      ]),
    ).toThrow(UnbalancedEntry);
    expect(() =>
      assertBalanced([
        { account: 'a', amount: 5 },
        { account: 'a', amount: -5 },
      ]),
    ).toThrow(UnbalancedEntry);
    expect(() => assertBalanced([{ account: 'a', amount: 5 }])).toThrow(UnbalancedEntry);
  });

  it('of a payment debit the provider, credit the store the net and the platform the fee (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 1_000 }),
        (amount, bps) => {
          const { fee, net } = splitFee(amount, { percentBasisPoints: bps, fixedCents: 0 });
          const postings = paymentPostings({
            businessId: 'b',
            storeId: 's',
            provider: 'orange',
            amount,
            fee,
            wallet: 'operating',
          });
          expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
          expect(postings.find((p) => p.account === accounts.providerClearing('orange'))?.amount).toBe(
            -amount,
          );
          expect(postings.find((p) => p.account === accounts.wallet('b', 's', 'operating'))?.amount).toBe(
            net,
          );
          expect(postings.find((p) => p.account === accounts.platformFees)?.amount ?? 0).toBe(fee);
        },
      ),
    );
  });

  it('name wallets so the writer can find them', () => {
    expect(parseWalletAccount(accounts.wallet('biz', 'store', 'escrow'))).toEqual({
      businessId: 'biz',
      storeId: 'store',
      kind: 'escrow',
    });
    expect(parseWalletAccount(accounts.platformFees)).toBeUndefined();
  });

  it('take a refund and its fee out of the operating wallet, against the provider’s clearing or payout account', () => {
    const refund = (route: 'refund' | 'payout', fee: number) =>
      refundPostings({ businessId: 'b', storeId: 's', provider: 'mtn', route, amount: 40_000, fee });
    expect(refund('refund', 0)).toEqual([
      { account: accounts.wallet('b', 's', 'operating'), amount: -40_000 },
      { account: accounts.providerClearing('mtn'), amount: 40_000 },
    ]);
    expect(refund('payout', 200)).toEqual([
      { account: accounts.wallet('b', 's', 'operating'), amount: -40_200 },
      { account: accounts.payoutClearing('mtn'), amount: 40_000 },
      { account: accounts.platformFees, amount: 200 },
    ]);
  });
});
