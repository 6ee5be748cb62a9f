import type { BankIdentifier, MobileIdentifier } from '#shared/domain/contacts.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';

/**
 * A business's own account, where its withdrawals go (issue 34): a mobile-money number of the zone,
 * or a bank account of the UEMOA (holder, bank, IBAN). Registered by the owner with a fresh SMS
 * code (dashboard) or by a platform key (API); usable only after a cooling period, so that whoever
 * steals a session or a key cannot add an account and empty the store into it before the owner,
 * told by SMS at once, removes it.
 */
export interface PayoutAccount {
  id: string;
  businessId: string;
  /** An operator's code, or `bank`. */
  paymentMethod: PayoutMethod;
  identifier: MobileIdentifier | BankIdentifier;
  /** Whose account it is: the name the operator or the bank knows. */
  holder: string;
  /** From when a withdrawal may go there. */
  usableFrom: string;
  /** Who registered it: `member:<id>` or `key:<id>`. */
  addedBy: string;
  createdAt: string;
}

export const isUsable = (account: Pick<PayoutAccount, 'usableFrom'>, now = new Date()) =>
  Date.parse(account.usableFrom) <= now.getTime();

/**
 * An IBAN of the UEMOA, as its banks print it: two letters of the country, two check digits, then
 * the RIB's 24 characters (bank code: a letter of the country and 4 digits, or 5 characters; agency
 * 5 digits; account 12; RIB key 2). Spaces are dropped, letters upper-cased; the check digits are
 * ISO 13616's (mod 97), so a mistyped digit is refused before any money goes.
 */
export interface UemoaIban {
  iban: string;
  country: UemoaCountry;
  bankCode: string;
  agencyCode: string;
  accountNumber: string;
  key: string;
}

export function readUemoaIban(typed: string): UemoaIban | undefined {
  const iban = typed.replace(/[\s-]/g, '').toUpperCase();
  const match = /^([A-Z]{2})(\d{2})([A-Z0-9]{5})(\d{5})([A-Z0-9]{12})(\d{2})$/.exec(iban);
  if (!match) return undefined;
  const [, country, , bankCode, agencyCode, accountNumber, key] = match as unknown as string[];
  if (!(uemoaCountries as readonly string[]).includes(country as string)) return undefined;
  if (ibanRemainder(iban) !== 1) return undefined;
  return {
    iban,
    country: country as UemoaCountry,
    bankCode: bankCode as string,
    agencyCode: agencyCode as string,
    accountNumber: accountNumber as string,
    key: key as string,
  };
}

/** ISO 13616: the four first characters moved to the end, letters as 10–35, the number mod 97. */
function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const digits = /[A-Z]/.test(character) ? String(character.charCodeAt(0) - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The check digits that make `country` + RIB a valid IBAN (for examples and tests). */
export function ibanOf(country: UemoaCountry, rib: string): string {
  const body = rib.replace(/\s/g, '').toUpperCase();
  const check = 98 - ibanRemainder(`${country}00${body}`);
  return `${country}${String(check).padStart(2, '0')}${body}`;
}

/** The IBAN grouped by four, as it is printed on a RIB. */
export const groupedIban = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

/** What a bank account's contact carries (the transfer path's `bank` identifier). */
export const bankIdentifierOf = (iban: UemoaIban, bankName: string): BankIdentifier => ({
  bankName,
  bankCode: iban.bankCode,
  agencyCode: iban.agencyCode,
  accountNumber: iban.accountNumber,
  key: iban.key,
  // The UEMOA's banks are reached by their bank code on the regional clearing (SICA-UEMOA): the
  // owner is not asked for a SWIFT code, and none is made up.
  swiftCode: '',
});

/** How a payout account is shown: the number, or the bank and the IBAN's last four. */
export function payoutAccountLabel(account: Pick<PayoutAccount, 'paymentMethod' | 'identifier'>): string {
  if ('number' in account.identifier) return account.identifier.number;
  return `${account.identifier.bankName} ···· ${account.identifier.accountNumber.slice(-4)}`;
}
