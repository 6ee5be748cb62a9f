import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import nodeCrypto, { createHash } from 'node:crypto';
import nodeHttp from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import nodeTimersPromises from 'node:timers/promises';
import { type Clock, withGlobal } from '@sinonjs/fake-timers';

/**
 * What makes one seed one run: every source of chance and time the service's code and its SDKs
 * reach is replaced, for the length of a run, by the simulation's own.
 * - Time: `Date`, `setTimeout`, `setInterval` and `performance.now` are a simulated clock, which
 *   moves only when everything is waiting on it (`runOnClock`): a backoff, a queue's delay, a
 *   receiver's slowness take no real time, and real time never decides what happens.
 * - Chance: `Math.random`, `crypto.randomUUID`, `randomBytes` and `randomInt` (the named imports of
 *   `node:crypto` too) draw from streams seeded by the run's seed, one per purpose.
 * - Order: only real I/O runs outside the clock (DynamoDB Local, the merchant's receiver, KMS, the
 *   sandbox's callbacks by `fetch`). The clock waits until none is in flight before it fires its
 *   next timer, so two tasks never race in real time: they interleave at their calls' simulated
 *   latencies, in an order the seed decides.
 */

/** A seeded generator (mulberry32): the same seed and label give the same numbers, everywhere. */
export interface Random {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function randomStream(seed: number, label: string, onDraw?: () => void): Random {
  let state = createHash('sha256').update(`${seed}:${label}`).digest().readUInt32LE(0);
  const next = () => {
    onDraw?.();
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

/** Real I/O under way, less what the simulation holds on the clock (a receiver taking its time). */
export const io = {
  inFlight: 0,
  parked: 0,
  waiters: [] as (() => void)[],
  busy(): boolean {
    return this.inFlight - this.parked > 0;
  },
  done(): void {
    this.inFlight--;
    this.wake();
  },
  wake(): void {
    if (this.busy()) return;
    for (const waiter of this.waiters.splice(0)) waiter();
  },
};

/** How many numbers `Math.random` and the ids have drawn in this run (the call trace prints them). */
export const drawn = { random: 0, ids: 0 };

let tracking = false;
let httpWrapped = false;

/**
 * Counts the HTTP requests in flight while a run is on. Installed once for the process: clients
 * keep the `request` they first took (the SDK's handler takes it at its first call).
 */
function trackHttpRequests(): void {
  if (httpWrapped) return;
  const original = nodeHttp.request;
  nodeHttp.request = function tracked(this: unknown, ...args: unknown[]) {
    const request = (original as (...a: unknown[]) => nodeHttp.ClientRequest).apply(this, args);
    if (tracking) {
      io.inFlight++;
      request.once('close', () => io.done());
    }
    return request;
  } as typeof nodeHttp.request;
  syncBuiltinESMExports();
  httpWrapped = true;
}

// Installed as soon as the simulation is loaded: a client takes `request` at its first call.
trackHttpRequests();

/**
 * Origins the simulation answers itself during a run (a provider's API it plays: pawapay.ts): the
 * answer is computed in the process and takes simulated time, so it never races real I/O.
 */
export const simulatedOrigins = new Map<
  string,
  (url: URL, init: RequestInit | undefined) => Promise<Response>
>();

/**
 * `fetch` (undici) does not go through `node:http`: the sandbox provider's callbacks use it, and a
 * call the clock did not wait for would end in the order the machine finishes it. Counted from the
 * call to its answer (what its callers await; none of them reads a body in a run).
 */
function trackFetch(): void {
  const original = globalThis.fetch;
  globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
    if (!tracking) return original(...args);
    const url = new URL(args[0] instanceof Request ? args[0].url : String(args[0]));
    const simulated = simulatedOrigins.get(url.origin);
    if (simulated) return simulated(url, args[1]);
    io.inFlight++;
    try {
      return await original(...args);
    } finally {
      io.done();
    }
  }) as typeof fetch;
}

trackFetch();

/** Which task a call belongs to (an operation, a worker's invocation, a sweep's run). */
export const currentTask = new AsyncLocalStorage<{ name: string; killed: boolean }>();

export interface Determinism {
  clock: Clock;
  uninstall(): void;
}

/** A UUID v4 made of the stream's bytes. */
function uuidOf(random: Random): string {
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) bytes[i] = random.int(0, 255);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Replaces time and chance for a run starting at `epoch` (ms), until `uninstall`. `salt` keeps two
 * runs of one seed in one process apart (their ids would otherwise meet in module caches and in
 * DynamoDB's idempotency tokens); a process's first run has salt 0, so runs in two processes match.
 */
export function installDeterminism(seed: number, epoch: number, salt: number): Determinism {
  trackHttpRequests();
  drawn.random = 0;
  drawn.ids = 0;
  const ids = randomStream(seed, `ids:${salt}`, () => drawn.ids++);
  const chance = randomStream(seed, `Math.random:${salt}`, () => drawn.random++);
  const original = {
    random: Math.random,
    randomUUID: nodeCrypto.randomUUID,
    randomBytes: nodeCrypto.randomBytes,
    randomInt: nodeCrypto.randomInt,
    webRandomUUID: Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID'),
  };
  const bytes = (size: number) => {
    const buffer = Buffer.alloc(size);
    for (let i = 0; i < size; i++) buffer[i] = ids.int(0, 255);
    return buffer;
  };
  Math.random = chance.next;
  nodeCrypto.randomUUID = (() => uuidOf(ids)) as typeof nodeCrypto.randomUUID;
  nodeCrypto.randomBytes = ((size: number, callback?: (error: null, buffer: Buffer) => void) => {
    const buffer = bytes(size);
    if (callback) process.nextTick(callback, null, buffer);
    return buffer;
  }) as typeof nodeCrypto.randomBytes;
  nodeCrypto.randomInt = ((min: number, max?: number) =>
    max === undefined ? ids.int(0, min - 1) : ids.int(min, max - 1)) as typeof nodeCrypto.randomInt;
  syncBuiltinESMExports();
  Object.defineProperty(globalThis.crypto, 'randomUUID', {
    value: () => uuidOf(ids),
    configurable: true,
    writable: true,
  });

  const clock = withGlobal(globalThis).install({
    now: epoch,
    // Not `performance`: the library's fake of it slows every SDK call threefold; `now` is set below.
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    loopLimit: 10_000_000,
    shouldClearNativeTimers: true,
  });
  // A timer's callback runs in the task that set it, as a real timer's would.
  const fakeSetTimeout = globalThis.setTimeout;
  const fakeSetInterval = globalThis.setInterval;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    fakeSetTimeout(AsyncResource.bind(callback), ms, ...args)) as typeof setTimeout;
  globalThis.setInterval = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    fakeSetInterval(AsyncResource.bind(callback), ms, ...args)) as typeof setInterval;
  // A deadline (a webhook's answer, a provider's) on the clock too: a real one would abort an
  // attempt held on the clock whenever the machine is slow enough, which the seed did not decide.
  const abortTimeout = AbortSignal.timeout;
  AbortSignal.timeout = (ms: number) => {
    const controller = new AbortController();
    globalThis.setTimeout(
      () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')),
      ms,
    );
    return controller.signal;
  };
  // A provider call's backoff between attempts (provider-http.ts) waits on the clock too.
  const promisedTimeout = nodeTimersPromises.setTimeout;
  nodeTimersPromises.setTimeout = (<T>(ms?: number, value?: T) =>
    new Promise<T | undefined>((resolve) =>
      globalThis.setTimeout(() => resolve(value), ms),
    )) as typeof nodeTimersPromises.setTimeout;
  syncBuiltinESMExports();
  // What a receiver took, as the sender measures it: simulated milliseconds.
  const performanceNow = Object.getOwnPropertyDescriptor(globalThis.performance, 'now');
  Object.defineProperty(globalThis.performance, 'now', {
    value: () => clock.now - epoch,
    configurable: true,
    writable: true,
  });
  tracking = true;
  io.inFlight = 0;
  io.parked = 0;

  return {
    clock,
    uninstall() {
      tracking = false;
      AbortSignal.timeout = abortTimeout;
      nodeTimersPromises.setTimeout = promisedTimeout;
      clock.uninstall();
      if (performanceNow) Object.defineProperty(globalThis.performance, 'now', performanceNow);
      else delete (globalThis.performance as { now?: unknown }).now;
      Math.random = original.random;
      nodeCrypto.randomUUID = original.randomUUID;
      nodeCrypto.randomBytes = original.randomBytes;
      nodeCrypto.randomInt = original.randomInt;
      syncBuiltinESMExports();
      if (original.webRandomUUID)
        Object.defineProperty(globalThis.crypto, 'randomUUID', original.webRandomUUID);
      else delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    },
  };
}

const realImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));
const realMs = () => Number(process.hrtime.bigint() / 1_000_000n);

/**
 * Waits until nothing but the clock can move the run: no real I/O in flight, and the promise
 * callbacks it released drained (a few turns of the event loop with nothing new).
 */
export async function settle(): Promise<void> {
  const since = realMs();
  for (let quiet = 0; quiet < 3; ) {
    if (io.busy()) {
      quiet = 0;
      await new Promise<void>((resolve) => {
        io.waiters.push(resolve);
        io.wake();
      });
      if (realMs() - since > 120_000) throw new Error('the simulation waited two minutes on real I/O');
      continue;
    }
    await realImmediate();
    if (!io.busy()) quiet++;
  }
}

/**
 * Runs `main` on the clock: whenever nothing but the clock can move, the next timer fires (time
 * jumps to it). Answers what `main` answers; fails if nothing is left to run while it waits.
 */
export async function runOnClock<T>(clock: Clock, main: () => Promise<T>): Promise<T> {
  let outcome: { value: T } | { error: unknown } | undefined;
  main().then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );
  for (;;) {
    await settle();
    if (outcome) break;
    if (clock.countTimers() === 0)
      throw new Error('the simulation is stuck: nothing runs and no timer is set');
    clock.next();
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/** Sleeps `ms` of simulated time. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * JSON with every object's keys in order: the calls' digest, and an item that reads the same
 * whatever order DynamoDB gives its attributes.
 */
export function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
