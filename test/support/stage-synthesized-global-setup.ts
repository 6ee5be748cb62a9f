/**
 * The infra project's global setup: starts one writer process per stage (stage-synthesized-writer.ts)
 * and returns at once, so the two stages are synthesized side by side while the test files that
 * need neither run; a file that reads a stage awaits its file (stage-synthesized.ts). A writer that
 * fails leaves `<stage>.error` with its output, which the waiting files throw. On a rerun (watch
 * mode) the stages are synthesized again, from the code as it is then.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  synthesizedStageError,
  synthesizedStageFile,
  synthesizedStageNames,
} from '#test/support/stage-synthesized.ts';

const writer = 'test/support/stage-synthesized-writer.ts';

export default async function setup(project: TestProject) {
  const root = project.config.root;
  let dirs: string[] = [];
  let writers: ChildProcess[] = [];

  const stop = async () => {
    for (const child of writers) if (child.exitCode === null && child.signalCode === null) child.kill();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    writers = [];
    dirs = [];
  };

  const start = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'synthesized-stages-'));
    dirs.push(dir);
    writers = synthesizedStageNames.map((stage) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', writer, stage, synthesizedStageFile(dir, stage)],
        { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const failed = (why: string) =>
        void writeFile(
          synthesizedStageError(dir, stage),
          `Synthesizing stage ${stage} for the infra tests failed (${writer} ${why}):\n${output}`,
        );
      child.on('error', (error) => failed(`did not start: ${error.message}`));
      child.on('exit', (code, signal) => {
        if (code !== 0 && signal !== 'SIGTERM') failed(`exited with ${code ?? signal}`);
      });
      return child;
    });
    project.provide('synthesizedStagesDir', dir);
  };

  await start();
  project.onTestsRerun(async () => {
    await stop();
    await start();
  });
  return stop;
}
