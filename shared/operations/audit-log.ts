import {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditQuery,
  auditEntryWrite,
  listAuditEntries,
  newAuditEntry,
  putAuditEntry,
} from '#shared/data/audit-entry.ts';
import { listMembers } from '#shared/data/member.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { findUserByPhone, listOwnedBusinesses } from '#shared/data/user.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';

/**
 * The dashboard's audit log: what was done for a business, by whom, when and from where. Every
 * page that changes something records it through `recordAudit` (or, where the change is one
 * transaction, `auditWriteFor` inside it, so the change and its entry happen together).
 */
export interface AuditRecord {
  action: AuditAction;
  subjectId?: string | undefined;
  detail?: string | undefined;
  sourceIp: string;
}

export const actorOf = (member: ActingMember): AuditActor => ({
  memberId: member.memberId,
  userId: member.userId,
});

function entryFor(member: ActingMember, record: AuditRecord, at: Date): AuditEntry {
  return newAuditEntry({
    businessId: member.businessId,
    at: at.toISOString(),
    action: record.action,
    actor: actorOf(member),
    subjectId: record.subjectId,
    detail: record.detail?.slice(0, 300),
    sourceIp: record.sourceIp,
  });
}

/** Records what `member` just did for their business: one PutItem, 1 WCU. */
export async function recordAudit(member: ActingMember, record: AuditRecord, at = new Date()): Promise<void> {
  await putAuditEntry(entryFor(member, record, at));
}

/** The entry's put, for the transaction of the change it records. */
export const auditWriteFor = (member: ActingMember, record: AuditRecord, at = new Date()): GuardedWrite =>
  auditEntryWrite(entryFor(member, record, at));

/**
 * Records a sign-in step of a person, by their phone, in every business they own: a sign-in, or a
 * wrong code tried on their phone (someone else may be trying it). A phone without an account has
 * no business to record it in; the sign-in code's metrics count those.
 * Cost: the user's lookup (1 RCU) when only the phone is known, then per business owned its
 * members (0.5 RCU) and the entry (1 WCU).
 */
export async function recordSignInStep(
  person: { userId?: string | undefined; phone: string },
  action: Extract<AuditAction, 'sign_in' | 'sign_in_code_failed'>,
  sourceIp: string,
  at = new Date(),
): Promise<void> {
  const userId = person.userId ?? (await findUserByPhone(person.phone))?.id;
  if (!userId) return;
  const businesses = await listOwnedBusinesses(userId);
  await Promise.all(
    businesses.map(async ({ businessId }) => {
      const member = (await listMembers(businessId)).find((candidate) => candidate.userId === userId);
      await putAuditEntry(
        newAuditEntry({
          businessId,
          at: at.toISOString(),
          action,
          actor: { memberId: member?.id, userId, phone: person.phone },
          sourceIp,
        }),
      );
    }),
  );
}

export const auditLogOf = (member: ActingMember, query: AuditQuery) =>
  listAuditEntries(member.businessId, query);
