import {
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  auditEntryWrite,
  isAuditAction,
  listAuditEntries,
  newAuditEntry,
  putAuditEntry,
} from '#shared/data/audit-entry.ts';
import { listMembers } from '#shared/data/member.ts';
import { listMemberships } from '#shared/data/membership.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { findUserByPhone } from '#shared/data/user.ts';
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
  const memberships = await listMemberships(userId);
  await Promise.all(
    memberships.map(({ businessId, memberId }) =>
      putAuditEntry(
        newAuditEntry({
          businessId,
          at: at.toISOString(),
          action,
          actor: { memberId, userId, phone: person.phone },
          sourceIp,
        }),
      ),
    ),
  );
}

export const auditPageSize = 50;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

export interface AuditFilters {
  action?: AuditAction | undefined;
  memberId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  after?: string | undefined;
}

/** The page's filters from its query: what is not shaped like a filter is left out, not refused. */
export function auditFiltersOf(query: Record<string, string>): AuditFilters {
  const day = (value: string | undefined) => (value && dayPattern.test(value) ? value : undefined);
  return {
    action: query.action && isAuditAction(query.action) ? query.action : undefined,
    memberId: query.member && /^[0-9a-f-]{36}$/.test(query.member) ? query.member : undefined,
    from: day(query.from),
    to: day(query.to),
    after: query.after && /^[0-9T:.Z-]{20,30}#[0-9a-f-]{36}$/.test(query.after) ? query.after : undefined,
  };
}

/** One page of the business's log, with its members for the filter and for naming who acted. */
export async function auditPageOf(member: ActingMember, filters: AuditFilters) {
  const [{ entries, next }, members] = await Promise.all([
    listAuditEntries(member.businessId, { ...filters, limit: auditPageSize }),
    listMembers(member.businessId),
  ]);
  return { entries, next, members };
}
