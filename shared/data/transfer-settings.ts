import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { Cents } from '#shared/domain/money.ts';

/**
 * The business's settings for sending money from the dashboard: the step-up threshold, the amount
 * above which a transfer asks for a fresh code sent by SMS to the member's own phone. Set by the
 * owner alone; absent until first set, when the default applies.
 *
 * Key: pk = BIZ#<businessId>, sk = SETTINGS#TRANSFERS.
 * Access patterns and cost (one small item): read, GetItem strongly consistent, 1 RCU (a lowered
 * threshold applies to the very next transfer); set, PutItem, 1 WCU.
 */
export interface TransferSettings {
  businessId: string;
  stepUpThresholdCents: Cents;
  updatedAt: string;
  updatedByMemberId: string;
}

/** 100 000 F CFA: above it, a transfer asks for a fresh SMS code until the owner sets another amount. */
export const defaultStepUpThresholdCents: Cents = 10_000_000;

const settingsKey = (businessId: string) => ({ pk: `BIZ#${businessId}`, sk: 'SETTINGS#TRANSFERS' });

export async function getTransferSettings(businessId: string): Promise<TransferSettings | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: settingsKey(businessId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    businessId,
    stepUpThresholdCents: Item.stepUpThresholdCents as number,
    updatedAt: Item.updatedAt as string,
    updatedByMemberId: Item.updatedByMemberId as string,
  };
}

export async function putTransferSettings(settings: TransferSettings): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...settingsKey(settings.businessId), entity: 'transfer_settings', ...settings },
    }),
  );
}
