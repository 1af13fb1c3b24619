// Parsing of hub requests and the per-callback-host key, as pure functions.
import assert from "node:assert/strict";
import { test } from "node:test";
import { callbackHostKey, parseHubRequest } from "../../sidecar/hub/hub-request.ts";

const TOPIC = "http://localhost:4321/feed.xml";
const LEASE = { defaultSeconds: 864000, minSeconds: 300, maxSeconds: 2592000 };
const base = { "hub.mode": "subscribe", "hub.topic": TOPIC, "hub.callback": "https://sub.test/cb" };
const parse = (extra: Record<string, unknown>) => parseHubRequest({ ...base, ...extra }, [TOPIC], LEASE);

test("hub.lease_seconds takes decimal integers of at least 1 and nothing else", () => {
  for (const bad of ["0", "00", "-1", "+5", "1e3", "0x10", " 5", "5 ", "1.5", "", "१२"]) {
    const r = parse({ "hub.lease_seconds": bad });
    assert.equal(r.ok, false, JSON.stringify(bad));
    if (!r.ok) assert.match(r.reason, /hub\.lease_seconds/);
  }
  const one = parse({ "hub.lease_seconds": "1" });
  assert.ok(one.ok && one.request.leaseSeconds === 300, "clamped to the minimum");
  const big = parse({ "hub.lease_seconds": "999999999999" });
  assert.ok(big.ok && big.request.leaseSeconds === 2592000, "clamped to the maximum");
  const none = parse({});
  assert.ok(none.ok && none.request.leaseSeconds === 864000);
});

test("unknown fields are ignored alike, __proto__-like names and unknown hub.* fields included", () => {
  const expected = parse({});
  for (const name of ["__proto__", "constructor", "prototype", "hub.__proto__", "hub.unknown", "x", "hub.Mode"]) {
    const form = Object.create(null) as Record<string, unknown>;
    Object.assign(form, base);
    form[name] = "1";
    assert.deepEqual(parseHubRequest(form, [TOPIC], LEASE), expected, name);
  }
  // A field that only exists on a prototype is not a field of the form.
  const inherited = Object.create({ "hub.mode": "subscribe" }) as Record<string, unknown>;
  Object.assign(inherited, { "hub.topic": TOPIC, "hub.callback": "https://sub.test/cb" });
  assert.equal(parseHubRequest(inherited, [TOPIC], LEASE).ok, false);
});

test("a repeated hub field is refused", () => {
  const r = parse({ "hub.callback": ["https://a.test/", "https://b.test/"] });
  assert.ok(!r.ok && /more than once/.test(r.reason));
});

test("the callback host key ignores port, case, trailing dots and IDNA spelling", () => {
  const key = "victim.test";
  for (const url of [
    "https://victim.test/cb",
    "https://VICTIM.test:8443/cb",
    "https://victim.test./x",
    "https://victim.test..:1/x",
    "https://vict%69m.test/",
  ]) {
    assert.equal(callbackHostKey(url), key, url);
  }
  assert.equal(callbackHostKey("https://bücher.test/"), callbackHostKey("https://xn--bcher-kva.test/"));
  assert.equal(callbackHostKey("https://[::1]:8443/"), "::1");
  assert.equal(callbackHostKey("https://0x7f.1/"), "127.0.0.1");
  assert.equal(callbackHostKey("not a url"), undefined);
});
