import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type LocalConfig, readLocalConfig } from '#infra/local/local-config.ts';
import { projectRoot } from '#infra/paths.ts';

export interface LocalHost {
  config: LocalConfig;
  dataDir: string;
  output: () => string;
  process: ChildProcess;
  /** Sends SIGINT, as Ctrl-C does, and resolves with the exit code. */
  stop(): Promise<number | null>;
}

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
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`local host exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`local host not ready after 60 s:\n${output}`);
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
    throw error;
  }
}

const execFileAsync = promisify(execFile);

/** Runs `npm run admin -- <args> --json` over `dataDir` and returns the parsed JSON answer. */
export async function admin<T = Record<string, string>>(dataDir: string, ...args: string[]): Promise<T> {
  const { stdout } = await execFileAsync(
    process.execPath,
    // Its stderr is the command's JSON error: node's note on node:sqlite (the local queues' store) is not.
    ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'infra/admin.ts', ...args, '--json'],
    {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: dataDir },
    },
  );
  return JSON.parse(stdout) as T;
}
