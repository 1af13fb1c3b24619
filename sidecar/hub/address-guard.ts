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

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx) as the IPv4 address it carries. */
export function unmapIPv4(ip: string): string {
  const lower = ip.toLowerCase();
  const dotted =
    /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const a = Number.parseInt(hex[1], 16);
    const b = Number.parseInt(hex[2], 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return ip;
}

export function classifyAddress(address: string): AddressClass {
  const ip = unmapIPv4(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  const type = isIP(ip) === 4 ? "ipv4" : isIP(ip) === 6 ? "ipv6" : undefined;
  if (!type) return "reserved";
  for (const [cls, list] of LISTS) if (list.check(ip, type)) return cls;
  return "public";
}

/** Parses HUB_CALLBACK_ALLOWLIST entries ("127.0.0.0/8", "::1/128", or a bare address). */
export function parseAllowlist(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [net, prefix] = entry.split("/");
    const type = isIP(net) === 4 ? "ipv4" : isIP(net) === 6 ? "ipv6" : undefined;
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
  const ip = unmapIPv4(address.replace(/^\[|\]$/g, ""));
  const type = isIP(ip) === 4 ? "ipv4" : "ipv6";
  if (isIP(ip) && allowlist.check(ip, type)) return true;
  return classifyAddress(ip) === "public";
}
