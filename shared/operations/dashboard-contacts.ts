import type { Contact } from '#shared/data/contact.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { removeContact, saveContact } from '#shared/operations/contacts.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { newBeneficiary, type TransferProblem } from '#shared/operations/dashboard-transfers.ts';
import { storesOf } from '#shared/operations/stores.ts';

/**
 * The business's saved beneficiaries on the dashboard, through the API's contact operations: a
 * mobile-money contact (name, operator, a number read in the store's country that the operator
 * serves), added or removed, each in the audit log.
 */
export type ContactAdded = { contact: Contact } | { problems: TransferProblem[] };

export async function addContactFor(
  member: ActingMember,
  form: { name: string; paymentMethod: string; number: string; phoneCountry?: string },
  sourceIp: string,
): Promise<ContactAdded> {
  const caller = callerForMember(member);
  // A contact is the business's: a national number is read in the country of its first store.
  const [store] = await storesOf(caller);
  const problems: TransferProblem[] = [];
  const beneficiary = newBeneficiary(form, store?.country ?? null, problems);
  if (!beneficiary) return { problems };
  const contact = await saveContact(caller, beneficiary);
  await recordAudit(member, {
    action: 'contact_added',
    subjectId: contact.id,
    detail: contact.name,
    sourceIp,
  });
  return { contact };
}

/** The country a new contact's national number is read in unless another is chosen: the first store's. */
export async function contactCountryOf(member: ActingMember): Promise<UemoaCountry | undefined> {
  const [store] = await storesOf(callerForMember(member));
  return store?.country;
}

/** Removes a contact of the business; another business's (or a removed one) is 404. */
export async function removeContactFor(member: ActingMember, contactId: string, sourceIp: string) {
  await removeContact(callerForMember(member), contactId);
  await recordAudit(member, { action: 'contact_removed', subjectId: contactId, sourceIp });
}
