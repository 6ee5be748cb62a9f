import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';

/**
 * Audit entry: one thing a person did for a business on the dashboard (or that was tried in its
 * name, like a wrong sign-in code): who, when, what, from which address. Written once, never
 * changed; it is not the "audit suite" of `shared/audit/`, which checks the ledger's books.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = AUDIT#<ISO time>#<id>: the business's log in time order, so a
 *   listing between two dates is a key range, read newest first.
 * - ttl: `retentionDays` after the entry (a year and a month): DynamoDB deletes it some time after.
 *
 * Access patterns and cost (an entry is ~0.3 KB):
 * - write: PutItem, 1 WCU, no index; or a put in the transaction of the change it records (2 WCU
 *   there, as every transactional write).
 * - list a page: Query pk with sk between the dates, newest first, filtered on action and member
 *   (filters read what they drop): 0.5 RCU per 4 KB read, so a page of 50 unfiltered entries is
 *   ~2 RCU; a filter that matches little reads further, bounded by `scanLimit` per page.
 */
export const auditActions = [
  'sign_in',
  'sign_in_code_failed',
  'api_key_created',
  'api_key_revoked',
  'webhook_created',
  'webhook_changed',
  'webhook_deleted',
  'webhook_secret_rotated',
  'webhook_test_sent',
  'webhook_delivery_resent',
  'member_invited',
  'invitation_cancelled',
  'member_role_changed',
  'member_removed',
  'refund_made',
  'transfer_made',
  'payment_link_created',
  'payment_link_switched_off',
  'payment_link_switched_on',
  'contact_added',
  'contact_removed',
  'step_up_threshold_changed',
  'step_up_code_failed',
  'transactions_exported',
  'payment_requested',
  'sms_sent',
  'payment_cancelled',
  'escrow_released',
  'escrow_refunded',
  'soundbox_test_qr_shown',
  'payout_account_added',
  'payout_account_removed',
  'withdrawal_made',
  'sms_credit_bought',
  'automatic_settlement_changed',
] as const;

export type AuditAction = (typeof auditActions)[number];

export const isAuditAction = (value: string): value is AuditAction =>
  (auditActions as readonly string[]).includes(value);

/** Who acted: a member of the business when known; a wrong code is tried by a phone, not yet a member. */
export interface AuditActor {
  memberId?: string | undefined;
  userId?: string | undefined;
  name?: string | undefined;
  phone?: string | undefined;
}

export interface AuditEntry {
  id: string;
  businessId: string;
  at: string;
  action: AuditAction;
  actor: AuditActor;
  /** The object acted on: a key's id, a subscription's, a member's, a refund's... */
  subjectId?: string | undefined;
  /** A short readable detail: a key's name and kind, a webhook's url. */
  detail?: string | undefined;
  /** The caller's address as API Gateway saw it. */
  sourceIp: string;
}

/** Kept at least a year (issue 25), plus a month of margin for DynamoDB's late deletion to not matter. */
export const retentionDays = 396;

const auditPrefix = 'AUDIT#';

/** An entry with its id, ready to write. */
export const newAuditEntry = (entry: Omit<AuditEntry, 'id'>): AuditEntry => ({ id: randomUUID(), ...entry });

/** The put of an entry, for a transaction with the change it records: both happen, or neither. */
export function auditEntryWrite(entry: AuditEntry): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          pk: `BIZ#${entry.businessId}`,
          sk: `${auditPrefix}${entry.at}#${entry.id}`,
          entity: 'audit_entry',
          ...entry,
          ttl: Math.ceil(Date.parse(entry.at) / 1000) + retentionDays * 86_400,
        },
      },
    },
  };
}

export async function putAuditEntry(entry: AuditEntry): Promise<void> {
  const put = auditEntryWrite(entry).write.Put;
  if (put) await documentClient.send(new PutCommand(put));
}

export interface AuditQuery {
  action?: AuditAction | undefined;
  memberId?: string | undefined;
  /** Inclusive bounds, ISO times. */
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
  /** The `at#id` of the last entry of the previous page. */
  after?: string | undefined;
}

/** Items read at most for one page, so a filter that matches little cannot read the whole year. */
const scanLimit = 1000;

/** One page of the log, newest first, and where the next page starts (undefined: no more). */
export async function listAuditEntries(
  businessId: string,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; next?: string | undefined }> {
  const upper = `${auditPrefix}${query.to ?? '9999'}\uffff`;
  const lower = `${auditPrefix}${query.from ?? ''}`;
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':pk': `BIZ#${businessId}`, ':lower': lower, ':upper': upper };
  if (query.action) {
    filters.push('#action = :action');
    values[':action'] = query.action;
  }
  if (query.memberId) {
    filters.push('actor.memberId = :member');
    values[':member'] = query.memberId;
  }
  const entries: AuditEntry[] = [];
  // The next page starts right after the previous page's last entry: its key, exclusive.
  let startKey: Record<string, unknown> | undefined = query.after
    ? { pk: `BIZ#${businessId}`, sk: `${auditPrefix}${query.after}` }
    : undefined;
  let read = 0;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(query.action ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: Math.min(scanLimit - read, query.limit + 1 - entries.length + (filters.length ? 100 : 0)),
        ExclusiveStartKey: startKey,
      }),
    );
    read += page.ScannedCount ?? 0;
    for (const item of page.Items ?? []) {
      if (entries.length <= query.limit) entries.push(toAuditEntry(item));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && entries.length <= query.limit && read < scanLimit);
  const page = entries.slice(0, query.limit);
  const last = page.at(-1);
  if (entries.length > query.limit && last) return { entries: page, next: `${last.at}#${last.id}` };
  // Stopped by the bound on reads, short of a page: the next page goes on from where reading stopped.
  const stoppedAt = startKey ? String(startKey.sk).slice(auditPrefix.length) : undefined;
  return { entries: page, next: stoppedAt };
}

function toAuditEntry(item: Record<string, unknown>): AuditEntry {
  const actor = (item.actor ?? {}) as Record<string, unknown>;
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    at: item.at as string,
    action: item.action as AuditAction,
    actor: {
      memberId: actor.memberId as string | undefined,
      userId: actor.userId as string | undefined,
      name: actor.name as string | undefined,
      phone: actor.phone as string | undefined,
    },
    subjectId: item.subjectId as string | undefined,
    detail: item.detail as string | undefined,
    sourceIp: item.sourceIp as string,
  };
}
