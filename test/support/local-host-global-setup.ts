import type { TestProject } from 'vitest/node';
import type { LocalConfig } from '#infra/local/local-config.ts';
import { newDataDir, startLocalHost } from './local-host.ts';

/** One local host for the end-to-end run, on a free port over a fresh data folder. */
export default async function setup(project: TestProject) {
  const dataDir = newDataDir();
  const host = await startLocalHost(dataDir);
  project.provide('localHost', { config: host.config, dataDir, output: host.output() });
  return async () => {
    await host.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    localHost: { config: LocalConfig; dataDir: string; output: string };
  }
}
