import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { newMemberWrites } from '#shared/data/membership.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { createUser } from '#shared/data/user.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { DashboardBrowser, newDashboardPhone } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * A business signed up on the dashboard, made ready for money pages' tests: the table written as
 * the first verification level writes it, a platform key made with the admin command, and more
 * members signed in with the roles a test needs. Call `useLocalAws` first.
 */

/** What the first verification level does (built elsewhere): API access on, level 1's ceiling. */
export async function grantApiAccess(businessId: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
}

/** A platform key of the business (escrows need one), as API headers. */
export async function platformKeyOf(dataDir: string, businessId: string): Promise<Record<string, string>> {
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId, '--kind', 'platform');
  return { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string, 'content-type': 'application/json' };
}

/** A second person of the business with `role`, made in the table and signed in. */
export async function signedInMember(baseUrl: string, businessId: string, role: MemberRole) {
  const phone = newDashboardPhone();
  const user = await createUser({ phone, firstName: 'Koffi', lastName: 'Yao' });
  const memberId = randomUUID();
  await transactWrite(
    newMemberWrites(
      {
        id: memberId,
        businessId,
        role,
        name: 'Koffi Yao',
        phone,
        userId: user.id,
        createdAt: new Date().toISOString(),
      },
      'Maquis Aïcha',
    ),
  );
  const browser = new DashboardBrowser(baseUrl);
  const signedIn = await browser.signInWith(phone);
  if (signedIn.location !== `${baseUrl}/dashboard`) throw new Error(`not signed in: ${signedIn.status}`);
  return { browser, memberId };
}
