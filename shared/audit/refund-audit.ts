/**
 * The refunds' side of the table audit: what each refunded payment's counters say against its
 * refunds. Refunds taken from a payment (pending or paid) must be exactly what its `refundable`
 * lost, paid ones exactly its `refundedCents`, and together never more than the payment. The
 * ledger audit (shared/audit/ledger-audit.ts) reads the table once and hands these items here;
 * the refunds' money (their reservations and entries) is checked there with the transfers'.
 */

export interface RefundAuditBreak {
  kind: 'refunds_differ_from_payment_counters' | 'refunds_exceed_payment';
  subject: string;
  detail: string;
}

/** The item kinds the refund audit reads, as a scan's filter values (and refunded payment requests). */
export const refundAuditedEntities = { ':refund': 'refund', ':refundable': 'refundable' };

/** The scan's condition for the payment requests it reads: those a refund paid back. */
export const refundedPaymentCondition = 'attribute_exists(refundedCents)';

/** What one item contributes to the refund books. */
export interface RefundFacts {
  /** A refund, by the payment it gives back: its amount, and whether it is taken or paid. */
  refund?: { paymentRequestId: string; amount: number; taken: boolean; paid: boolean };
  /** What remains refundable of a payment, beside the payment. */
  refundable?: { paymentRequestId: string; amount: number; refundable: number };
  /** What refunds paid back of a payment, on the payment request. */
  refunded?: { paymentRequestId: string; refunded: number };
}

/** The item's refund facts, or undefined when it is not an item of the refund audit. */
export function refundFactsOf(item: Record<string, unknown>): RefundFacts | undefined {
  if (item.entity === 'refund') {
    return {
      refund: {
        paymentRequestId: item.paymentRequestId as string,
        amount: Number(item.amountCents),
        taken: item.status !== 'error',
        paid: item.status === 'success',
      },
    };
  }
  if (item.entity === 'refundable') {
    return {
      refundable: {
        paymentRequestId: item.paymentRequestId as string,
        amount: Number(item.amountCents),
        refundable: Number(item.refundable),
      },
    };
  }
  if (item.entity === 'payment_request' && item.refundedCents !== undefined)
    return { refunded: { paymentRequestId: item.id as string, refunded: Number(item.refundedCents) } };
  return undefined;
}

interface PaymentCounters {
  amount: number;
  refundable: number;
}

/** Refunded payments and their refunds, folded from items one at a time. */
export class RefundBooks {
  private readonly payments = new Map<string, PaymentCounters>();
  /** payment -> its `refundedCents`. */
  private readonly refunded = new Map<string, number>();
  /** payment -> the refunds taken from it (pending or paid), and those paid. */
  private readonly taken = new Map<string, number>();
  private readonly paid = new Map<string, number>();

  /** Adds (`sign` 1) or takes back (-1) what an item contributed; `touched` gets its payment. */
  apply({ refund, refundable, refunded }: RefundFacts, sign: 1 | -1, touched: Set<string>): void {
    if (refundable) {
      const { paymentRequestId, ...counters } = refundable;
      if (sign > 0) this.payments.set(paymentRequestId, counters);
      else this.payments.delete(paymentRequestId);
      touched.add(paymentRequestId);
    }
    if (refunded) {
      if (sign > 0) this.refunded.set(refunded.paymentRequestId, refunded.refunded);
      else this.refunded.delete(refunded.paymentRequestId);
      touched.add(refunded.paymentRequestId);
    }
    if (refund) {
      const add = (map: Map<string, number>) =>
        map.set(refund.paymentRequestId, (map.get(refund.paymentRequestId) ?? 0) + sign * refund.amount);
      if (refund.taken) add(this.taken);
      if (refund.paid) add(this.paid);
      touched.add(refund.paymentRequestId);
    }
  }

  /**
   * For every refunded payment (of `payments`, or all): what its refunds took is what its
   * `refundable` lost, what they paid is its `refundedCents`, and they took no more than it.
   */
  check(payments?: Set<string>): RefundAuditBreak[] {
    const breaks: RefundAuditBreak[] = [];
    const all = new Set([...this.payments.keys(), ...this.refunded.keys(), ...this.taken.keys()]);
    for (const id of payments ?? all) {
      const counters = this.payments.get(id);
      const taken = this.taken.get(id) ?? 0;
      const paid = this.paid.get(id) ?? 0;
      const refunded = this.refunded.get(id) ?? 0;
      const subject = `payment_request:${id}`;
      if (!counters) {
        if (taken !== 0 || paid !== 0 || refunded !== 0)
          breaks.push({
            kind: 'refunds_differ_from_payment_counters',
            subject,
            detail: `refunds took ${taken} and paid ${refunded} of a payment with nothing refundable recorded`,
          });
        continue;
      }
      if (counters.amount - counters.refundable !== taken || refunded !== paid) {
        breaks.push({
          kind: 'refunds_differ_from_payment_counters',
          subject,
          detail: `refundable ${counters.refundable} of ${counters.amount} and refunded ${refunded}; refunds took ${taken}, paid ${paid}`,
        });
      }
      if (taken > counters.amount)
        breaks.push({
          kind: 'refunds_exceed_payment',
          subject,
          detail: `refunds took ${taken} of ${counters.amount}`,
        });
    }
    return breaks;
  }

  /** Payments refunded at least once. */
  get refundedPayments(): number {
    return this.payments.size;
  }
}
