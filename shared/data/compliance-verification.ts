import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { businessKey } from '#shared/data/business.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { Conflict } from '#shared/errors/request.ts';
import { VerificationAlreadyOpen } from '#shared/errors/service-providers.ts';

/**
 * Compliance verification: a check of a merchant owner's identity (KYC), started by a service
 * provider linked to the merchant or by the owner on the dashboard, completed by the owner on the
 * dashboard's page (its `url`).
 *
 * Keys:
 * - pk = KYC#<id>, sk = KYC: the verification.
 * - pk = BIZ#<merchantId>, sk = KYC#OPEN#<type>: the merchant's open verification of a type,
 *   written under `attribute_not_exists`, so two concurrent starts make one verification; removed
 *   when it completes.
 *
 * Access patterns and cost (items ~500 bytes):
 * - the open one of a merchant: GetItem on the pointer then on the verification, 1 RCU.
 * - start: TransactWriteItems of 2 puts, 4 WCU.
 * - complete: TransactWriteItems updating it, removing the pointer, raising the business's level
 *   and opening its API access (approved) and writing the provider's outbox event, ~8 WCU.
 */
export type ComplianceVerificationStatus = 'pending' | 'approved' | 'rejected';

export interface ComplianceVerification {
  id: string;
  type: 'kyc';
  status: ComplianceVerificationStatus;
  merchantBusinessId: string;
  /** The provider that started it; absent when the owner started it on the dashboard. */
  serviceProviderBusinessId?: string | undefined;
  url: string;
  callbackUrl?: string | undefined;
  rejectionReason?: string | undefined;
  /** Sent to the identity vendor (Smile ID), whose result callback decides it; absent on the sandbox's. */
  submittedAt?: string | undefined;
  /** The vendor's job of the latest try: only its result decides (a late result of an earlier try does not). */
  vendorJobId?: string | undefined;
  /** The vendor asks the owner to try again (a number in the wrong format): why, shown on the form. */
  retryReason?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

const verificationKey = (id: string) => ({ pk: `KYC#${id}`, sk: 'KYC' });
const openKey = (merchantId: string, type: string) => ({ pk: `BIZ#${merchantId}`, sk: `KYC#OPEN#${type}` });

export async function getVerification(id: string): Promise<ComplianceVerification | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: verificationKey(id), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { pk, sk, entity, ...verification } = Item;
  return verification as ComplianceVerification;
}

export async function getOpenVerification(
  merchantId: string,
  type: string,
): Promise<ComplianceVerification | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: openKey(merchantId, type), ConsistentRead: true }),
  );
  return Item ? getVerification(Item.verificationId as string) : undefined;
}

export function newVerificationWrites(verification: ComplianceVerification): GuardedWrite[] {
  return [
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: {
            ...openKey(verification.merchantBusinessId, verification.type),
            entity: 'open_compliance_verification',
            verificationId: verification.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new VerificationAlreadyOpen(),
    },
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: { ...verificationKey(verification.id), entity: 'compliance_verification', ...verification },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ];
}

/** Completes a pending verification and closes it; fails if it was completed meanwhile. */
export function completeVerificationWrites(
  verification: ComplianceVerification,
  status: 'approved' | 'rejected',
  at: string,
): GuardedWrite[] {
  const alreadyDone = () => new Conflict('The verification is already completed');
  return [
    {
      write: {
        Update: {
          TableName: tableName(),
          Key: verificationKey(verification.id),
          UpdateExpression: `SET #status = :status, updatedAt = :at${verification.rejectionReason ? ', rejectionReason = :reason' : ''}`,
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': status,
            ':at': at,
            ':pending': 'pending',
            ...(verification.rejectionReason ? { ':reason': verification.rejectionReason } : {}),
          },
        },
      },
      onConditionFailed: alreadyDone,
    },
    {
      write: {
        Delete: {
          TableName: tableName(),
          Key: openKey(verification.merchantBusinessId, verification.type),
        },
      },
    },
  ];
}

/**
 * Raises a business's verification level, if the level read is still the one there, and opens its
 * API access: the first level is what grants it (a level-0 business has none).
 */
export function raiseLevelWrite(businessId: string, from: number, to: number): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: businessKey(businessId),
        UpdateExpression: 'SET verificationLevel = :to, apiAccessEnabled = :on',
        ConditionExpression: 'verificationLevel = :from',
        ExpressionAttributeValues: { ':from': from, ':to': to, ':on': true },
      },
    },
    onConditionFailed: () => new Conflict('The business changed meanwhile; try again'),
  };
}

/**
 * Records that a pending verification went to the identity vendor (its result comes by callback),
 * or, with `retryReason`, that the vendor asks the owner to try again. One no longer pending (a
 * result that came meanwhile) is left as it is.
 */
export async function markVerificationAttempt(
  id: string,
  attempt: { submittedAt: string; vendorJobId: string } | { retryReason: string },
  at: string,
): Promise<void> {
  const submitted = 'submittedAt' in attempt;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: verificationKey(id),
        UpdateExpression: submitted
          ? 'SET submittedAt = :submittedAt, vendorJobId = :vendorJobId, updatedAt = :at REMOVE retryReason'
          : 'SET retryReason = :retryReason, updatedAt = :at REMOVE submittedAt',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...(submitted
            ? { ':submittedAt': attempt.submittedAt, ':vendorJobId': attempt.vendorJobId }
            : { ':retryReason': attempt.retryReason }),
          ':at': at,
          ':pending': 'pending',
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
