/**
 * Headless Chromium for the viewer's browser tests: Debian's package driven by playwright-core (no
 * browser download). Where it is absent the tests skip, saying so once.
 */
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

export const CHROMIUM = process.env.BAZAAR_CHROMIUM ?? "/usr/bin/chromium";

export function hasChromium(): boolean {
  const ok = existsSync(CHROMIUM);
  if (!ok)
    console.warn(
      `skipping the browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`,
    );
  return ok;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
