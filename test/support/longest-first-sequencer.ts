import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Every project's files in one queue, the longest first. Vitest's own order runs the projects one
 * after another (by name) and, on a fresh clone with no timings cached, the largest files of each
 * first: the simulation, a small file that takes four minutes, started last of all and ran alone
 * at the end. Its timings, once cached, come first; on a fresh clone (CI), the ones measured here.
 */
const measuredSeconds: Record<string, number> = {
  // `npm test`'s per-file report on the idle 2-core machine, 2026-11-28: the files over 40 s
  // (provider-secrets, 80 s then, left the list when it stopped synthesizing stages of its own).
  'test/browser/accessibility.test.ts': 160,
  'test/e2e/local-host-lifecycle.test.ts': 140,
  'test/e2e/tenancy-matrix.test.ts': 110,
  'test/integration/simulation.test.ts': 100,
  'test/e2e/smoke.test.ts': 90,
  'test/e2e/escrow-expiry-restart.test.ts': 85,
  'test/e2e/transactions.test.ts': 70,
  'test/infra/cdk-nag.test.ts': 65,
  'test/browser/hosted-pages.test.ts': 60,
  'test/infra/function-bundles.test.ts': 60,
  'test/infra/constructs/stage.test.ts': 55,
  'test/browser/link-page.test.ts': 50,
  'test/e2e/payment-requests.test.ts': 45,
  'test/e2e/webhooks.test.ts': 45,
  'test/e2e/demo-receiver.test.ts': 40,
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(
      files.map((spec) => {
        const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        const path = relative(spec.project.config.root, spec.moduleId);
        const measured = measuredSeconds[path];
        // Unmeasured and uncached: after the measured ones, the larger file first.
        const guess = measured !== undefined ? measured * 1000 : statSync(spec.moduleId).size / 1000;
        return [spec, cached ?? guess] as const;
      }),
    );
    return [...files].sort((a, b) => (expected.get(b) ?? 0) - (expected.get(a) ?? 0));
  }
}
