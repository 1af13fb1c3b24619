// A subscribe or unsubscribe request: form fields -> a validated request, or the reason it is refused.
export const SECRET_MAX_BYTES = 200;

export interface HubRequest {
  mode: "subscribe" | "unsubscribe";
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
}

export interface LeasePolicy {
  defaultSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

export type ParsedHubRequest = { ok: true; request: HubRequest } | { ok: false; reason: string };

const fail = (reason: string): ParsedHubRequest => ({ ok: false, reason });

/**
 * The key that per-callback-host limits count under: the URL's host name as the WHATWG parser gives it
 * (lower case, IDNA to punycode, percent-decoded, IPv4 shorthands canonical) without port, brackets or
 * trailing dots, so `Victim.test.:8443` and `victim.test` are one host. Undefined for a non-URL.
 */
export function callbackHostKey(callback: string): string | undefined {
  try {
    return new URL(callback).hostname.replace(/\.+$/, "").replace(/^\[|\]$/g, "") || undefined;
  } catch {
    return undefined;
  }
}

/**
 * `form` is the parsed body (a repeated field arrives as an array). Unknown fields, `hub.*` or not and
 * `__proto__`-like names included, are ignored (W3C WebSub: hubs MUST ignore parameters they do not
 * understand; DECISIONS.md); only own properties are read, so no name reaches a prototype.
 */
export function parseHubRequest(
  form: Record<string, unknown>,
  topics: readonly string[],
  lease: LeasePolicy,
): ParsedHubRequest {
  const field = (name: string): string | undefined | null => {
    const v = Object.hasOwn(form, name) ? form[name] : undefined;
    if (Array.isArray(v)) return null;
    return typeof v === "string" ? v : undefined;
  };
  for (const name of ["hub.mode", "hub.topic", "hub.callback", "hub.secret", "hub.lease_seconds"]) {
    if (field(name) === null) return fail(`${name} is given more than once`);
  }
  const mode = field("hub.mode");
  const topic = field("hub.topic");
  const callback = field("hub.callback");
  if (!mode) return fail("hub.mode is required: subscribe or unsubscribe");
  if (mode !== "subscribe" && mode !== "unsubscribe")
    return fail(`hub.mode must be subscribe or unsubscribe, not ${mode}`);
  if (!topic) return fail(`hub.topic is required: one of ${topics.join(", ")}`);
  if (!topics.includes(topic))
    return fail(`hub.topic ${topic} is not a topic of this hub; topics: ${topics.join(", ")}`);
  if (!callback) return fail("hub.callback is required: the HTTPS URL of your subscriber");
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    return fail("hub.callback is not a valid absolute URL");
  }
  if (url.protocol === "http:") return fail("hub.callback must be an HTTPS URL; plain HTTP callbacks are refused");
  if (url.protocol !== "https:") return fail(`hub.callback must be an HTTPS URL, not ${url.protocol}`);
  if (url.username || url.password) return fail("hub.callback must not carry credentials");
  if (url.hash) return fail("hub.callback must not have a fragment");
  if (callback.length > 2000) return fail("hub.callback is longer than 2000 characters");
  const secret = field("hub.secret");
  if (secret !== undefined && secret !== null && Buffer.byteLength(secret) >= SECRET_MAX_BYTES) {
    return fail(`hub.secret must be shorter than ${SECRET_MAX_BYTES} bytes`);
  }
  const leaseRaw = field("hub.lease_seconds");
  let leaseSeconds = lease.defaultSeconds;
  if (leaseRaw !== undefined && leaseRaw !== null) {
    // Decimal digits only (no sign, exponent, hex or spaces), at least 1; large values are clamped below.
    if (!/^\d{1,12}$/.test(leaseRaw) || Number(leaseRaw) < 1) {
      return fail("hub.lease_seconds must be a whole number of seconds of at least 1 (decimal digits only)");
    }
    leaseSeconds = Number(leaseRaw);
  }
  leaseSeconds = Math.min(lease.maxSeconds, Math.max(lease.minSeconds, leaseSeconds));
  return { ok: true, request: { mode, topic, callback, secret: secret || null, leaseSeconds } };
}
