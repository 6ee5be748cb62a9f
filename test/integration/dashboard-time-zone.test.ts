import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actingMember } from '#shared/operations/dashboard-access.ts';
import { resumeSession, startSession } from '#shared/operations/dashboard-sessions.ts';
import { createOwnedBusiness } from '#shared/operations/service-providers.ts';
import { readableTime } from '#shared/pages/dashboard-chrome.ts';

/**
 * The dashboard writes the times that belong to no store (a key's use, the audit log) where the
 * business is (issue 35): its first store's country's zone, UTC+1 for a business in Benin.
 */
async function sessionOfBusinessIn(storeCountry: 'BJ' | 'SN') {
  const { user } = await createOwnedBusiness({
    owner: {
      phone: `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`,
      firstName: 'Awa',
      lastName: 'Zinsou',
    },
    business: { name: `Boutique ${storeCountry}` },
    storeName: 'Cotonou',
    storeCountry,
  });
  const session = await resumeSession((await startSession(user.id)).id);
  if (!session) throw new Error('no session');
  return session;
}

describe('the business’s time zone on the dashboard', () => {
  it('is its first store’s: a business in Benin reads its times an hour ahead of one in Senegal', async () => {
    const benin = await actingMember(await sessionOfBusinessIn('BJ'));
    const senegal = await actingMember(await sessionOfBusinessIn('SN'));
    expect(benin.timeZone).toBe('Africa/Porto-Novo');
    expect(senegal.timeZone).toBe('Africa/Dakar');
    const at = '2026-11-28T23:30:00.000Z';
    expect(readableTime(at, { language: 'fr', timeZone: benin.timeZone })).toBe('29/11/2026 à 00:30');
    expect(readableTime(at, { language: 'fr', timeZone: senegal.timeZone })).toBe('28/11/2026 à 23:30');
  });
});
