// The hub's subscribe/unsubscribe form (W3C WebSub): one schema, which the hub parses requests with and from which
// the OpenAPI document describes the request body. Each refusal is one plain sentence naming the field.
import * as z from "zod";
import { HUB_CALLBACK_MAX_LENGTH, HUB_SECRET_LIMIT_BYTES } from "../limits.ts";

export const HUB_MODES = ["subscribe", "unsubscribe"] as const;
/** The fields the hub reads, in the order they are checked; any other field is ignored. */
export const HUB_FORM_FIELDS = ["hub.mode", "hub.topic", "hub.callback", "hub.secret", "hub.lease_seconds"] as const;
/** Decimal digits only (no sign, exponent, hex or spaces), at most 12, not all zeros: a whole number >= 1. */
const LEASE_DIGITS = /^(?!0+$)[0-9]{1,12}$/;

const blank = (input: unknown) => input === undefined || input === "";
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** The first reason a callback is refused (its length is checked after), or undefined. */
function callbackProblem(callback: string): string | undefined {
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    return "hub.callback is not a valid absolute URL";
  }
  if (url.protocol === "http:") return "hub.callback must be an HTTPS URL; plain HTTP callbacks are refused";
  if (url.protocol !== "https:") return `hub.callback must be an HTTPS URL, not ${url.protocol}`;
  if (url.username || url.password) return "hub.callback must not carry credentials";
  if (url.hash) return "hub.callback must not have a fragment";
  return undefined;
}

/**
 * The form's fields as strings (a field given once); `topics` are the hub's topic URLs. The first issue is the
 * reason to give: fields are checked in HUB_FORM_FIELDS order, each field's checks in the order written.
 */
export function hubFormSchema(topics: readonly string[]) {
  const topicList = topics.join(", ");
  return z.object({
    "hub.mode": z.enum(HUB_MODES, {
      error: (i) =>
        blank(i.input)
          ? "hub.mode is required: subscribe or unsubscribe"
          : `hub.mode must be subscribe or unsubscribe, not ${String(i.input)}`,
    }),
    "hub.topic": z.enum(topics, {
      error: (i) =>
        blank(i.input)
          ? `hub.topic is required: one of ${topicList}`
          : `hub.topic ${String(i.input)} is not a topic of this hub; topics: ${topicList}`,
    }),
    "hub.callback": z
      .string({ error: "hub.callback is required: the HTTPS URL of your subscriber" })
      .min(1, "hub.callback is required: the HTTPS URL of your subscriber")
      .superRefine((callback, ctx) => {
        const problem = callback && callbackProblem(callback);
        if (problem) ctx.addIssue({ code: "custom", message: problem, input: callback });
      })
      .max(HUB_CALLBACK_MAX_LENGTH, `hub.callback is longer than ${HUB_CALLBACK_MAX_LENGTH} characters`)
      .meta({
        format: "uri",
        // What callbackProblem enforces that a reader of the JSON Schema can check: https, no fragment.
        pattern: "^[Hh][Tt][Tt][Pp][Ss]://[^#]+$",
        description: `The subscriber's HTTPS URL: no credentials, no fragment, at most ${HUB_CALLBACK_MAX_LENGTH} characters`,
      }),
    "hub.secret": z
      .string()
      .refine(
        (s) => utf8Bytes(s) < HUB_SECRET_LIMIT_BYTES,
        `hub.secret must be shorter than ${HUB_SECRET_LIMIT_BYTES} bytes`,
      )
      // In characters, for the description: never reached first, a string of 200 characters has 200 bytes or more.
      .max(HUB_SECRET_LIMIT_BYTES - 1, `hub.secret must be shorter than ${HUB_SECRET_LIMIT_BYTES} bytes`)
      .optional()
      .describe(
        `Signs each delivery (X-Hub-Signature: sha256=<hex HMAC>); shorter than ${HUB_SECRET_LIMIT_BYTES} bytes in UTF-8; empty means none`,
      ),
    "hub.lease_seconds": z
      .string()
      .regex(LEASE_DIGITS, "hub.lease_seconds must be a whole number of seconds of at least 1 (decimal digits only)")
      .transform(Number)
      .optional()
      .describe("Lease asked for, in seconds (decimal digits, at least 1); the hub clamps it to its own bounds"),
  });
}

export type HubForm = z.output<ReturnType<typeof hubFormSchema>>;
