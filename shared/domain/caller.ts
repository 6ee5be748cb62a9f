/** Whose key it is: a merchant's, or a platform's (which alone may hold payments in escrow). */
export type ApiKeyKind = 'merchant' | 'platform';

/** The authenticated caller of an API route: a key of a business, maybe scoped to one store. */
export interface Caller {
  businessId: string;
  keyId: string;
  keyKind: ApiKeyKind;
  /** Set when the key is scoped to one store: the key then sees nothing of the other stores. */
  storeId?: string | undefined;
  /** The member who created the key; actions taken with the key are attributed to them. */
  memberId: string;
  isServiceProvider: boolean;
  verificationLevel: number;
}

/** A store outside a scoped key's store is treated as not existing, like another business's. */
export function callerSeesStore(caller: Caller, storeId: string): boolean {
  return caller.storeId === undefined || caller.storeId === storeId;
}
