import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundling.ts';
import { projectRoot } from '#infra/paths.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { functionEntries as functions } from '#shared/catalogue/all-functions.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';

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
const receivesProviderCallbacks = (fn: (typeof functions)[number][1]) =>
  'path' in fn && fn.path.startsWith('/provider_callbacks/');

// Started by a timer or by Scheduler with an id, these validate no request: the only way zod would
// reach them is through a module they call, as it once did through the provider adapters.
const timed = [...scheduleEntries, ...scheduleTargetEntries];

const zodInputs = (inputs: string[]) => inputs.filter((input) => /node_modules\/zod\//.test(input));

let inputsByHandler: Map<string, string[]>;

beforeAll(async () => {
  // One build of every entry (esbuild shares the parsing), unminified: only the inputs are read.
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const handlers = [...new Set(functions.map(([, fn]) => fn.entry))];
  const { metafile } = await build({
    ...options,
    entryPoints: handlers.map((handler) => ({
      in: path.join(projectRoot, handler),
      out: handler.replace(/\.ts$/, ''),
    })),
    outdir: path.join(projectRoot, '.bench', 'bundle-inputs'),
    write: false,
    metafile: true,
    minify: false,
    sourcemap: false,
  });
  inputsByHandler = new Map(
    Object.values(metafile.outputs as Metafile['outputs'])
      .filter((output) => output.entryPoint)
      .map((output) => [output.entryPoint as string, Object.keys(output.inputs)]),
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
