import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { languages } from '#shared/domain/languages.ts';
import { launchChromium, openScreen, reviewScreens, screenshotDir } from '#test/support/browser.ts';
import { newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { preparePageStates } from '#test/support/page-states.ts';

/**
 * `npm run screenshots [-- <name filter>]`: every hosted page in every state, on a 360 × 640 phone
 * and a 1280 × 800 laptop, in French and English, as PNGs under `.bench/screenshots/pages/`
 * (`<state>-<fr|en>-<phone|desktop>.png`, the first screen as the person sees it, and `-full`
 * with the whole page). It starts its own local host over a fresh data folder, as the browser
 * tests' global setup does, so it needs nothing running.
 */
const filter = process.argv[2];
const outDir = join(screenshotDir, 'pages');
mkdirSync(outDir, { recursive: true });

const started = Date.now();
const host = await startLocalHost(newDataDir(), testHostEnv);
const browser = await launchChromium();
let written = 0;
const failures: string[] = [];
try {
  const states = (await preparePageStates(host.config, host.dataDir)).filter(
    (state) => !filter || state.name.includes(filter),
  );
  for (const language of languages) {
    for (const [screen, viewport] of Object.entries(reviewScreens)) {
      const opened = await openScreen(browser, { viewport, locale: language === 'fr' ? 'fr-CI' : 'en-GB' });
      try {
        for (const state of states) {
          try {
            await state.visit(opened.page);
          } catch (error) {
            // One state that cannot be reached does not hide the others: said, and the run fails.
            failures.push(
              `${state.name} (${language}, ${screen}): ${(error as Error).message.split('\n')[0]}`,
            );
            continue;
          }
          const base = join(outDir, `${state.name}-${language}-${screen}`);
          await opened.page.screenshot({ path: `${base}.png` });
          await opened.page.screenshot({ path: `${base}-full.png`, fullPage: true });
          written += 2;
        }
      } finally {
        await opened.close();
      }
    }
  }
} finally {
  await browser.close();
  await host.stop();
}
for (const failure of failures) console.error(`not shown: ${failure}`);
if (failures.length > 0) process.exitCode = 1;
console.log(`${written} screenshots in ${outDir} (${Math.round((Date.now() - started) / 1000)} s)`);
