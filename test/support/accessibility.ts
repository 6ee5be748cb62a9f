import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The violations axe-core finds on the page as it is now (WCAG 2.1 A and AA rules, and axe's best
 * practices), for the impacts a payer or shop owner would be stopped by: serious and critical.
 * Injected from the npm package, so the check needs no network and no browser extension.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the pages' Content
  // Security Policy refuses any inline script but their own, by its hash.
  await page.evaluate(readFileSync(axeSource, 'utf8'));
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the injected script defines.
    const axe = (globalThis as any).axe;
    // biome-ignore lint/suspicious/noExplicitAny: the page's document, not typed outside the DOM library.
    const results = await axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    // biome-ignore lint/suspicious/noExplicitAny: axe's result shape, read field by field.
    return results.violations.map((violation: any) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      targets: violation.nodes.map((node: any) => String(node.target)),
    }));
  });
  return (violations as AxeViolation[]).filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
}
