// Random form bodies against a real sidecar process (callbacks on loopback only): never a 5xx, never
// a crash, always a plain-text answer; an unknown or __proto__-like field never changes the answer.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { CallbackServer } from "../helpers/callback-server.ts";
import { BASE, buildVariants, freshDist, hubEnv, TOPICS } from "../helpers/hub-fixture.ts";
import { tempDir } from "../helpers/paths.ts";
import { startSidecarProcess } from "../helpers/sidecar-process.ts";
import { makeTestPki } from "../helpers/tls.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500); // two requests each
const ALLOWED = new Set([202, 400, 413, 415, 429, 503]);

test("hub fuzz: random form bodies get a clear 4xx or 202, never a 5xx or a crash", async () => {
  const pki = await makeTestPki();
  const [built] = await buildVariants();
  const cb = await CallbackServer.start(pki);
  const sidecar = await startSidecarProcess(
    hubEnv(
      { dist: await freshDist(built), dataDir: join(await tempDir("hubfuzz"), "data"), caFile: pki.caFile },
      {
        HUB_RATE_LIMIT_PER_CLIENT: "1000000",
        HUB_RATE_LIMIT_PER_CALLBACK_HOST: "1000000",
        HUB_VERIFY_QUEUE_MAX: "100000",
        HUB_VERIFY_QUEUE_MAX_PER_HOST: "100000",
        LOG_LEVEL: "info",
      },
    ),
  );
  const post = async (body: string, type = "application/x-www-form-urlencoded") => {
    const res = await fetch(`${sidecar.url}/api/websub/hub`, {
      method: "POST",
      headers: { "Content-Type": type },
      body,
      signal: AbortSignal.timeout(10_000),
    }).catch((e: Error) => assert.fail(`no answer to ${JSON.stringify(body).slice(0, 200)}: ${e.message}`));
    const text = await res.text();
    assert.ok(ALLOWED.has(res.status), `${res.status} for ${JSON.stringify(body)}: ${text}`);
    if (res.status === 202) {
      // Accepted: nothing to read (the document declares no body).
      assert.equal(text, "");
    } else {
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
      assert.ok(text.length > 0 && !/\bat .+\.ts:\d+/.test(text), "a reason, not a stack trace");
    }
    return res.status;
  };

  const value = fc.oneof(
    fc.constantFrom("subscribe", "unsubscribe", "SUBSCRIBE", "publish", "", " ", "0", "1", "-1", "1e3", "0x10", "+5"),
    fc.constantFrom(...Object.values(TOPICS), `${BASE}/nope.xml`, "http://evil.test/feed.xml"),
    fc.constantFrom(
      cb.url("/ok"),
      `${cb.url("/q")}?a=1&b=2`,
      `https://[::1]:${cb.port}/v6`,
      `https://127.0.0.1.:${cb.port}/dot`,
      `https://localhost:${cb.port}/name`,
      "http://127.0.0.1/plain",
      "https://user:pw@127.0.0.1/x",
      "https://127.0.0.1/#frag",
      "javascript:alert(1)",
      "https://[::ffff:7f00:1]/",
      "https:///",
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.nat({ max: 10 ** 7 }).map(String),
  );
  const name = fc.oneof(
    fc.constantFrom("hub.mode", "hub.topic", "hub.callback", "hub.secret", "hub.lease_seconds"),
    fc.constantFrom("__proto__", "constructor", "prototype", "hub.__proto__", "hub.extra", "toString", "hub"),
    fc.string({ maxLength: 12 }),
  );
  const field = fc.tuple(name, value);
  const valid = fc.record({
    "hub.mode": fc.constantFrom("subscribe", "unsubscribe"),
    "hub.topic": fc.constantFrom(...Object.values(TOPICS)),
    "hub.callback": fc.nat({ max: 200 }).map((i) => cb.url(`/fz/${i}`)),
  });
  const unknown = fc.tuple(
    fc.constantFrom("__proto__", "constructor", "hub.__proto__", "hub.unknown", "x", "__proto__[hub.mode]"),
    fc.string({ maxLength: 10 }),
  );
  const encode = (fields: [string, string][]) => new URLSearchParams(fields).toString();

  let requests = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(field, { maxLength: 8 }),
        valid,
        fc.array(unknown, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "application/x-www-form-urlencoded; charset=utf-8",
          "text/plain",
          "application/json",
        ),
        async (random, form, extra, type) => {
          // Random fields, any content type.
          await post(encode(random), type);
          // A well-formed request with unknown fields is answered like the same request without them.
          const plain = Object.entries(form);
          const [a, b] = [await post(encode(plain)), await post(encode([...extra, ...plain]))];
          assert.equal(a === 202, b === 202, `unknown fields ${JSON.stringify(extra)} changed ${a} to ${b}`);
          requests += 3;
        },
      ),
      { numRuns: RUNS, seed: 1211 },
    );
    // Raw bodies that are not valid form encoding at all.
    for (const raw of ["%", "%zz=1", "a=%E0%A4%A", "=&=&", "hub.mode", "&".repeat(5000), "x=".padEnd(20_000, "y")]) {
      await post(raw);
      requests++;
    }
    console.log(`hub fuzz: ${requests} requests, no 5xx, sidecar alive`);
    assert.equal(sidecar.child.exitCode, null);
    assert.equal((await fetch(`${sidecar.url}/healthz`)).status, 200);
  } finally {
    await sidecar.stop();
    await cb.close();
  }
});
