import { createHash } from 'node:crypto';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';

/**
 * A beneficiary of transfers. Mobile-money contacts are reached by number on one of the five
 * providers, bank contacts by their account, and `svc` contacts (made by transfers between stores,
 * never by hand) by a store of the same business.
 */
export const contactMethods = [...providerCodes, 'bank'] as const;
export type ContactMethod = (typeof contactMethods)[number];
export type BeneficiaryMethod = ContactMethod | 'svc';

export interface MobileIdentifier {
  number: string;
}

export interface BankIdentifier {
  bankName: string;
  accountNumber: string;
  bankCode: string;
  swiftCode: string;
  agencyCode: string;
  key: string;
}

export interface StoreIdentifier {
  storeId: string;
}

export type ContactIdentifier = MobileIdentifier | BankIdentifier | StoreIdentifier;

export const isMobileMethod = (method: BeneficiaryMethod): method is ProviderCode =>
  (providerCodes as readonly string[]).includes(method);

/**
 * What makes two contacts the same beneficiary: the method and what the money is sent to (the
 * number; the bank, agency, account and key; the store). Names and a bank's display name do not
 * count. Hashed, so it fits a sort key whatever the account numbers hold.
 */
export function beneficiaryKey(method: BeneficiaryMethod, identifier: ContactIdentifier): string {
  let target: string;
  if ('number' in identifier) target = identifier.number;
  else if ('storeId' in identifier) target = identifier.storeId;
  else
    target = [identifier.bankCode, identifier.agencyCode, identifier.accountNumber, identifier.key]
      .map((part) => part.trim().toUpperCase())
      .join('|');
  return createHash('sha256').update(`${method}|${target}`).digest('base64url');
}

/** What a transaction list line shows as the counterpart's identifier. */
export function identifierLabel(identifier: ContactIdentifier): string {
  if ('number' in identifier) return identifier.number;
  if ('storeId' in identifier) return identifier.storeId;
  return `${identifier.bankCode} ${identifier.agencyCode} ${identifier.accountNumber} ${identifier.key}`;
}

/**
 * Whom a transfer pays, as the original service's `beneficiary` says it: what the provider pays
 * to (the number in E.164; a bank account as bank code, agency, account and key), or for a
 * transfer between stores the receiving store's name. The name of a person is `beneficiaryName`.
 */
export function beneficiaryLabel(
  method: BeneficiaryMethod,
  identifier: ContactIdentifier,
  name: string,
): string {
  return method === 'svc' ? name : identifierLabel(identifier);
}
