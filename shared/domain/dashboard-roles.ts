import { ForbiddenAction } from '#shared/errors/auth.ts';

/**
 * What each member of a business may do on the dashboard. The server asks `roleAllows` before
 * every action (a hidden button is not a guard); pages ask it only to leave out what would be
 * refused.
 *
 * - owner: everything, and the only role that can make or remove another owner.
 * - admin: everything but changing owners and the identity check (the interface: only the
 *   account's owner completes the verification).
 * - developer: API keys, webhooks, and reading.
 * - finance: reading, exports and refunds.
 * - viewer: reading.
 */
export const memberRoles = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const isMemberRole = (value: string): value is MemberRole =>
  (memberRoles as readonly string[]).includes(value);

export type DashboardAction =
  | 'read'
  | 'manageTeam'
  | 'manageOwners'
  | 'verify'
  | 'manageKeys'
  | 'manageWebhooks'
  | 'readAudit'
  | 'export'
  | 'refund'
  | 'cancelPayment'
  | 'manageLinks'
  | 'requestPayment'
  | 'sendMoney'
  | 'manageEscrows'
  | 'sendSms'
  /** The amount above which a transfer asks for a fresh SMS code (step-up): the owner's alone. */
  | 'setStepUpThreshold'
  /** SMS credit paid from a store's balance (owner, admin). */
  | 'buySmsCredit'
  /** Where withdrawals may go: the owner's alone, with a fresh SMS code. */
  | 'managePayoutAccounts';

const everything: readonly DashboardAction[] = [
  'read',
  'manageTeam',
  'manageOwners',
  'verify',
  'manageKeys',
  'manageWebhooks',
  'readAudit',
  'export',
  'refund',
  'cancelPayment',
  'manageLinks',
  'requestPayment',
  'sendMoney',
  'manageEscrows',
  'sendSms',
  'setStepUpThreshold',
  'buySmsCredit',
  'managePayoutAccounts',
];

const allowed: Record<MemberRole, readonly DashboardAction[]> = {
  owner: everything,
  admin: everything.filter(
    (action) =>
      action !== 'manageOwners' &&
      action !== 'verify' &&
      action !== 'setStepUpThreshold' &&
      action !== 'managePayoutAccounts',
  ),
  developer: ['read', 'manageKeys', 'manageWebhooks'],
  finance: ['read', 'export', 'refund', 'cancelPayment'],
  viewer: ['read'],
};

export const roleAllows = (role: MemberRole, action: DashboardAction): boolean =>
  allowed[role].includes(action);

/** Refuses (403 `forbidden_action`) what the member's role does not allow, before anything is read or written. */
export function requireRoleAllows(role: MemberRole, action: DashboardAction): void {
  if (!roleAllows(role, action)) {
    throw new ForbiddenAction(`The ${role} role does not allow this action`);
  }
}
