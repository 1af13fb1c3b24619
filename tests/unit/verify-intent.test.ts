// Which verification outcomes are worth asking again, and when: a fake client (no network) and the pure schedule.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type CallbackClient, RefusedCallbackError } from "../../sidecar/hub/callback-client.ts";
import { verifyIntent, verifyRetryAt } from "../../sidecar/hub/verify-intent.ts";
import { memoryLogger } from "../helpers/hub-fixture.ts";

const REQ = {
  mode: "subscribe" as const,
  topic: "http://localhost:4321/feed.xml",
  callback: "https://a.test/cb",
  secret: null,
  leaseSeconds: 600,
};

/** A client whose GET answers with `answer(challenge)` or throws what it returns when that is an Error. */
const client = (answer: (challenge: string) => { status: number; body?: string } | Error): CallbackClient => ({
  async get(url) {
    const a = answer(url.searchParams.get("hub.challenge") ?? "");
    if (a instanceof Error) throw a;
    return { status: a.status, body: a.body ?? "" };
  },
  post: () => Promise.reject(new Error("not used")),
  close: async () => undefined,
});

const verify = (answer: Parameters<typeof client>[0]) =>
  verifyIntent(REQ, { client: client(answer), logger: memoryLogger().logger });

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test("the challenge echoed with a 2xx verifies; nothing to retry", async () => {
  assert.deepEqual(
    [await verify((c) => ({ status: 200, body: c }))].map((r) => [r.verified, r.retry]),
    [[true, false]],
  );
});

test("no usable answer is retried: a 5xx, a 429, a timeout, a refused or reset connection", async () => {
  for (const answer of [
    { status: 503 },
    { status: 500 },
    { status: 429 },
    new DOMException("The operation was aborted due to timeout", "TimeoutError"),
    withCode("connect ECONNREFUSED 127.0.0.1:443", "ECONNREFUSED"),
    withCode("other side closed", "UND_ERR_SOCKET"),
    withCode("getaddrinfo EAI_AGAIN a.test", "EAI_AGAIN"),
  ]) {
    const r = await verify(() => answer);
    assert.deepEqual([r.verified, r.retry], [false, true], String((answer as Error).message ?? JSON.stringify(answer)));
  }
});

test("an answer that refuses, a refused address and a bad certificate are final", async () => {
  for (const answer of [
    { status: 200, body: "not the challenge" },
    { status: 404 },
    { status: 302 },
    { status: 410 },
    new RefusedCallbackError("a.test resolves to no public address (10.0.0.1)"),
    new TypeError("fetch failed", { cause: withCode("self-signed certificate", "DEPTH_ZERO_SELF_SIGNED_CERT") }),
    withCode("Hostname/IP does not match certificate's altnames", "ERR_TLS_CERT_ALTNAME_INVALID"),
    withCode("certificate has expired", "CERT_HAS_EXPIRED"),
  ]) {
    const r = await verify(() => answer);
    assert.deepEqual(
      [r.verified, r.retry],
      [false, false],
      String((answer as Error).message ?? JSON.stringify(answer)),
    );
  }
});

test("retries wait each configured delay, drawn between half and all of it, then stop", () => {
  const delays = [5_000, 30_000, 120_000];
  assert.equal(
    verifyRetryAt(0, delays, 1_000, () => 0),
    1_000 + 2_500,
  );
  assert.equal(
    verifyRetryAt(0, delays, 1_000, () => 1),
    1_000 + 5_000,
  );
  assert.equal(
    verifyRetryAt(1, delays, 1_000, () => 0.5),
    1_000 + 22_500,
  );
  assert.equal(
    verifyRetryAt(2, delays, 1_000, () => 1),
    1_000 + 120_000,
  );
  assert.equal(
    verifyRetryAt(3, delays, 1_000, () => 0),
    undefined,
    "four attempts in all",
  );
  assert.equal(verifyRetryAt(0, [], 1_000), undefined, "no delays: no retry");
});
