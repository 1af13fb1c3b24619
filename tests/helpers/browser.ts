// Debian's Chromium through playwright-core, and the sample served on a loopback address of this test process's own,
// for the browser tests.
//
// A page's absolute links, feeds and canonical URLs carry the origin the site was built for, so a site must be
// served at that origin. The runner's shared sample build (and the page bundle each test process keeps) is for
// SITE_ORIGIN, http://localhost:4321; a build for any other origin runs Astro again (tens of CPU-seconds per test
// file). So each test process serves its site on port 4321 of a loopback address no other process uses
// (127.a.b.c, a ≥ 1: the whole 127/8 answers on Linux), and both of its clients resolve `localhost` to that address:
// Chromium through --host-resolver-rules, this process (its fetch, node:http, Playwright's own requests such as
// route.fetch) through node:dns's lookup, replaced below. The requests are real HTTP on loopback with the Host and
// Origin a visitor's browser sends; only the name lookup is this process's own, as /etc/hosts would be. A
// `localhost` request in a process that serves no site fails rather than reaching whatever listens on
// 127.0.0.1:4321 (a developer's `npm start`).
import dns from "node:dns";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample, SAMPLE_BASE_URL } from "./build.ts";
import { startTestSidecar } from "./sidecar.ts";

/** The origin the browser tests' sites are built for and shown at: the sample's own. */
export const SITE_ORIGIN = SAMPLE_BASE_URL;
const SITE = new URL(SITE_ORIGIN);

/** The address this process reaches for `localhost` (routeLocalhost). */
let localhostAddress: string | undefined;

type LookupAll = { all: true } & Record<string, unknown>;
const systemLookup = dns.lookup;
const systemLookupPromise = dns.promises.lookup;
const unrouted = (hostname: string) =>
  Object.assign(new Error(`${hostname} is not routed in this test process (tests/helpers/browser.ts)`), {
    code: "ENOTFOUND",
  });

dns.lookup = ((hostname: string, options: unknown, callback?: (...args: unknown[]) => void) => {
  const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
  if (hostname !== SITE.hostname) return (systemLookup as (...args: unknown[]) => void)(hostname, options, callback);
  if (!localhostAddress) return process.nextTick(done, unrouted(hostname));
  if ((options as LookupAll | undefined)?.all)
    return process.nextTick(done, null, [{ address: localhostAddress, family: 4 }]);
  process.nextTick(done, null, localhostAddress, 4);
}) as typeof dns.lookup;

dns.promises.lookup = (async (hostname: string, options?: unknown) => {
  if (hostname !== SITE.hostname) return systemLookupPromise(hostname, options as never);
  if (!localhostAddress) throw unrouted(hostname);
  const answer = { address: localhostAddress, family: 4 };
  return (options as LookupAll | undefined)?.all ? [answer] : answer;
}) as typeof dns.promises.lookup;

/** Makes this process's requests to SITE_ORIGIN reach `address` (a site served by serveSite). */
export function routeLocalhost(address: string): void {
  localhostAddress = address;
}

/** A loopback address on which SITE_ORIGIN's port was free a moment ago, drawn at random from 127.1.0.0 upwards. */
async function freeLoopbackAddress(): Promise<string> {
  for (;;) {
    const octet = (min: number) => min + Math.floor(Math.random() * (255 - min));
    const address = `127.${octet(1)}.${octet(0)}.${octet(1)}`;
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(false));
      s.listen(Number(SITE.port), address, () => s.close(() => resolve(true)));
    });
    if (free) return address;
  }
}

/**
 * `dist`, built for SITE_ORIGIN, served by the real sidecar on port 4321 of a loopback address of its own (the
 * address to give launchChromium and routeLocalhost).
 */
export async function serveSite(
  dist: string,
  env: Record<string, string> = {},
): Promise<{ sidecar: RunningSidecar; address: string }> {
  const address = await freeLoopbackAddress();
  const sidecar = await startTestSidecar(dist, { HOST: address, PORT: SITE.port, BASE_URL: SITE_ORIGIN, ...env });
  return { sidecar, address };
}

/** Chromium; with `localhost`, it reaches that address for SITE_ORIGIN's host name (a site served by serveSite). */
export function launchChromium(localhost?: string): Promise<Browser> {
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
      ...(localhost ? [`--host-resolver-rules=MAP ${SITE.hostname} ${localhost}`] : []),
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

/**
 * The sample (a copy of the runner's build, tests/helpers/build.ts) served at SITE_ORIGIN, this process's fetch and
 * a Chromium routed to it. The pages only read it, so one build serves every browser test file, a copy each.
 */
export async function startBrowserFixture(): Promise<BrowserFixture> {
  const dist = await buildSample(SITE_ORIGIN);
  const { sidecar, address } = await serveSite(dist);
  routeLocalhost(address);
  const dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as ReviewsDataset;
  const browser = await launchChromium(address).catch(async (e) => {
    await sidecar.close();
    throw e;
  });
  return {
    origin: SITE_ORIGIN,
    sidecar,
    dataset,
    browser,
    async close() {
      await browser.close();
      await sidecar.close();
    },
  };
}
