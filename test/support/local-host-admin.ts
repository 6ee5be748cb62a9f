/**
 * The admin command (infra/admin.ts), kept running beside one running local host for the tests of
 * one file: `admin()` of ./local-host.ts sends it a command's arguments over IPC and gets back what
 * `npm run admin -- <args>` would have printed and its exit code. Each command evaluates
 * infra/admin.ts afresh, with its arguments in `process.argv`, its output captured and
 * `process.exit` noted instead of obeyed; the modules it imports (the AWS SDK, the shared code) are
 * loaded once. A fresh process per command cost about 2.5 s of CPU, most of an e2e file's time on a
 * loaded machine. The command line itself is still run as a process of its own: with `--stage`,
 * against a stopped host (./local-host.ts decides), and by test/e2e/smoke.test.ts.
 *
 * Commands run one at a time (the output captured is the process's), each with the environment it
 * started with, so one that points the process at a stage leaves nothing behind for the next.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '#infra/paths.ts';

export interface AdminRequest {
  id: number;
  args: string[];
}

export interface AdminAnswer {
  id: number;
  code: number;
  stdout: string;
  stderr: string;
}

const entry = pathToFileURL(join(projectRoot, 'infra/admin.ts')).href;
let runs = 0;
const exitNow = process.exit.bind(process);

async function run(args: string[]): Promise<Omit<AdminAnswer, 'id'>> {
  const env = { ...process.env };
  const { argv, exit } = process;
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  let stdout = '';
  let stderr = '';
  let code: number | undefined;
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = rest.find((item) => typeof item === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    };
  process.stdout.write = capture((text) => {
    stdout += text;
  }) as typeof process.stdout.write;
  process.stderr.write = capture((text) => {
    stderr += text;
  }) as typeof process.stderr.write;
  process.exit = ((exitCode?: number | string | null) => {
    code ??= Number(exitCode ?? process.exitCode ?? 0);
  }) as typeof process.exit;
  process.exitCode = undefined;
  process.argv = [argv[0] as string, join(projectRoot, 'infra/admin.ts'), ...args];
  try {
    // A new URL each time: the module's top level (argument parsing, the command) runs again.
    await import(`${entry}?run=${++runs}`);
  } catch (error) {
    stderr += `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
    code ??= 1;
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.exit = exit;
    process.argv = argv;
    process.exitCode = undefined;
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
    Object.assign(process.env, env);
  }
  return { code: code ?? 0, stdout, stderr };
}

let queue = Promise.resolve();
process.on('message', (request: AdminRequest) => {
  queue = queue.then(async () => {
    process.send?.({ id: request.id, ...(await run(request.args)) } satisfies AdminAnswer);
  });
});
// The test file's process is gone (or let this go): so is this one.
process.on('disconnect', () => exitNow(0));
