// Which addresses a callback may resolve to. Pure functions: tests call them with any address, and no
// test ever has to send traffic anywhere but loopback to check them.
import { BlockList, isIP } from "node:net";

export type AddressClass = "public" | "loopback" | "private" | "link-local" | "multicast" | "reserved";

const RANGES: Record<Exclude<AddressClass, "public">, [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  private: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["100.64.0.0", 10, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
  "link-local": [
    ["169.254.0.0", 16, "ipv4"],
    ["fe80::", 10, "ipv6"],
  ],
  multicast: [
    ["224.0.0.0", 4, "ipv4"],
    ["ff00::", 8, "ipv6"],
  ],
  reserved: [
    ["0.0.0.0", 8, "ipv4"],
    ["192.0.0.0", 24, "ipv4"],
    ["192.0.2.0", 24, "ipv4"],
    ["192.88.99.0", 24, "ipv4"],
    ["198.18.0.0", 15, "ipv4"],
    ["198.51.100.0", 24, "ipv4"],
    ["203.0.113.0", 24, "ipv4"],
    ["240.0.0.0", 4, "ipv4"],
    ["::", 128, "ipv6"],
    ["64:ff9b::", 96, "ipv6"],
    ["64:ff9b:1::", 48, "ipv6"],
    ["100::", 64, "ipv6"],
    ["2001::", 23, "ipv6"],
    ["2001:db8::", 32, "ipv6"],
    ["2002::", 16, "ipv6"],
    ["fec0::", 10, "ipv6"],
  ],
};

const LISTS = Object.entries(RANGES).map(([cls, ranges]) => {
  const list = new BlockList();
  for (const [net, prefix, type] of ranges) list.addSubnet(net, prefix, type);
  return [cls as AddressClass, list] as const;
});

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined;
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const dottedQuad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, and how: IPv4-mapped (::ffff:a.b.c.d, the connection really goes
 * to the IPv4 address), IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated (::ffff:0:a.b.c.d, SIIT) or
 * NAT64 (64:ff9b::a.b.c.d). Undefined when it carries none.
 */
export function embeddedIPv4(
  ip: string,
): { ipv4: string; kind: "mapped" | "compatible" | "translated" | "nat64" } | undefined {
  const g = ipv6Groups(ip);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const ipv4 = dottedQuad(g[6], g[7]);
  if (zero(0, 5) && g[5] === 0xffff) return { ipv4, kind: "mapped" };
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return { ipv4, kind: "translated" };
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return { ipv4, kind: "nat64" };
  // ::, ::1 and ::0.0.0.x are the unspecified and loopback addresses, not embeddings.
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return { ipv4, kind: "compatible" };
  return undefined;
}

const ipType = (ip: string) => ({ 4: "ipv4", 6: "ipv6" })[isIP(ip)] as "ipv4" | "ipv6" | undefined;
/** Without brackets and zone index. */
const bareAddress = (address: string) => address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");

function classifyBare(ip: string): AddressClass {
  const type = ipType(ip);
  if (!type) return "reserved";
  for (const [cls, list] of LISTS) if (list.check(ip, type)) return cls;
  return "public";
}

function classifyWith(ip: string, embedded: ReturnType<typeof embeddedIPv4>): AddressClass {
  if (!embedded) return classifyBare(ip);
  const inner = classifyBare(embedded.ipv4);
  return inner !== "public" || embedded.kind === "mapped" ? inner : "reserved";
}

/**
 * Classifies an address. An IPv6 address that embeds an IPv4 address takes the class of the embedded one
 * when that is not public (so [::7f00:1] and [::ffff:0:7f00:1] are loopback); the embeddings other than
 * IPv4-mapped are reserved otherwise (nothing routes them to a public host on purpose).
 */
export function classifyAddress(address: string): AddressClass {
  const ip = bareAddress(address);
  return classifyWith(ip, embeddedIPv4(ip));
}

/** Parses HUB_CALLBACK_ALLOWLIST entries ("127.0.0.0/8", "::1/128", or a bare address). */
export function parseAllowlist(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [net, prefix] = entry.split("/");
    const type = ipType(net);
    if (!type) throw new Error(`HUB_CALLBACK_ALLOWLIST: ${entry} is not an IP address or CIDR`);
    const bits = prefix === undefined ? (type === "ipv4" ? 32 : 128) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (type === "ipv4" ? 32 : 128)) {
      throw new Error(`HUB_CALLBACK_ALLOWLIST: ${entry} has an invalid prefix length`);
    }
    list.addSubnet(net, bits, type);
  }
  return list;
}

/** Whether the hub may connect to this address: public, or inside the operator's allowlist. */
export function isAllowedAddress(address: string, allowlist: BlockList): boolean {
  const bare = bareAddress(address);
  const embedded = embeddedIPv4(bare);
  const ip = embedded?.ipv4 ?? bare;
  const type = ipType(ip);
  if (type && allowlist.check(ip, type)) return true;
  return classifyWith(bare, embedded) === "public";
}
