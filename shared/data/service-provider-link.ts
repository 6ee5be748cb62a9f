import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { getBusiness } from '#shared/data/business.ts';
import { queryAll } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { BadRequest } from '#shared/errors/request.ts';
import { AlreadyLinked } from '#shared/errors/service-providers.ts';

/**
 * Service-provider link: a service provider may act for a merchant business (manage its webhook
 * subscription, make its keys, ...). Made by onboarding, by an approved link request, or by the
 * operator; a detached link is kept for the record but grants nothing and is not listed.
 *
 * Keys, one item per (provider, merchant):
 * - pk = BIZ#<providerId>, sk = MERCHANT#<merchantId>: in the provider's partition, so every check
 *   a provider's request needs ("may I act for this merchant?") is one GetItem by key, and an
 *   unlinked merchant cannot be told apart from an unknown one.
 * - gsi1pk = BIZ#<merchantId>#PROVIDERS, gsi1sk = <linkedAt>#<providerId>, on live links only (a
 *   sparse index: detaching removes them): the providers acting for a merchant, oldest first.
 *
 * Access patterns and cost (an item is ~300 bytes):
 * - is this merchant linked to this provider: GetItem, strongly consistent, 1 RCU (a link just
 *   made or detached counts at once).
 * - a provider's merchants: Query pk, begins_with(sk, "MERCHANT#"), filtered on not detached;
 *   0.5 RCU per 4 KB read, detached links included (~13 links per half unit).
 * - a merchant's providers: Query gsi1, 0.5 RCU per 4 KB.
 * - link: 2 GetItem of the businesses for their names and the provider check (1 RCU), then a
 *   conditional PutItem, 1 WCU plus 1 WCU on gsi1.
 * - detach: conditional UpdateItem, 1 WCU plus 1 WCU removing the gsi1 entry.
 */
export interface ServiceProviderLink {
  id: string;
  serviceProviderBusinessId: string;
  serviceProviderBusinessName: string;
  merchantBusinessId: string;
  merchantBusinessName: string;
  linkedAt: string;
}

export const linkKey = (providerId: string, merchantId: string) => ({
  pk: `BIZ#${providerId}`,
  sk: `MERCHANT#${merchantId}`,
});

const merchantIndexKey = (merchantId: string) => `BIZ#${merchantId}#PROVIDERS`;

/**
 * Links a merchant to a service provider. The provider must be a service provider and the merchant
 * exist; a live link already there answers 409 `already_linked`, while a detached one is replaced.
 */
export async function linkMerchant(providerId: string, merchantId: string): Promise<ServiceProviderLink> {
  if (providerId === merchantId) throw new BadRequest('A business cannot be linked to itself');
  const [provider, merchant] = await Promise.all([getBusiness(providerId), getBusiness(merchantId)]);
  if (!provider) throw new BusinessNotFound(`Business ${providerId} not found`);
  if (!merchant) throw new BusinessNotFound(`Business ${merchantId} not found`);
  if (!provider.isServiceProvider)
    throw new ForbiddenAction(`Business ${providerId} is not a service provider`);
  const link: ServiceProviderLink = {
    id: randomUUID(),
    serviceProviderBusinessId: provider.id,
    serviceProviderBusinessName: provider.name,
    merchantBusinessId: merchant.id,
    merchantBusinessName: merchant.name,
    linkedAt: new Date().toISOString(),
  };
  await transactWrite([linkWrite(link)]);
  return link;
}

/** The write that creates a link (replacing a detached one), for a transaction of the caller's. */
export function linkWrite(link: ServiceProviderLink): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...linkKey(link.serviceProviderBusinessId, link.merchantBusinessId),
          gsi1pk: merchantIndexKey(link.merchantBusinessId),
          gsi1sk: `${link.linkedAt}#${link.serviceProviderBusinessId}`,
          entity: 'service_provider_link',
          ...link,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR attribute_exists(detachedAt)',
      },
    },
    onConditionFailed: () => new AlreadyLinked(link.merchantBusinessId),
  };
}

/** The live link between a provider and a merchant, or undefined (none, or detached). */
export async function getLink(
  providerId: string,
  merchantId: string,
): Promise<ServiceProviderLink | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: linkKey(providerId, merchantId), ConsistentRead: true }),
  );
  return Item && Item.detachedAt === undefined ? toLink(Item) : undefined;
}

export async function isLinked(providerId: string, merchantId: string): Promise<boolean> {
  return (await getLink(providerId, merchantId)) !== undefined;
}

/** The provider's live links, by merchant id. */
export async function listMerchantLinks(providerId: string): Promise<ServiceProviderLink[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'attribute_not_exists(detachedAt)',
    ExpressionAttributeValues: { ':pk': `BIZ#${providerId}`, ':prefix': 'MERCHANT#' },
  });
  return items.map(toLink);
}

export async function listProviderLinks(merchantId: string): Promise<ServiceProviderLink[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': merchantIndexKey(merchantId) },
  });
  return items.map(toLink);
}

/** Ends a live link; an unknown or already detached one is BusinessNotFound, as for the provider. */
export async function detachMerchant(providerId: string, merchantId: string): Promise<void> {
  await transactWrite([detachLinkWrite(providerId, merchantId, new Date().toISOString())]);
}

/** The write that ends a live link, for a transaction of the caller's. */
export function detachLinkWrite(providerId: string, merchantId: string, at: string): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: linkKey(providerId, merchantId),
        UpdateExpression: 'SET detachedAt = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(detachedAt)',
        ExpressionAttributeValues: { ':now': at },
      },
    },
    onConditionFailed: () => new BusinessNotFound(),
  };
}

function toLink(item: Record<string, unknown>): ServiceProviderLink {
  return {
    id: item.id as string,
    serviceProviderBusinessId: item.serviceProviderBusinessId as string,
    serviceProviderBusinessName: item.serviceProviderBusinessName as string,
    merchantBusinessId: item.merchantBusinessId as string,
    merchantBusinessName: item.merchantBusinessName as string,
    linkedAt: item.linkedAt as string,
  };
}
