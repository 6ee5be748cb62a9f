import { randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { listAuditEntries } from '#shared/data/audit-entry.ts';
import { getSession } from '#shared/data/dashboard-session.ts';
import { invitationsOfPhone } from '#shared/data/invitation.ts';
import { listMembers } from '#shared/data/member.ts';
import { listMemberships } from '#shared/data/membership.ts';
import { findUserByPhone } from '#shared/data/user.ts';

/**
 * Memberships, invitations and sessions against DynamoDB Local: the races the pages cannot show
 * (two owners demoting each other at once), data written before roles, and "sign out everywhere".
 * The SMS is taken where the operation hands it to the service's SMS path (the end-to-end suite
 * reads real ones from the local SMS inbox).
 */
const sent = vi.hoisted(() => [] as { to: string; body: string }[]);
vi.mock('#shared/operations/messages.ts', () => ({
  sendPlatformSms: async (message: { to: string; body: string }) => {
    sent.push(message);
    return message;
  },
}));

const { createOwnedBusiness } = await import('#shared/operations/service-providers.ts');
const { startSession, resumeSession, endAllSessions, sessionIdHash } = await import(
  '#shared/operations/dashboard-sessions.ts'
);
const { actingMember } = await import('#shared/operations/dashboard-access.ts');
const { inviteMember, acceptInvitations, changeMemberRole } = await import('#shared/operations/team.ts');

const newPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
const context = { signInUrl: 'https://dash.example/dashboard/sign-in', language: 'fr' as const };

async function ownerOf(name: string) {
  const phone = newPhone();
  const { user, business } = await createOwnedBusiness({
    owner: { phone, firstName: 'Awa', lastName: name },
    business: { name },
    storeName: name,
  });
  const { id } = await startSession(user.id);
  const session = await resumeSession(id);
  if (!session) throw new Error('no session');
  return { user, business, session, phone, sessionId: id };
}

describe('memberships', () => {
  it('a business made by sign-up or onboarding has its owner as a member the session acts as', async () => {
    const { user, business, session } = await ownerOf('Boutique');
    expect(await listMemberships(user.id)).toEqual([
      { businessId: business.id, businessName: 'Boutique', memberId: business.ownerMemberId, role: 'owner' },
    ]);
    expect(await actingMember(session)).toEqual({
      businessId: business.id,
      businessName: 'Boutique',
      memberId: business.ownerMemberId,
      userId: user.id,
      role: 'owner',
      // What the API's operations need to act for it (`callerForMember`): a new business's.
      isServiceProvider: false,
      verificationLevel: 0,
      // Its first store's zone, where the dashboard writes the times of no store (issue 35).
      timeZone: 'Africa/Abidjan',
    });
  });

  it('reads an ownership written before roles (OWNS#) as an owner membership, rewritten at the first role change', async () => {
    const first = await ownerOf('Ancienne');
    // The data as sign-up wrote it before roles: no MEMBER_OF# item, an OWNS# one.
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { pk: `USER#${first.user.id}`, sk: `MEMBER_OF#${first.business.id}` },
      }),
    );
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: `USER#${first.user.id}`,
          sk: `OWNS#${first.business.id}`,
          entity: 'business_ownership',
          businessId: first.business.id,
          businessName: 'Ancienne',
        },
      }),
    );
    expect(await listMemberships(first.user.id)).toEqual([
      {
        businessId: first.business.id,
        businessName: 'Ancienne',
        memberId: first.business.ownerMemberId,
        role: 'owner',
      },
    ]);
    // A second owner joins; the first steps down to admin: the membership is rewritten.
    const secondPhone = newPhone();
    await inviteMember(
      await actingMember(first.session),
      { firstName: 'Kofi', lastName: 'Mensah', phone: secondPhone, role: 'owner' },
      context,
    );
    await acceptInvitations(secondPhone, undefined);
    await changeMemberRole(
      await actingMember(first.session),
      first.business.ownerMemberId,
      'admin',
      '203.0.113.7',
    );
    expect(await listMemberships(first.user.id)).toEqual([
      {
        businessId: first.business.id,
        businessName: 'Ancienne',
        memberId: first.business.ownerMemberId,
        role: 'admin',
      },
    ]);
    // Both member changes are in the audit log, written in the change's own transaction.
    const { entries } = await listAuditEntries(first.business.id, { limit: 10 });
    expect(entries.map((entry) => entry.action).sort()).toEqual(['member_invited', 'member_role_changed']);
    const roleChange = entries.find((entry) => entry.action === 'member_role_changed');
    expect(roleChange).toMatchObject({
      subjectId: first.business.ownerMemberId,
      sourceIp: '203.0.113.7',
      detail: expect.stringContaining('owner → admin'),
      actor: { memberId: first.business.ownerMemberId },
    });
  });

  it('two owners demoting each other at the same moment leave one owner, never none', async () => {
    const first = await ownerOf('Duo');
    const secondPhone = newPhone();
    await inviteMember(
      await actingMember(first.session),
      { firstName: 'Kofi', lastName: 'Mensah', phone: secondPhone, role: 'owner' },
      context,
    );
    const { user: second, joined } = await acceptInvitations(secondPhone, undefined);
    if (!second || !joined[0]) throw new Error('not joined');
    const secondSession = await resumeSession((await startSession(second.id, new Date(), joined[0])).id);
    if (!secondSession) throw new Error('no session');
    const [firstOwner, secondOwner] = await Promise.all([
      actingMember(first.session),
      actingMember(secondSession),
    ]);
    const outcomes = await Promise.allSettled([
      changeMemberRole(firstOwner, joined[0].memberId, 'viewer'),
      changeMemberRole(secondOwner, first.business.ownerMemberId, 'viewer'),
    ]);
    const owners = (await listMembers(first.business.id)).filter((member) => member.role === 'owner');
    const done = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    // At most one demotion goes through (the other loses the race, 409); never both.
    expect(done).toBeLessThanOrEqual(1);
    expect(owners).toHaveLength(2 - done);
  });
});

describe('invitations', () => {
  it('makes an account for a phone without one, with the inviter’s names, once', async () => {
    const { session, business } = await ownerOf('Salon');
    const phone = newPhone();
    const invited = await inviteMember(
      await actingMember(session),
      { firstName: 'Kofi', lastName: 'Mensah', phone, role: 'finance' },
      context,
    );
    expect(invited.outcome).toBe('invited');
    expect(sent.at(-1)).toEqual(
      expect.objectContaining({ to: phone, body: expect.stringContaining(context.signInUrl) }),
    );
    const { user, joined } = await acceptInvitations(phone, undefined);
    expect(user).toMatchObject({ phone, firstName: 'Kofi', lastName: 'Mensah' });
    expect(await findUserByPhone(phone)).toMatchObject({ id: user?.id });
    expect(joined).toEqual([expect.objectContaining({ businessId: business.id, role: 'finance' })]);
    expect(await invitationsOfPhone(phone)).toEqual([]);
    // Nothing left to accept: a second sign-in joins nothing twice.
    expect((await acceptInvitations(phone, user)).joined).toEqual([]);
    expect((await listMembers(business.id)).map((member) => member.role)).toEqual(['owner', 'finance']);
  });

  it('ignores an invitation past its seven days', async () => {
    const { session } = await ownerOf('Vieille');
    const phone = newPhone();
    const long = new Date(Date.now() - 8 * 24 * 3_600_000);
    await inviteMember(
      await actingMember(session),
      { firstName: 'A', lastName: 'B', phone, role: 'viewer' },
      context,
      long,
    );
    expect(await invitationsOfPhone(phone)).toEqual([]);
    expect(await acceptInvitations(phone, undefined)).toEqual({ user: undefined, joined: [] });
  });
});

describe('sign out everywhere', () => {
  it('ends every session of the person and no one else’s', async () => {
    const { user, sessionId, session } = await ownerOf('Partout');
    const other = (await startSession(user.id)).id;
    const stranger = await ownerOf('Ailleurs');
    expect(await endAllSessions(session)).toBe(2);
    expect(await resumeSession(sessionId)).toBeUndefined();
    expect(await resumeSession(other)).toBeUndefined();
    expect(await getSession(sessionIdHash(other))).toBeUndefined();
    expect(await resumeSession(stranger.sessionId)).toBeDefined();
  });
});
