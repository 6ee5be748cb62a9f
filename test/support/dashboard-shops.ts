import { randomUUID } from 'node:crypto';
import type { LocalConfig } from '#infra/local/local-config.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { apiClient } from '#test/support/api-client.ts';
import { DashboardBrowser, newDashboardPhone, signUpOwner } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * A business as the money pages' tests need it: signed up on the dashboard (its owner's browser),
 * with API access (what its first verification level opens), an API key and some balance, so a
 * test pays, refunds and compares through the API what the pages show. The local table must be
 * reachable (`useLocalAws`) before these run.
 */
export interface DashboardShop {
  browser: DashboardBrowser;
  businessId: string;
  storeId: string;
  headers: Record<string, string>;
}

export async function dashboardShop(config: LocalConfig, dataDir: string): Promise<DashboardShop> {
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const owner = await signUpOwner(config.baseUrl);
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${owner.businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', owner.businessId);
  const headers = {
    'X-API-KEY-ID': keyId as string,
    'X-API-KEY': key as string,
    'content-type': 'application/json',
  };
  const stores = await apiClient(config.baseUrl)('GET', '/partner_api/stores', headers);
  const storeId = (stores.body.data ?? stores.body)[0].id as string;
  // The store pays refunds out of its balance, which holds payments less their fees: some more.
  await admin(dataDir, 'credit', '--store', storeId, '--amount', '1000000');
  return { browser: owner.browser, businessId: owner.businessId, storeId, headers };
}

/** A second person of the business with the given role, made in the table and signed in. */
export async function dashboardMemberOf(
  baseUrl: string,
  businessId: string,
  role: MemberRole,
): Promise<DashboardBrowser> {
  const { createUser } = await import('#shared/data/user.ts');
  const { newMemberWrites } = await import('#shared/data/membership.ts');
  const { transactWrite } = await import('#shared/data/transact.ts');
  const phone = newDashboardPhone();
  const user = await createUser({ phone, firstName: 'Koffi', lastName: 'Yao' });
  await transactWrite(
    newMemberWrites(
      {
        id: randomUUID(),
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
  return browser;
}
