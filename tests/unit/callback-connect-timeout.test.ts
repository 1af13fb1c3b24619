// A callback host too busy to finish a TLS handshake: the real callback client tries its connections side by side
// (not one behind another, as undici's HTTP/2 probe would hold them, so one slow handshake would make a chain of
// timeouts), gives up on each within the request timeout and reports no status, which the per-host limit counts as
// an overload (it halves), the same as a 5xx: a burst of connect timeouts makes the hub open fewer connections to
// that host, not more.
import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { test } from "node:test";
import { parseAllowlist } from "../../sidecar/hub/address-guard.ts";
import { createCallbackClient } from "../../sidecar/hub/callback-client.ts";
import { createHostConcurrency, feedbackOf } from "../../sidecar/hub/host-concurrency.ts";

test("a connect timeout is no answer: the request fails without a status and the host's limit halves", async (t) => {
  // Accepts TCP connections and never says a word: the TLS handshake never completes.
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const client = createCallbackClient({ allowlist: parseAllowlist(["127.0.0.0/8"]), timeoutMs: 3_000 });
  t.after(async () => {
    await client.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  const { port } = server.address() as { port: number };
  const limits = createHostConcurrency({ initial: 8, max: 64, fastMs: 1000 });
  const url = new URL(`https://127.0.0.1:${port}/cb`);

  const rounds = Array.from({ length: 8 }, () => limits.started("127.0.0.1"));
  /** Connections the host had accepted when each request failed. */
  const acceptedAtFailure: number[] = [];
  const outcomes = await Promise.allSettled(
    rounds.map(async (round) => {
      const started = performance.now();
      let status: number | undefined;
      try {
        status = (await client.post(url, Buffer.from("{}"), {})).status;
      } catch (e) {
        acceptedAtFailure.push(accepted);
        throw e;
      } finally {
        limits.record("127.0.0.1", round, feedbackOf(status, started));
      }
    }),
  );
  for (const o of outcomes) assert.equal(o.status, "rejected", "no handshake, no answer");
  assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /timeout/i);
  assert.deepEqual(acceptedAtFailure, Array(8).fill(8), "all eight handshakes were under way before the first failed");
  assert.equal(limits.limit("127.0.0.1"), 4, "eight connect timeouts started together are one overload: 8 -> 4");
});
