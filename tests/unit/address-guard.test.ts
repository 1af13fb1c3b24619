// The SSRF guard's classifier as a pure function: no address here is ever contacted.
import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyAddress, isAllowedAddress, parseAllowlist } from "../../sidecar/hub/address-guard.ts";

const refused: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "private"],
  ["169.254.169.254", "link-local"],
  ["0.0.0.0", "reserved"],
  ["224.0.0.1", "multicast"],
  ["255.255.255.255", "reserved"],
  ["::1", "loopback"],
  ["::", "reserved"],
  ["fc00::1", "private"],
  ["fd12:3456::1", "private"],
  ["fe80::1", "link-local"],
  ["ff02::1", "multicast"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.1.2.3", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["2001:db8::1", "reserved"],
  ["not-an-ip", "reserved"],
];

for (const [ip, cls] of refused) {
  test(`${ip} is ${cls} and refused with an empty allowlist`, () => {
    assert.equal(classifyAddress(ip), cls);
    assert.equal(isAllowedAddress(ip, parseAllowlist([])), false);
  });
}

for (const ip of [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
]) {
  test(`${ip} is public and allowed`, () => {
    assert.equal(classifyAddress(ip), "public");
    assert.equal(isAllowedAddress(ip, parseAllowlist([])), true);
  });
}

test("the allowlist admits private ranges it names, IPv4-mapped included, and nothing else", () => {
  const allow = parseAllowlist(["127.0.0.0/8", "::1/128"]);
  assert.equal(isAllowedAddress("127.0.0.1", allow), true);
  assert.equal(isAllowedAddress("::ffff:127.0.0.1", allow), true);
  assert.equal(isAllowedAddress("::1", allow), true);
  assert.equal(isAllowedAddress("10.0.0.1", allow), false);
  assert.equal(isAllowedAddress("169.254.169.254", allow), false);
  assert.throws(() => parseAllowlist(["localhost/8"]), /not an IP address/);
  assert.throws(() => parseAllowlist(["10.0.0.0/33"]), /prefix length/);
});

// IPv6 forms that embed an IPv4 address are judged by the IPv4 address they carry.
for (const [ip, cls] of [
  ["::7f00:1", "loopback"], // IPv4-compatible
  ["::127.0.0.1", "loopback"],
  ["[::7f00:1]", "loopback"],
  ["::ffff:0:7f00:1", "loopback"], // IPv4-translated (SIIT)
  ["::ffff:0:127.0.0.1", "loopback"],
  ["0:0:0:0:ffff:0:a00:1", "private"],
  ["::ffff:0:a9fe:a9fe", "link-local"],
  ["::a9fe:a9fe", "link-local"],
  ["64:ff9b::7f00:1", "loopback"], // NAT64 well-known prefix
  ["64:ff9b::a9fe:a9fe", "link-local"],
  ["0:0:0:0:0:FFFF:7F00:0001", "loopback"],
  ["::ffff:0:808:808", "reserved"], // translated public: not a route to a public host
  ["::808:808", "reserved"],
] as const) {
  test(`${ip} embeds an IPv4 address and is ${cls}`, () => {
    assert.equal(classifyAddress(ip), cls);
    assert.equal(isAllowedAddress(ip, parseAllowlist([])), false);
  });
}

test("the unspecified and loopback IPv6 addresses are not read as embeddings", () => {
  assert.equal(classifyAddress("::"), "reserved");
  assert.equal(classifyAddress("::1"), "loopback");
  assert.equal(classifyAddress("::2"), "reserved");
});
