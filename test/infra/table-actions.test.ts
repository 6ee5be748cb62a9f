import { beforeAll, describe, expect, it } from 'vitest';
import type { TableAction } from '#shared/catalogue/access.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { tableActionsUsedBy } from '#test/support/table-actions.ts';

// Each function is granted the DynamoDB actions its declaration lists (infra/service-function.ts);
// here the list is held to the code the function is bundled with. An action declared but not used
// is a grant nobody needs (a delete or batch write an injected request could use); an action used
// but not declared would be refused by IAM on AWS, while the local host, which has no IAM, lets it
// pass. Both fail here.

let used: Map<string, TableAction[]>;

beforeAll(async () => {
  used = await tableActionsUsedBy([...new Set(functionEntries.map(([, fn]) => fn.entry))]);
});

const declaredBy = (access: readonly string[]) =>
  access.filter((granted) => granted.startsWith('table:')).map((granted) => granted.slice('table:'.length));

describe('table actions', () => {
  it.each(functionEntries)('%s declares exactly the table actions its code uses', (_name, fn) => {
    const inCode = used.get(fn.entry);
    expect(inCode, fn.entry).toBeDefined();
    expect(declaredBy(fn.access).sort()).toEqual([...(inCode ?? [])].sort());
  });

  it('no function writes in batches or scans; deletes only where a function removes items', () => {
    const declaring = (action: TableAction) =>
      functionEntries.filter(([, fn]) => fn.access.includes(`table:${action}`)).map(([name]) => name);
    expect(declaring('BatchWriteItem')).toEqual([]);
    expect(declaring('Scan')).toEqual([]);
    const deleters = declaring('DeleteItem');
    // Fewer than half: reading a declaration's list is still worth it.
    expect(deleters.length).toBeGreaterThan(0);
    expect(deleters.length).toBeLessThan(functionEntries.length / 2);
    for (const name of ['getPaymentRequest', 'listStores', 'recordDevicePresence', 'sendWebhooks']) {
      expect(deleters, name).not.toContain(name);
    }
  });

  it('reads the code it is given: a delete in a transaction and a delete command are both seen', async () => {
    // Two functions known to delete, one each way (a contact's removal is a transaction of an
    // update and a delete; signing out deletes the session item).
    expect(used.get('functions/contacts/delete-contact.ts')).toContain('DeleteItem');
    expect(used.get('functions/dashboard/sign-out.ts')).toContain('DeleteItem');
    // And one that reads, but for the hourly note of its key's last use (shared/http/authenticate.ts).
    expect(used.get('functions/stores/list-stores.ts')).toEqual(['GetItem', 'Query', 'UpdateItem']);
  });
});
