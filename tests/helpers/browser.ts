// Debian's Chromium through playwright-core, and the sample built and served on a free loopback port, for the
// browser tests.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample } from "./build.ts";
import { freePort } from "./free-port.ts";
import { startTestSidecar } from "./sidecar.ts";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
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

export interface BrowserFixture {
  origin: string;
  sidecar: RunningSidecar;
  dataset: ReviewsDataset;
  browser: Browser;
  close(): Promise<void>;
}

/** The sample built for a fixed loopback origin (BASE_URL must be known at build time), served, and Chromium. */
export async function startBrowserFixture(): Promise<BrowserFixture> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dist = await buildSample(origin);
  const sidecar = await startTestSidecar(dist, { PORT: String(port), BASE_URL: origin });
  const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
  const browser = await launchChromium();
  return {
    origin,
    sidecar,
    dataset,
    browser,
    async close() {
      await browser.close();
      await sidecar.close();
    },
  };
}
