// Raw-socket clients: deep pipelining without reading is cut off, modest pipelining is answered in order, and
// an absolute-form request target is served like its origin form.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import { MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION } from "../../sidecar/http/connection-limits.ts";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let port: number;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  port = Number(new URL(sidecar.url).port);
});
after(() => sidecar.close());

const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: localhost:4321\r\n\r\n`;

/** Sends raw bytes; resolves with what came back once the server closes or `quietMs` pass without data. */
function exchange(bytes: string, opts: { read: boolean; quietMs?: number }) {
  return new Promise<{ closedByServer: boolean; received: string }>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ closedByServer, received });
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(false), opts.quietMs ?? 1000);
    };
    socket.on("connect", () => {
      socket.write(bytes);
      if (opts.read) return quiet();
      // A client that stops reading for a while, then looks at what the server did meanwhile.
      socket.pause();
      setTimeout(() => {
        socket.resume();
        quiet();
      }, 1000);
    });
    socket.on("data", (d) => {
      received += d.toString("latin1");
      quiet();
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => undefined);
  });
}

test("a client pipelining far more requests than the limit without reading is disconnected", async () => {
  const sent = MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION * 20;
  const bytes = request("/api/reviews/search?limit=100").repeat(sent);
  const { closedByServer, received } = await exchange(bytes, { read: false, quietMs: 3000 });
  const answered = received.match(/HTTP\/1\.1 200/g)?.length ?? 0;
  assert.ok(closedByServer, "the server closed the connection");
  assert.ok(answered <= MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION, `answered ${answered} of ${sent} before closing`);
  assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200, "other clients are served");
});

test("pipelining within the limit is answered, every response in order", async () => {
  const n = MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION - 1;
  const targets = Array.from({ length: n }, (_, i) => `/api/reviews/search?limit=${i + 1}`);
  const { received } = await exchange(targets.map(request).join(""), { read: true });
  const limits = [...received.matchAll(/"limit":(\d+)/g)].map((m) => Number(m[1]));
  assert.deepEqual(
    limits,
    targets.map((_, i) => i + 1),
  );
});

test("an absolute-form request target is served like the origin form", async () => {
  const { received } = await exchange(request("http://localhost:4321/reviews.json"), { read: true });
  assert.match(received, /^HTTP\/1\.1 200 /);
  const search = await exchange(request("http://localhost:4321/api/reviews/search?limit=2"), { read: true });
  assert.match(search.received, /^HTTP\/1\.1 200 /);
  assert.match(search.received, /"limit":2/);
});
