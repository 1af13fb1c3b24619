// A subscribe or unsubscribe request: form fields -> a validated request, or the reason it is refused.
import { HUB_FORM_FIELDS, hubFormSchema } from "../../src/domain/schemas/hub-form.ts";

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
 * Parses a form (the parsed body; a repeated field arrives as an array) with the domain's hub form schema. Unknown
 * fields, `hub.*` or not and `__proto__`-like names included, are ignored (W3C WebSub: hubs MUST ignore parameters
 * they do not understand; DECISIONS.md); only the form's own properties are read, so no name reaches a prototype.
 */
export function createHubRequestParser(topics: readonly string[], lease: LeasePolicy) {
  const schema = hubFormSchema(topics);
  return (form: Record<string, unknown>): ParsedHubRequest => {
    const fields: Record<string, string> = {};
    for (const name of HUB_FORM_FIELDS) {
      const v = Object.hasOwn(form, name) ? form[name] : undefined;
      if (Array.isArray(v)) return fail(`${name} is given more than once`);
      if (typeof v === "string") fields[name] = v;
    }
    const parsed = schema.safeParse(fields);
    if (!parsed.success) return fail(parsed.error.issues[0].message);
    const { "hub.mode": mode, "hub.topic": topic, "hub.callback": callback, "hub.secret": secret } = parsed.data;
    const asked = parsed.data["hub.lease_seconds"] ?? lease.defaultSeconds;
    const leaseSeconds = Math.min(lease.maxSeconds, Math.max(lease.minSeconds, asked));
    return { ok: true, request: { mode, topic, callback, secret: secret || null, leaseSeconds } };
  };
}
