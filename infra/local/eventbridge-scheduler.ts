import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ScheduleTargetName, scheduleTargetEntries } from '#shared/catalogue/schedules.ts';
import { lambdaContext } from './lambda-context.ts';

/**
 * Plays EventBridge Scheduler for one-time `at()` schedules, on the API the SDK speaks (restJson1:
 * `POST/GET/DELETE /schedules/{Name}`), so `@aws-sdk/client-scheduler` reaches it unchanged through
 * AWS_ENDPOINT_URL_SCHEDULER. Each schedule is a JSON file under its group's folder, written whole
 * (a temporary file renamed over it); a due schedule invokes its target's handler in-process,
 * with the schedule's input, and is deleted after it ran when it asks for that
 * (`ActionAfterCompletion: DELETE`). Schedules are read back at start, so those that fell due
 * while the host was stopped fire at once. A failed invocation is retried with a growing wait, up
 * to the schedule's retry policy, then dropped, as Scheduler does.
 */
export interface LocalScheduler {
  endpoint: string;
  /** Schedules are taken from the start; they fire once the host has set up what targets need. */
  startFiring(): void;
  stop(): Promise<void>;
}

interface StoredSchedule {
  Name: string;
  GroupName: string;
  ScheduleExpression: string;
  ScheduleExpressionTimezone?: string;
  ActionAfterCompletion?: string;
  FlexibleTimeWindow?: unknown;
  State?: string;
  Target: {
    Arn: string;
    RoleArn?: string;
    Input?: string;
    RetryPolicy?: { MaximumRetryAttempts?: number };
  };
  CreationDate: number;
  /** Failed invocations so far, and when the next may run (ms since the epoch). */
  attempts?: number;
  retryAt?: number;
  /** A one-time schedule that ran and is kept (no DELETE after completion). */
  completed?: boolean;
}

type Handler = (event: unknown, context: unknown) => unknown;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const namePattern = /^[0-9a-zA-Z-_.]{1,64}$/;
const atPattern = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

/** When an `at()` schedule is due, in ms since the epoch (UTC, the only time zone it takes). */
function dueAt(schedule: Pick<StoredSchedule, 'ScheduleExpression' | 'ScheduleExpressionTimezone'>): number {
  const match = atPattern.exec(schedule.ScheduleExpression);
  if (!match)
    throw new ApiError(
      400,
      'ValidationException',
      'Only one-time at(yyyy-mm-ddThh:mm:ss) schedules are played locally',
    );
  if ((schedule.ScheduleExpressionTimezone ?? 'UTC') !== 'UTC') {
    throw new ApiError(400, 'ValidationException', 'Only the UTC time zone is played locally');
  }
  return Date.parse(`${match[1]}Z`);
}

export async function startLocalScheduler(options: {
  dataDir: string;
  projectRoot: string;
  tickMs?: number;
}): Promise<LocalScheduler> {
  const { dataDir, projectRoot } = options;
  const schedules = new Map<string, StoredSchedule>();
  const keyOf = (group: string, name: string) => `${group}/${name}`;
  const fileOf = (group: string, name: string) => join(dataDir, group, `${name}.json`);

  for (const group of safeReaddir(dataDir)) {
    for (const file of safeReaddir(join(dataDir, group))) {
      if (!file.endsWith('.json')) continue;
      const schedule = JSON.parse(readFileSync(join(dataDir, group, file), 'utf8')) as StoredSchedule;
      schedules.set(keyOf(schedule.GroupName, schedule.Name), schedule);
    }
  }

  const save = (schedule: StoredSchedule) => {
    const file = fileOf(schedule.GroupName, schedule.Name);
    mkdirSync(join(dataDir, schedule.GroupName), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(schedule));
    renameSync(`${file}.tmp`, file);
  };
  const remove = (schedule: StoredSchedule) => {
    schedules.delete(keyOf(schedule.GroupName, schedule.Name));
    rmSync(fileOf(schedule.GroupName, schedule.Name), { force: true });
  };

  const handlers = new Map<ScheduleTargetName, Promise<Handler>>();
  /** The target function of an ARN: the stack names it `<stack>-<target>`, the local host `<target>`. */
  function handlerFor(arn: string): Promise<Handler> {
    const functionName = arn.split(':').pop() ?? '';
    const entry = scheduleTargetEntries.find(
      ([name]) => functionName === name || functionName.endsWith(`-${name}`),
    );
    if (!entry) return Promise.reject(new Error(`no local function for target ${arn}`));
    const [name, target] = entry;
    let handler = handlers.get(name);
    if (!handler) {
      handler = import(pathToFileURL(join(projectRoot, target.entry)).href).then(
        (module: { handler: Handler }) => module.handler,
      );
      handlers.set(name, handler);
    }
    return handler;
  }

  const running = new Map<string, Promise<void>>();
  async function invoke(key: string, schedule: StoredSchedule): Promise<void> {
    try {
      const handler = await handlerFor(schedule.Target.Arn);
      const functionName = schedule.Target.Arn.split(':').pop() ?? 'target';
      await handler(JSON.parse(schedule.Target.Input ?? '{}'), lambdaContext(functionName, 60_000));
      if (schedule.ActionAfterCompletion === 'DELETE') remove(schedule);
      else save({ ...schedule, completed: true, State: 'DISABLED' });
    } catch (error) {
      const attempts = (schedule.attempts ?? 0) + 1;
      const allowed = schedule.Target.RetryPolicy?.MaximumRetryAttempts ?? 185;
      console.error(`[scheduler] ${key} failed (attempt ${attempts}):`, error);
      if (attempts > allowed) {
        console.error(`[scheduler] ${key} dropped after ${attempts} attempts`);
        remove(schedule);
        return;
      }
      const retried = { ...schedule, attempts, retryAt: Date.now() + Math.min(60_000, 1000 * 2 ** attempts) };
      schedules.set(key, retried);
      save(retried);
    }
  }

  const tick = () => {
    const now = Date.now();
    for (const [key, schedule] of schedules) {
      if (schedule.completed || running.has(key)) continue;
      if (dueAt(schedule) > now || (schedule.retryAt ?? 0) > now) continue;
      const run = invoke(key, schedule).finally(() => running.delete(key));
      running.set(key, run);
    }
  };
  let timer: NodeJS.Timeout | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
    if (!match) throw new ApiError(404, 'ResourceNotFoundException', `No operation at ${url.pathname}`);
    const name = decodeURIComponent(match[1] as string);
    if (!namePattern.test(name))
      throw new ApiError(400, 'ValidationException', `Invalid schedule name ${name}`);
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Omit<
        StoredSchedule,
        'Name'
      >;
      const group = input.GroupName ?? 'default';
      if (schedules.has(keyOf(group, name))) {
        throw new ApiError(409, 'ConflictException', `Schedule ${name} already exists in group ${group}`);
      }
      if (!input.Target?.Arn) throw new ApiError(400, 'ValidationException', 'Target.Arn is required');
      const schedule: StoredSchedule = {
        ...input,
        Name: name,
        GroupName: group,
        State: input.State ?? 'ENABLED',
        CreationDate: Date.now() / 1000,
      };
      dueAt(schedule);
      schedules.set(keyOf(group, name), schedule);
      save(schedule);
      return answer(response, 200, { ScheduleArn: arnOf(group, name) });
    }
    const group = url.searchParams.get('groupName') ?? 'default';
    const schedule = schedules.get(keyOf(group, name));
    if (!schedule) throw new ApiError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
    if (request.method === 'GET') {
      const { attempts: _attempts, retryAt: _retryAt, completed: _completed, ...shown } = schedule;
      return answer(response, 200, { ...shown, Arn: arnOf(group, name) });
    }
    if (request.method === 'DELETE') {
      remove(schedule);
      return answer(response, 200, {});
    }
    throw new ApiError(405, 'ValidationException', `Method ${request.method} is not allowed`);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const apiError =
        error instanceof ApiError ? error : new ApiError(500, 'InternalServerException', String(error));
      response.setHeader('x-amzn-errortype', apiError.type);
      answer(response, apiError.status, { Message: apiError.message });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    startFiring: () => {
      timer ??= setInterval(tick, options.tickMs ?? 500);
      tick();
    },
    stop: async () => {
      clearInterval(timer);
      await Promise.all(running.values());
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const arnOf = (group: string, name: string) =>
  `arn:aws:scheduler:local:000000000000:schedule/${group}/${name}`;

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
