import { beforeAll, describe, expect, it } from 'vitest';
import type { AwsAccess, TableAction } from '#shared/catalogue/access.ts';
import { functionEntries as functions } from '#shared/catalogue/all-functions.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { bundleEntries } from '#test/support/function-bundles.ts';
import { tableActionsIn } from '#test/support/table-actions.ts';

// What each function's bundle holds, as the stack bundles it (the options of infra/bundling.ts).
// An SDK client in a bundle is ~15-35 KB of code and import time; one the function may not use is
// dead weight at best and an AccessDenied at run time at worst. The clients a function carries are
// therefore those its access in the route table grants, and no others. Secrets are read through
// the Parameters and Secrets extension over localhost (shared/aws/secrets.ts), so no access allows
// the Secrets Manager client: a bundle carrying it fails here.

/** Which access lets a function use each client. */
const clientGrants: Record<string, (access: AwsAccess) => boolean> = {
  'client-dynamodb': (access) => access.startsWith('table:'),
  // The SMS gateway of sandbox stages hands its delivery events to the smsEvents queue.
  'client-sqs': (access) => access.startsWith('queue:send:') || access === 'sms:send',
  'client-kms': (access) => access.startsWith('key:'),
  'client-iot-data-plane': (access) => access === 'device:push',
  'client-scheduler': (access) => access.startsWith('schedule:'),
  'client-pinpoint-sms-voice-v2': (access) => access === 'sms:send',
};

const queueConsumers = new Set<string>(workerEntries.map(([, worker]) => worker.entry));

// A provider calls the service back only on the paths it is given under /provider_callbacks/: only
// those functions check callbacks. The sandbox's check holds the body to a zod schema, ~19 KB that
// a function calling providers out (a payout, a status query) has no use for.
const callbackSchema = 'shared/providers/callback-body.ts';
// pawaPay's route checks pawaPay's callbacks only (signature and status check): no sandbox schema.
const receivesProviderCallbacks = (fn: (typeof functions)[number][1]) =>
  'path' in fn && fn.path.startsWith('/provider_callbacks/{provider}');

// Started by a timer or by Scheduler with an id, these validate no request: the only way zod would
// reach them is through a module they call, as it once did through the provider adapters.
const timed = [...scheduleEntries, ...scheduleTargetEntries];

const zodInputs = (inputs: string[]) => inputs.filter((input) => /node_modules\/zod\//.test(input));

let inputsByHandler: Map<string, string[]>;
let tableActionsByHandler: Map<string, TableAction[]>;

beforeAll(async () => {
  const bundles = await bundleEntries([...new Set(functions.map(([, fn]) => fn.entry))]);
  inputsByHandler = new Map([...bundles].map(([entry, bundle]) => [entry, bundle.inputs]));
  tableActionsByHandler = new Map(
    [...bundles].map(([entry, bundle]) => [entry, tableActionsIn(bundle.code)]),
  );
});

const clientsIn = (inputs: string[]) =>
  new Set(inputs.map((input) => /node_modules\/@aws-sdk\/(client-[^/]+)\//.exec(input)?.[1]).filter(Boolean));

describe('function bundles', () => {
  it.each(functions)('%s carries only the SDK clients its access grants', (_name, fn) => {
    const inputs = inputsByHandler.get(fn.entry);
    expect(inputs, fn.entry).toBeDefined();
    const ungranted = [...clientsIn(inputs ?? [])].filter((client) => {
      // A queue's consumer talks to its own queue (message visibility), which its event source grants.
      if (client === 'client-sqs' && queueConsumers.has(fn.entry)) return false;
      const granted = clientGrants[client as string];
      return !granted || !fn.access.some(granted);
    });
    expect(ungranted).toEqual([]);
  });

  it.each(functions)('%s carries the callback checks only if providers call it back', (_name, fn) => {
    const inputs = inputsByHandler.get(fn.entry) ?? [];
    expect(inputs.includes(callbackSchema)).toBe(receivesProviderCallbacks(fn));
  });

  it.each(timed)('%s carries no zod', (_name, fn) => {
    const inputs = inputsByHandler.get(fn.entry);
    expect(inputs, fn.entry).toBeDefined();
    expect(zodInputs(inputs ?? [])).toEqual([]);
  });

  it('sees zod where it is (a pattern that matched nothing would prove nothing)', () => {
    const callbackRoute = functions.find(([, fn]) => receivesProviderCallbacks(fn));
    expect(callbackRoute).toBeDefined();
    expect(zodInputs(inputsByHandler.get(callbackRoute?.[1].entry ?? '') ?? [])).not.toEqual([]);
    // Among the timed functions are those that call providers out: the check covers them.
    expect(timed.filter(([, fn]) => fn.access.includes('secret:providers')).length).toBeGreaterThan(0);
  });

  it('sees the clients it looks for (a bundle with none would prove nothing)', () => {
    const seen = new Set([...inputsByHandler.values()].flatMap((inputs) => [...clientsIn(inputs)]));
    expect([...seen].sort()).toEqual(Object.keys(clientGrants).sort());
  });
});

// Each function is granted the DynamoDB actions its declaration lists (infra/service-function.ts);
// here the list is held to the code the function is bundled with. An action declared but not used
// is a grant nobody needs (a delete or batch write an injected request could use); an action used
// but not declared would be refused by IAM on AWS, while the local host, which has no IAM, lets it
// pass. Both fail here.

const declaredBy = (access: readonly string[]) =>
  access.filter((granted) => granted.startsWith('table:')).map((granted) => granted.slice('table:'.length));

describe('table actions', () => {
  it.each(functions)('%s declares exactly the table actions its code uses', (_name, fn) => {
    const inCode = tableActionsByHandler.get(fn.entry);
    expect(inCode, fn.entry).toBeDefined();
    expect(declaredBy(fn.access).sort()).toEqual([...(inCode ?? [])].sort());
  });

  it('no function writes in batches or scans; deletes only where a function removes items', () => {
    const declaring = (action: TableAction) =>
      functions.filter(([, fn]) => fn.access.includes(`table:${action}`)).map(([name]) => name);
    expect(declaring('BatchWriteItem')).toEqual([]);
    expect(declaring('Scan')).toEqual([]);
    const deleters = declaring('DeleteItem');
    // Fewer than half: reading a declaration's list is still worth it.
    expect(deleters.length).toBeGreaterThan(0);
    expect(deleters.length).toBeLessThan(functions.length / 2);
    for (const name of ['getPaymentRequest', 'listStores', 'recordDevicePresence', 'sendWebhooks']) {
      expect(deleters, name).not.toContain(name);
    }
  });

  it('reads the code it is given: a delete in a transaction and a delete command are both seen', async () => {
    // Two functions known to delete, one each way (a contact's removal is a transaction of an
    // update and a delete; signing out deletes the session item).
    expect(tableActionsByHandler.get('functions/contacts/delete-contact.ts')).toContain('DeleteItem');
    expect(tableActionsByHandler.get('functions/dashboard/sign-out.ts')).toContain('DeleteItem');
    // And one that reads, but for the hourly note of its key's last use (shared/http/authenticate.ts).
    expect(tableActionsByHandler.get('functions/stores/list-stores.ts')).toEqual([
      'GetItem',
      'Query',
      'UpdateItem',
    ]);
  });
});
