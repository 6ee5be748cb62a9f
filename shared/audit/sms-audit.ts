/**
 * The SMS side of the table audit: every business's SMS balance against what its records say it
 * should be, its credits less the segments of its charged messages not given back. The ledger
 * audit (shared/audit/ledger-audit.ts) reads the table once and hands these items here.
 */

export interface SmsAuditBreak {
  kind: 'sms_balance_differs_from_credits_and_messages' | 'negative_sms_balance';
  subject: string;
  detail: string;
}

/** The item kinds the SMS audit reads, as a scan's filter values. */
export const smsAuditedEntities = {
  ':smsAccount': 'message_account',
  ':smsCredit': 'sms_credit',
  ':message': 'message',
};

/** What one item contributes to the SMS books. */
export interface SmsFacts {
  smsAccount?: { businessId: string; balance: number };
  /** Segments added to (credits) or taken from (charged messages not given back) an SMS balance. */
  smsMovement?: { businessId: string; segments: number };
}

/** A credit's business is its partition's (BIZ#<id>). */
const itemBusinessId = (item: Record<string, unknown>) =>
  (item.businessId as string | undefined) ?? String(item.pk).slice('BIZ#'.length);

/** The item's SMS facts, or undefined when it is not an item of the SMS audit. */
export function smsFactsOf(item: Record<string, unknown>): SmsFacts | undefined {
  switch (item.entity) {
    case 'message_account':
      return { smsAccount: { businessId: item.businessId as string, balance: Number(item.smsBalance ?? 0) } };
    case 'sms_credit':
      return { smsMovement: { businessId: itemBusinessId(item), segments: Number(item.segments) } };
    case 'message':
      if (!item.charged || item.refundedAt) return {};
      return { smsMovement: { businessId: item.businessId as string, segments: -Number(item.segments) } };
  }
  return undefined;
}

/** The SMS balances and the records behind them, folded from items one at a time. */
export class SmsBooks {
  private readonly balances = new Map<string, number>();
  /** business -> credits less the segments of its charged messages, from the records. */
  private readonly movements = new Map<string, number>();

  /** Adds (`sign` 1) or takes back (-1) what an item contributed; `touched` gets its business. */
  apply({ smsAccount, smsMovement }: SmsFacts, sign: 1 | -1, touched: Set<string>): void {
    if (smsAccount) {
      if (sign > 0) this.balances.set(smsAccount.businessId, smsAccount.balance);
      else this.balances.delete(smsAccount.businessId);
      touched.add(smsAccount.businessId);
    }
    if (smsMovement) {
      const { businessId, segments } = smsMovement;
      this.movements.set(businessId, (this.movements.get(businessId) ?? 0) + sign * segments);
      touched.add(businessId);
    }
  }

  /**
   * Every SMS balance (of `businesses`, or of all) equals its credits less the segments of its
   * charged messages not given back, and is never negative.
   */
  check(businesses?: Set<string>): SmsAuditBreak[] {
    const breaks: SmsAuditBreak[] = [];
    for (const businessId of businesses ?? new Set([...this.balances.keys(), ...this.movements.keys()])) {
      const balance = this.balanceOf(businessId);
      const recorded = this.movements.get(businessId) ?? 0;
      const subject = `sms:${businessId}`;
      if (balance !== recorded) {
        breaks.push({
          kind: 'sms_balance_differs_from_credits_and_messages',
          subject,
          detail: `balance ${balance}, credits less charged segments ${recorded}`,
        });
      }
      if (balance < 0) breaks.push({ kind: 'negative_sms_balance', subject, detail: `balance ${balance}` });
    }
    return breaks;
  }

  /** The SMS balance of a business as recorded on its account. */
  balanceOf(businessId: string): number {
    return this.balances.get(businessId) ?? 0;
  }

  /** Businesses with an SMS account. */
  get accounts(): number {
    return this.balances.size;
  }
}
