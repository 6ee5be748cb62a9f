import { describe, expect, it } from 'vitest';
import { memberRoles, requireRoleAllows, roleAllows } from '#shared/domain/dashboard-roles.ts';

describe('dashboard roles', () => {
  it('lets every role read', () => {
    for (const role of memberRoles) expect(roleAllows(role, 'read')).toBe(true);
  });

  it('keeps keys and webhooks to owner, admin and developer', () => {
    const managing = memberRoles.filter((role) => roleAllows(role, 'manageKeys'));
    expect(managing).toEqual(['owner', 'admin', 'developer']);
    expect(memberRoles.filter((role) => roleAllows(role, 'manageWebhooks'))).toEqual(managing);
  });

  it('lets finance refund and export but not send money out; only owner and admin send', () => {
    expect(roleAllows('finance', 'refund')).toBe(true);
    expect(roleAllows('finance', 'export')).toBe(true);
    expect(memberRoles.filter((role) => roleAllows(role, 'sendMoney'))).toEqual(['owner', 'admin']);
  });

  it('keeps the step-up threshold of transfers to the owner', () => {
    expect(memberRoles.filter((role) => roleAllows(role, 'setStepUpThreshold'))).toEqual(['owner']);
  });

  it('keeps changing owners to owners', () => {
    expect(memberRoles.filter((role) => roleAllows(role, 'manageOwners'))).toEqual(['owner']);
  });

  it('keeps the identity check to the owner, as the interface says', () => {
    expect(memberRoles.filter((role) => roleAllows(role, 'verify'))).toEqual(['owner']);
  });

  it('lets owner and admin manage the team, no one else', () => {
    expect(memberRoles.filter((role) => roleAllows(role, 'manageTeam'))).toEqual(['owner', 'admin']);
  });

  it('refuses with forbidden_action', () => {
    expect(() => requireRoleAllows('viewer', 'manageKeys')).toThrow(
      expect.objectContaining({ id: 'forbidden_action' }),
    );
    expect(() => requireRoleAllows('developer', 'manageKeys')).not.toThrow();
  });
});
