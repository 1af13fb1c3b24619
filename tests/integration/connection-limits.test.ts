// Raw-socket clients: deep pipelining without reading is cut off, modest pipelining is answered in order, and
// an absolute-form request target is served like its origin form.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION } from "../../sidecar/http/connection-limits.ts";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { rawExchange } from "../helpers/raw-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let port: number;
before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  port = Number(new URL(sidecar.url).port);
});
after(() => sidecar.close());

const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: localhost:4321\r\n\r\n`;

test("a client pipelining far more requests than the limit without reading is disconnected", async () => {
  const sent = MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION * 20;
  const bytes = request("/api/reviews/search?limit=100").repeat(sent);
  const { closedByServer, received } = await rawExchange(port, bytes, { read: false, quietMs: 3000 });
  const answered = received.match(/HTTP\/1\.1 200/g)?.length ?? 0;
  assert.ok(closedByServer, "the server closed the connection");
  assert.ok(answered <= MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION, `answered ${answered} of ${sent} before closing`);
  assert.equal((await fetch(`${sidecar.url}/reviews.json`)).status, 200, "other clients are served");
});

test("pipelining within the limit is answered, every response in order", async () => {
  const n = MAX_REQUESTS_IN_FLIGHT_PER_CONNECTION - 1;
  const targets = Array.from({ length: n }, (_, i) => `/api/reviews/search?limit=${i + 1}`);
  const { received } = await rawExchange(port, targets.map(request).join(""), { read: true });
  const limits = [...received.matchAll(/"limit":(\d+)/g)].map((m) => Number(m[1]));
  assert.deepEqual(
    limits,
    targets.map((_, i) => i + 1),
  );
});

test("an absolute-form request target is served like the origin form", async () => {
  const { received } = await rawExchange(port, request("http://localhost:4321/reviews.json"), { read: true });
  assert.match(received, /^HTTP\/1\.1 200 /);
  const search = await rawExchange(port, request("http://localhost:4321/api/reviews/search?limit=2"), { read: true });
  assert.match(search.received, /^HTTP\/1\.1 200 /);
  assert.match(search.received, /"limit":2/);
});
