import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { BeneficiaryMethod, ContactIdentifier } from '#shared/domain/contacts.ts';
import { BeneficiaryClaimed, ContactNotFound } from '#shared/errors/contacts.ts';

/**
 * Contact: a beneficiary of transfers. Hidden when a transfer made it inline (or between stores),
 * visible once posted to the contacts endpoint; soft-deleted, never removed, so the transfers that
 * name it keep their beneficiary.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = CONTACT#<id>: the contact, under its business (another business's
 *   id is simply not there).
 * - pk = BIZ#<businessId>, sk = BENEFICIARY#<beneficiary key>: the claim of the one live contact of
 *   a beneficiary (method and identifier), so posting the same beneficiary twice finds the first;
 *   removed when that contact is deleted.
 *
 * Access patterns and cost (items ~400 bytes):
 * - get by id: GetItem, 0.5 RCU.
 * - find by beneficiary: 2 GetItem (claim, contact), 1 RCU.
 * - list a business's contacts: Query pk, begins_with(sk, "CONTACT#"), 0.5 RCU per 4 KB (about ten
 *   contacts); hidden and deleted ones are dropped after the read.
 * - create: 2 puts, conditional on the claim being free (alone or inside a transfer's
 *   transaction): 4 WCU in a transaction.
 * - promote: UpdateItem, 1 WCU. Delete: a transaction of an update and a delete, 4 WCU.
 */
export interface Contact {
  id: string;
  businessId: string;
  name: string;
  paymentMethod: BeneficiaryMethod;
  identifier: ContactIdentifier;
  beneficiaryKey: string;
  hidden: boolean;
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const contactKey = (businessId: string, id: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `CONTACT#${id}`,
});
const claimKey = (businessId: string, beneficiaryKey: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `BENEFICIARY#${beneficiaryKey}`,
});

export async function getContact(businessId: string, id: string, consistent = false) {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: contactKey(businessId, id), ConsistentRead: consistent }),
  );
  return Item ? toContact(Item) : undefined;
}

/** The live contact of a beneficiary, if any. */
export async function findContactByBeneficiary(
  businessId: string,
  beneficiaryKey: string,
): Promise<Contact | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: claimKey(businessId, beneficiaryKey),
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  const contact = await getContact(businessId, Item.contactId as string, true);
  return contact && contact.deletedAt === null ? contact : undefined;
}

/** The writes that create a contact, for a transaction of its own or a transfer's. */
export function contactCreationWrites(contact: Contact): GuardedWrite[] {
  const table = tableName();
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...claimKey(contact.businessId, contact.beneficiaryKey),
            entity: 'beneficiary_claim',
            contactId: contact.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new BeneficiaryClaimed(),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...contactKey(contact.businessId, contact.id), entity: 'contact', ...contact },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ];
}

export async function createContact(contact: Contact): Promise<void> {
  await transactWrite(contactCreationWrites(contact));
}

/** Makes a hidden contact visible under the name the merchant gave it now. */
export async function promoteContact(contact: Contact, name: string): Promise<Contact> {
  const updatedAt = new Date().toISOString();
  await transactWrite([
    {
      write: {
        Update: {
          TableName: tableName(),
          Key: contactKey(contact.businessId, contact.id),
          UpdateExpression: 'SET #hidden = :false, #name = :name, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND deletedAt = :null',
          ExpressionAttributeNames: { '#name': 'name', '#hidden': 'hidden' },
          ExpressionAttributeValues: { ':false': false, ':name': name, ':now': updatedAt, ':null': null },
        },
      },
      onConditionFailed: () => new ContactNotFound(),
    },
  ]);
  return { ...contact, hidden: false, name, updatedAt };
}

export async function listContacts(businessId: string): Promise<Contact[]> {
  return (await queryPrefix(`BIZ#${businessId}`, 'CONTACT#')).map(toContact);
}

/** Soft delete, once: the claim goes too, so the same beneficiary can be created afresh. */
export async function deleteContact(businessId: string, id: string): Promise<void> {
  const contact = await getContact(businessId, id, true);
  if (!contact || contact.deletedAt !== null) throw new ContactNotFound();
  const table = tableName();
  const now = new Date().toISOString();
  await transactWrite([
    {
      write: {
        Update: {
          TableName: table,
          Key: contactKey(businessId, id),
          UpdateExpression: 'SET deletedAt = :now, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND deletedAt = :null',
          ExpressionAttributeValues: { ':now': now, ':null': null },
        },
      },
      onConditionFailed: () => new ContactNotFound(),
    },
    {
      write: {
        Delete: {
          TableName: table,
          Key: claimKey(businessId, contact.beneficiaryKey),
          ConditionExpression: 'contactId = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      onConditionFailed: () => new ContactNotFound(),
    },
  ]);
}

function toContact(item: Record<string, unknown>): Contact {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  const contact = rest as unknown as Contact;
  return { ...contact, deletedAt: contact.deletedAt ?? null, hidden: contact.hidden === true };
}
