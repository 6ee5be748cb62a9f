/** Amounts are integers in the smallest unit of the currency: cents (1 XOF = 100). */
export type Cents = number;

export interface Money {
  amount: Cents;
  currency: string;
}

/** Every store of the service keeps its books in XOF. */
export const defaultCurrency = 'XOF';

export function isCents(value: number): boolean {
  return Number.isSafeInteger(value);
}

/** Far above any ceiling, and far below 2^53: amounts stay exact in every computation. */
export const maxAmountCents = 1_000_000_000_000;
