import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LocalConfig, readLocalConfig } from '#infra/local/local-config.ts';
import { projectRoot } from '#infra/paths.ts';
import type { AdminAnswer, AdminRequest } from './local-host-admin.ts';

export interface LocalHost {
  config: LocalConfig;
  dataDir: string;
  output: () => string;
  process: ChildProcess;
  /** Sends SIGINT, as Ctrl-C does, and resolves with the exit code. */
  stop(): Promise<number | null>;
}

const execFileAsync = promisify(execFile);

export const newDataDir = () => mkdtempSync(join(tmpdir(), 'pps-e2e-'));

/** Starts `npm start`'s program on a free port over `dataDir`, and waits until it has written local.json. */
export async function startLocalHost(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<LocalHost> {
  const configFile = join(dataDir, 'local.json');
  const before = existsSync(configFile) ? readLocalConfig(dataDir)?.baseUrl : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    return exited;
  };
  // Under the e2e project's hook timeout (120 s): a start takes seconds, but a minute and more on a
  // machine whose two cores are busy with other test files.
  const deadline = Date.now() + 110_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`local host exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`local host not ready after 110 s:\n${output}`);
      if (output.includes('Ctrl-C')) {
        const config = readLocalConfig(dataDir);
        if (config && config.baseUrl !== before) {
          return { config, dataDir, output: () => output, process: child, stop };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    // A host that never became ready must not outlive the test run (it holds a Java process).
    await stop();
    // Stopped before it handles Ctrl-C (it was still starting), it ends at once and leaves its
    // DynamoDB Local running, on this test's data: an orphan that loads the machine until killed.
    await killDynamoDbLocalOf(dataDir);
    throw error;
  }
}

async function killDynamoDbLocalOf(dataDir: string): Promise<void> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid=,args=']);
  for (const line of stdout.split('\n')) {
    const [pid, ...args] = line.trim().split(/\s+/);
    const command = args.join(' ');
    if (command.includes('DynamoDBLocal') && command.includes(`-dbPath ${join(dataDir, 'dynamodb')} `)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

const adminArgs = (args: string[]) => [
  // Its stderr is the command's JSON error: node's note on node:sqlite (the local queues' store) is not.
  '--disable-warning=ExperimentalWarning',
  '--import',
  'tsx',
  'infra/admin.ts',
  ...args,
  '--json',
];

/**
 * Runs `npm run admin -- <args> --json` over `dataDir` and returns the parsed JSON answer; rejects
 * as `execFile` does (`code`, `stdout`, `stderr`) when the command fails. While the host of
 * `dataDir` runs, the command runs in an admin process kept beside it (./local-host-admin.ts): a
 * process per command spent seconds of CPU loading the same modules. With `--stage`, or with the
 * host stopped, it runs as a process of its own, as before.
 */
export async function admin<T = Record<string, string>>(dataDir: string, ...args: string[]): Promise<T> {
  const kept = args.includes('--stage') ? undefined : await keptAdminFor(dataDir);
  const { stdout } = kept
    ? await kept.run([...args, '--json'])
    : await execFileAsync(process.execPath, adminArgs(args), {
        cwd: projectRoot,
        env: { ...process.env, DATA_DIR: dataDir },
      });
  return JSON.parse(stdout) as T;
}

interface KeptAdmin {
  /** The host's DynamoDB Local it was started for: a restarted host has another, and its own admin. */
  dynamodb: string;
  run(args: string[]): Promise<{ stdout: string; stderr: string }>;
  close(): void;
}

const keptAdmins = new Map<string, KeptAdmin>();

/** The admin process kept for the host running over `dataDir`; undefined when none answers there. */
async function keptAdminFor(dataDir: string): Promise<KeptAdmin | undefined> {
  const dynamodb = readLocalConfig(dataDir)?.endpoints.dynamodb;
  const kept = keptAdmins.get(dataDir);
  if (kept && kept.dynamodb !== dynamodb) {
    kept.close();
    keptAdmins.delete(dataDir);
  }
  if (!dynamodb || !(await answers(dynamodb))) return undefined;
  let current = keptAdmins.get(dataDir);
  if (!current) {
    current = startKeptAdmin(dataDir, dynamodb);
    keptAdmins.set(dataDir, current);
  }
  return current;
}

/** Whether the host's DynamoDB Local answers at all (a stopped host refuses at once). */
async function answers(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { signal: AbortSignal.timeout(10_000) });
    return true;
  } catch {
    return false;
  }
}

function startKeptAdmin(dataDir: string, dynamodb: string): KeptAdmin {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'test/support/local-host-admin.ts'],
    {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  const stderr = child.stderr as Socket | null;
  let output = '';
  stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const pending = new Map<number, (answer: AdminAnswer | Error) => void>();
  let next = 0;
  // Held only while a command is under way: an idle admin keeps no test process alive, and ends
  // with it (on the IPC channel's disconnect).
  const hold = (held: boolean) => {
    if (held) {
      child.ref();
      child.channel?.ref();
      stderr?.ref();
    } else {
      child.unref();
      child.channel?.unref();
      stderr?.unref();
    }
  };
  hold(false);
  child.on('message', (answer: AdminAnswer) => {
    pending.get(answer.id)?.(answer);
    pending.delete(answer.id);
    if (pending.size === 0) hold(false);
  });
  child.on('exit', (code, signal) => {
    if (keptAdmins.get(dataDir)?.dynamodb === dynamodb) keptAdmins.delete(dataDir);
    for (const settle of pending.values())
      settle(new Error(`admin process exited (${code ?? signal}):\n${output}`));
    pending.clear();
  });
  return {
    dynamodb,
    run: (args) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        pending.set(id, (answer) => {
          if (answer instanceof Error) return reject(answer);
          if (answer.code === 0) return resolve(answer);
          // As execFile rejects: the command line, then what the command wrote on stderr (or, for a
          // report that failed its check, such as an audit's breaks, on stdout).
          reject(
            Object.assign(
              new Error(
                `Command failed: npm run admin -- ${args.join(' ')}\n${answer.stderr || answer.stdout}`,
              ),
              {
                code: answer.code,
                stdout: answer.stdout,
                stderr: answer.stderr,
              },
            ),
          );
        });
        hold(true);
        child.send({ id, args } satisfies AdminRequest);
      }),
    close: () => {
      child.kill();
    },
  };
}
