// Parsing of hub requests and the per-callback-host key, as pure functions.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { callbackHostKey, createHubRequestParser } from "../../sidecar/hub/hub-request.ts";
import { feedUrls } from "../../src/domain/feeds/feed-items.ts";
import { renderOpenApi } from "../../src/domain/openapi.ts";
import { Business } from "../../src/domain/schemas/published.ts";

const TOPIC = "http://localhost:4321/feed.xml";
const LEASE = { defaultSeconds: 864000, minSeconds: 300, maxSeconds: 2592000 };
const base = { "hub.mode": "subscribe", "hub.topic": TOPIC, "hub.callback": "https://sub.test/cb" };
const parseHubRequest = createHubRequestParser([TOPIC], LEASE);
const parse = (extra: Record<string, unknown>) => parseHubRequest({ ...base, ...extra });

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
    assert.deepEqual(parseHubRequest(form), expected, name);
  }
  // A field that only exists on a prototype is not a field of the form.
  const inherited = Object.create({ "hub.mode": "subscribe" }) as Record<string, unknown>;
  Object.assign(inherited, { "hub.topic": TOPIC, "hub.callback": "https://sub.test/cb" });
  assert.equal(parseHubRequest(inherited).ok, false);
});

test("each refusal names its field, checked in a fixed order: repeats, mode, topic, callback, secret, lease", () => {
  const long = `https://sub.test/${"a".repeat(2000 - "https://sub.test/".length)}`;
  const cases: [Record<string, unknown>, string][] = [
    [{ "hub.mode": undefined }, "hub.mode is required: subscribe or unsubscribe"],
    [{ "hub.mode": "" }, "hub.mode is required: subscribe or unsubscribe"],
    [{ "hub.mode": 5 }, "hub.mode is required: subscribe or unsubscribe"],
    [{ "hub.mode": "publish" }, "hub.mode must be subscribe or unsubscribe, not publish"],
    [{ "hub.mode": "SUBSCRIBE", "hub.topic": "x" }, "hub.mode must be subscribe or unsubscribe, not SUBSCRIBE"],
    [{ "hub.topic": "" }, `hub.topic is required: one of ${TOPIC}`],
    [
      { "hub.topic": "http://evil.test/feed.xml", "hub.callback": "" },
      `hub.topic http://evil.test/feed.xml is not a topic of this hub; topics: ${TOPIC}`,
    ],
    [{ "hub.callback": "" }, "hub.callback is required: the HTTPS URL of your subscriber"],
    [{ "hub.callback": "not a url" }, "hub.callback is not a valid absolute URL"],
    [{ "hub.callback": "https:///" }, "hub.callback is not a valid absolute URL"],
    [
      { "hub.callback": `http://sub.test/${"a".repeat(3000)}` },
      "hub.callback must be an HTTPS URL; plain HTTP callbacks are refused",
    ],
    [{ "hub.callback": "javascript:alert(1)" }, "hub.callback must be an HTTPS URL, not javascript:"],
    [{ "hub.callback": "https://u:p@sub.test/#f" }, "hub.callback must not carry credentials"],
    [{ "hub.callback": "https://sub.test/#frag" }, "hub.callback must not have a fragment"],
    [{ "hub.callback": `${long}b`, "hub.secret": "s".repeat(300) }, "hub.callback is longer than 2000 characters"],
    [{ "hub.secret": "s".repeat(200), "hub.lease_seconds": "0" }, "hub.secret must be shorter than 200 bytes"],
    [{ "hub.secret": "é".repeat(100) }, "hub.secret must be shorter than 200 bytes"],
    [
      { "hub.lease_seconds": "1e3" },
      "hub.lease_seconds must be a whole number of seconds of at least 1 (decimal digits only)",
    ],
    [{ "hub.lease_seconds": ["1", "2"], "hub.mode": "" }, "hub.lease_seconds is given more than once"],
    [{ "hub.mode": ["subscribe"], "hub.topic": ["a", "b"] }, "hub.mode is given more than once"],
    [{ "hub.secret": ["a", "b"], "hub.callback": "http://x/" }, "hub.secret is given more than once"],
  ];
  for (const [extra, reason] of cases) {
    assert.deepEqual(parse(extra), { ok: false, reason }, JSON.stringify(extra).slice(0, 120));
  }
  const ok = parse({ "hub.callback": long, "hub.secret": `${"é".repeat(99)}s`, "hub.lease_seconds": "0000000400" });
  assert.deepEqual(ok, {
    ok: true,
    request: { mode: "subscribe", topic: TOPIC, callback: long, secret: `${"é".repeat(99)}s`, leaseSeconds: 400 },
  });
  const bare = parse({ "hub.mode": "unsubscribe", "hub.callback": "https://sub.test/cb#", "hub.secret": "" });
  assert.ok(bare.ok && bare.request.secret === null && bare.request.callback === "https://sub.test/cb#");
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

test("the OpenAPI request body is the parser's schema: it accepts and refuses what the hub does", () => {
  const baseUrl = "http://localhost:4321";
  const business = Business.parse(
    JSON.parse(readFileSync(new URL("../../content/business.json", import.meta.url), "utf8")),
  );
  const doc = renderOpenApi(business, baseUrl);
  const schema = doc.paths["/api/websub/hub"].post.requestBody.content["application/x-www-form-urlencoded"].schema;
  const ajv = new Ajv2020.default({ strict: true });
  addFormats.default(ajv);
  const documented = ajv.compile(schema);
  const urls = feedUrls(baseUrl);
  const hub = createHubRequestParser([urls.atom, urls.json, urls.dataset], LEASE);
  const valid = { "hub.mode": "subscribe", "hub.topic": urls.json, "hub.callback": "https://sub.test/cb" };
  const forms: Record<string, string>[] = [
    valid,
    { ...valid, "hub.mode": "unsubscribe", "hub.topic": urls.dataset, "hub.secret": "s".repeat(199) },
    { ...valid, "hub.lease_seconds": "1" },
    { ...valid, "hub.lease_seconds": "000000000007" },
    { ...valid, "hub.callback": `https://sub.test/${"a".repeat(1983)}` },
    { ...valid, "hub.mode": "publish" },
    { ...valid, "hub.mode": "" },
    { ...valid, "hub.topic": `${baseUrl}/nope.xml` },
    { ...valid, "hub.callback": "" },
    { ...valid, "hub.callback": "not a url" },
    { ...valid, "hub.callback": `https://sub.test/${"a".repeat(1984)}` },
    { ...valid, "hub.secret": "s".repeat(200) },
    { ...valid, "hub.lease_seconds": "0" },
    { ...valid, "hub.lease_seconds": "000" },
    { ...valid, "hub.lease_seconds": "-1" },
    { ...valid, "hub.lease_seconds": "1e3" },
    { ...valid, "hub.lease_seconds": "1234567890123" },
    { "hub.mode": "subscribe", "hub.topic": urls.json },
  ];
  for (const form of forms) {
    const parsed = hub(form);
    assert.equal(documented(form), parsed.ok, `${JSON.stringify(form).slice(0, 160)}: ${parsed.ok || parsed.reason}`);
  }
  assert.deepEqual(Object.keys((schema as { properties: object }).properties), [
    "hub.mode",
    "hub.topic",
    "hub.callback",
    "hub.secret",
    "hub.lease_seconds",
  ]);
});
