// Launching Debian's Chromium through playwright-core for the events page suites (no browser
// download). Without /usr/bin/chromium (or CHROMIUM_PATH) a suite FAILS with a message
// saying how to install it: a browser test never silently skips.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** `args`: more Chromium switches, e.g. `--host-resolver-rules` to give loopback servers host names of their own. */
export async function launchChromium(suiteName: string, args: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The ${suiteName} browser test needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set CHROMIUM_PATH). It does not skip.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
    // No --user-data-dir: playwright-core's launch() gives every browser a fresh, empty profile directory of its own.
  });
}
