// Shared set-up for hub tests: three prebuilt variants of the content to switch between, a PKI, a
// callback server and the sidecar as a real process.
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Writable } from "node:stream";
import { pino } from "pino";
import { rowToSubscription } from "../../sidecar/hub/hub-schema.ts";
import { contentFixture, runBuild } from "./build.ts";
import { tempDir } from "./paths.ts";

export const BASE = "http://localhost:4321";
export const TOPICS = { atom: `${BASE}/feed.xml`, json: `${BASE}/api/feed.json`, dataset: `${BASE}/reviews.json` };

/**
 * Builds the sample content plus 0, 1 and 2 extra reviews, each into its own folder, one after the other:
 * Astro stages a build outside the project in the project's .astro/ folder, so parallel builds collide.
 */
export async function buildVariants(): Promise<string[]> {
  const extra = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `reviews/2026/zz-variant-${i}.json`,
        {
          rating: 5,
          date: "2026-11-20",
          text: `Variant review ${i}, on time & tidy.`,
          author: "Var I.",
          verified: true,
        },
      ]),
    );
  const out: string[] = [];
  for (const n of [0, 1, 2]) {
    const content = await contentFixture(extra(n));
    const dist = join(await tempDir(`variant${n}`), "dist");
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    if (run.code !== 0) throw new Error(run.stderr);
    out.push(dist);
  }
  return out;
}

/**
 * The environment of a hub sidecar under test: the build, its own DATA_DIR, callbacks on loopback allowed, a short
 * timeout and limits out of the way; `overrides` set what a test is about.
 */
export function hubEnv(
  where: { dist: string; dataDir: string; caFile?: string },
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    DIST_DIR: where.dist,
    DATA_DIR: where.dataDir,
    BASE_URL: BASE,
    ...(where.caFile ? { NODE_EXTRA_CA_CERTS: where.caFile } : {}),
    HUB_CALLBACK_ALLOWLIST: "127.0.0.0/8,::1/128",
    HUB_TIMEOUT_MS: "2000",
    HUB_RATE_LIMIT_PER_CLIENT: "100000",
    HUB_RATE_LIMIT_PER_CALLBACK_HOST: "100000",
    HUB_VERIFY_QUEUE_MAX_PER_HOST: "1000",
    ...overrides,
  };
}

export async function freshDist(from: string): Promise<string> {
  const dist = join(await tempDir("served"), "dist");
  await cp(from, dist, { recursive: true });
  return dist;
}

export async function hubRequest(
  sidecarUrl: string,
  fields: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${sidecarUrl}/api/websub/hub`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text() };
}

/** The subscriptions in a sidecar's SQLite file, read synchronously (for polling in tests). */
export function subscriptions(dataDir: string) {
  const db = new DatabaseSync(join(dataDir, "hub.sqlite"), { readOnly: true });
  try {
    return (
      db.prepare("SELECT * FROM subscriptions ORDER BY topic, callback").all() as Record<
        string,
        string | number | null
      >[]
    ).map(rowToSubscription);
  } finally {
    db.close();
  }
}

/** What the hub has not finished yet (read from its SQLite file): verifications, deliveries and topic hashes. */
export function hubQueue(dataDir: string) {
  const db = new DatabaseSync(join(dataDir, "hub.sqlite"), { readOnly: true });
  try {
    const callbacks = (table: string) =>
      (db.prepare(`SELECT callback FROM ${table}`).all() as { callback: string }[]).map((r) => r.callback);
    return {
      verifications: callbacks("verifications"),
      deliveries: callbacks("deliveries"),
      topics: new Map(
        (db.prepare("SELECT topic, sha256 FROM topic_state").all() as { topic: string; sha256: string }[]).map((r) => [
          r.topic,
          r.sha256,
        ]),
      ),
    };
  } finally {
    db.close();
  }
}

/** A logger whose lines (parsed JSON) the test reads. */
export function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}
