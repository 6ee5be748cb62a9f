import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type Member, memberItem } from '#shared/data/member.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { Conflict } from '#shared/errors/request.ts';

/**
 * Business: a merchant or a service provider; it owns members, stores, devices and API keys.
 *
 * Key: pk = BIZ#<businessId>, sk = PROFILE. Its stores, wallets, devices and members share the
 * partition (see their modules), so anything read "under the caller's business" simply cannot
 * return another business's records.
 *
 * Access patterns and cost (items are far below 1 KB / 4 KB):
 * - get by id, on every authentication that misses the container cache: GetItem, eventually
 *   consistent, 0.5 RCU.
 * - create with its owner member: TransactWriteItems of 2 puts, 4 WCU.
 * - retire (API access off, by the operator): UpdateItem, 1 WCU.
 */
export interface Business {
  id: string;
  name: string;
  /** Keys of a business without API access are refused with 403 business_not_enabled_for_api_access. */
  apiAccessEnabled: boolean;
  isServiceProvider: boolean;
  /** Decides the collection ceilings; 0 = unverified, 1 = the first level (which grants API access). */
  verificationLevel: number;
  ownerMemberId: string;
  /** The activity declared at onboarding (see shared/domain/activity-catalogue.ts). */
  activityId?: string | undefined;
  referralCode?: string | undefined;
  /** The service provider that onboarded it: only that provider may make keys for it. */
  onboardedByServiceProviderId?: string | undefined;
  createdAt: string;
}

export const businessKey = (businessId: string) => ({ pk: `BIZ#${businessId}`, sk: 'PROFILE' });

export async function getBusiness(businessId: string): Promise<Business | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: businessKey(businessId) }),
  );
  return Item ? toBusiness(Item) : undefined;
}

export interface NewBusiness {
  name: string;
  apiAccessEnabled: boolean;
  isServiceProvider: boolean;
  verificationLevel: number;
  owner?: { name?: string; phone?: string };
}

export async function createBusiness(input: NewBusiness): Promise<{ business: Business; owner: Member }> {
  const createdAt = new Date().toISOString();
  const businessId = randomUUID();
  const owner: Member = {
    id: randomUUID(),
    businessId,
    role: 'owner',
    name: input.owner?.name ?? input.name,
    phone: input.owner?.phone,
    createdAt,
  };
  const business: Business = {
    id: businessId,
    name: input.name,
    apiAccessEnabled: input.apiAccessEnabled,
    isServiceProvider: input.isServiceProvider,
    verificationLevel: input.verificationLevel,
    ownerMemberId: owner.id,
    createdAt,
  };
  await transactWrite(businessWrites(business, owner));
  return { business, owner };
}

/** The writes that create a business with its owner member, for a transaction of the caller's. */
export function businessWrites(business: Business, owner: Member): GuardedWrite[] {
  const alreadyExists = () => new Conflict('Business already exists');
  return [
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: { ...businessKey(business.id), entity: 'business', ...business },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: alreadyExists,
    },
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: memberItem(owner),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: alreadyExists,
    },
  ];
}

function toBusiness(item: Record<string, unknown>): Business {
  return {
    id: item.id as string,
    name: item.name as string,
    apiAccessEnabled: item.apiAccessEnabled === true,
    isServiceProvider: item.isServiceProvider === true,
    verificationLevel: Number(item.verificationLevel ?? 0),
    ownerMemberId: item.ownerMemberId as string,
    activityId: item.activityId as string | undefined,
    referralCode: item.referralCode as string | undefined,
    onboardedByServiceProviderId: item.onboardedByServiceProviderId as string | undefined,
    createdAt: item.createdAt as string,
  };
}

/**
 * Turns the business's API access off: its keys are refused from then on (403). Nothing is deleted:
 * its ledger entries stay, as every movement of money must.
 */
export async function disableApiAccess(businessId: string): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: businessKey(businessId),
        UpdateExpression: 'SET apiAccessEnabled = :off',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':off': false },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
