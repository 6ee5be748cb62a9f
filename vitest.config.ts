import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/longest-first-sequencer.ts';

/**
 * Tests are split by what they need: nothing (unit), DynamoDB Local (integration), the CDK
 * synthesizer (infra), the local host over HTTP (e2e), the local host and a headless Chromium
 * (browser). DynamoDB Local and the local host are started by a global setup, once per project run.
 */
export default defineConfig({
  test: {
    // Vitest runs one file at a time on a 2-core machine (its default: the cores less one), and
    // most end-to-end and browser time is spent waiting on the local host, a timer or Chromium:
    // three files at once keep both cores busy and bring the whole run back well under CI's 30
    // minutes. Tests make their own businesses and phones, so files do not see each other.
    maxWorkers: 3,
    // One queue for every project, the longest files first (the packing decides the wall time).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/dynamodb-global-setup.ts'],
          setupFiles: ['test/support/dynamodb-test-setup.ts'],
          // A timeout here catches a hang, not slowness (speed is the benches'): beside other work
          // on both cores DynamoDB Local is several times slower, and seeding 250 items or a
          // property test's hundred runs took over 30 s.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // Files read templates and mock nothing: aws-cdk-lib loaded once per worker, not per file.
          isolate: false,
          // The dev and prod stages, synthesized once per run for every file that reads them.
          globalSetup: ['test/support/stage-synthesized-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Files speak HTTP to the host and mock nothing: their modules loaded once per worker.
          isolate: false,
          globalSetup: ['test/support/local-host-global-setup.ts'],
          setupFiles: ['test/support/answer-validation-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          isolate: false,
          globalSetup: ['test/support/browser-global-setup.ts', 'test/support/local-host-global-setup.ts'],
          setupFiles: ['test/support/answer-validation-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
