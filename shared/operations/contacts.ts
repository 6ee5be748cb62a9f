import { randomUUID } from 'node:crypto';
import type { CreateContactBody } from '#shared/api/contacts.ts';
import {
  type Contact,
  createContact,
  deleteContact,
  findContactByBeneficiary,
  getContact,
  listContacts,
  promoteContact,
} from '#shared/data/contact.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { type BeneficiaryMethod, beneficiaryKey, type ContactIdentifier } from '#shared/domain/contacts.ts';
import { BeneficiaryClaimed, ContactNotFound } from '#shared/errors/contacts.ts';

/** A contact not yet written, for the caller to write alone or with a transfer. */
export function newContact(
  businessId: string,
  beneficiary: { name: string; paymentMethod: BeneficiaryMethod; identifier: ContactIdentifier },
  hidden: boolean,
): Contact {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    businessId,
    name: beneficiary.name,
    paymentMethod: beneficiary.paymentMethod,
    identifier: beneficiary.identifier,
    beneficiaryKey: beneficiaryKey(beneficiary.paymentMethod, beneficiary.identifier),
    hidden,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Creates a visible contact, or answers the one the beneficiary already has: a hidden one (made by
 * an inline transfer) is promoted under the name given now; a visible one is answered as it is, so
 * posting twice never makes a duplicate. Two posts at once: one creates, the other finds it.
 */
export async function saveContact(caller: Caller, body: CreateContactBody): Promise<Contact> {
  for (let attempt = 1; ; attempt++) {
    const existing = await findContactByBeneficiary(
      caller.businessId,
      beneficiaryKey(body.paymentMethod, body.identifier),
    );
    if (existing) return existing.hidden ? promoteContact(existing, body.name) : existing;
    const contact = newContact(caller.businessId, body, false);
    try {
      await createContact(contact);
      return contact;
    } catch (error) {
      if (!(error instanceof BeneficiaryClaimed) || attempt >= 3) throw error;
    }
  }
}

/** The visible, live contacts, oldest first. */
export async function contactsOf(caller: Caller): Promise<Contact[]> {
  const contacts = await listContacts(caller.businessId);
  return contacts
    .filter((contact) => !contact.hidden && contact.deletedAt === null)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
}

/** A live contact of the caller's business that can receive a transfer. */
export async function liveContact(caller: Caller, id: string): Promise<Contact> {
  const contact = await getContact(caller.businessId, id, true);
  if (!contact || contact.deletedAt !== null) throw new ContactNotFound();
  return contact;
}

export async function removeContact(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  await deleteContact(caller.businessId, id);
  return { id, deleted: true };
}
