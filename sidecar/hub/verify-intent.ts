// Verification of intent (W3C WebSub 5.3): a GET with a fresh challenge; only a 2xx whose body is exactly
// the challenge counts. This is the network half; the hub applies the outcome to the store.
import { randomBytes } from "node:crypto";
import type { Logger } from "../logger.ts";
import { type CallbackClient, RefusedCallbackError } from "./callback-client.ts";
import { feedbackOf, type HostFeedback } from "./host-concurrency.ts";
import type { HubRequest } from "./hub-request.ts";

const CHALLENGE_BYTES = 24;

export interface VerifyResult {
  verified: boolean;
  /**
   * The callback gave no usable answer (a timeout, no connection, a 5xx, a 429): worth asking again. Any other
   * answer (a refusal, a wrong body, a redirect), a callback the guard refuses and a certificate TLS rejects are
   * final: asking again would get the same.
   */
  retry: boolean;
  feedback: HostFeedback;
}

/** Certificate errors (Node's and OpenSSL's codes): the callback is misconfigured, not busy. */
const FINAL_TLS_ERROR = /CERT|SIGNATURE|ISSUER/;

function isFinal(e: unknown): boolean {
  for (let err = e as { code?: unknown; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    if (err instanceof RefusedCallbackError) return true;
    if (typeof err.code === "string" && FINAL_TLS_ERROR.test(err.code)) return true;
  }
  return false;
}

export async function verifyIntent(
  req: HubRequest,
  deps: { client: CallbackClient; logger: Logger },
): Promise<VerifyResult> {
  const challenge = randomBytes(CHALLENGE_BYTES).toString("base64url");
  const url = new URL(req.callback);
  url.searchParams.append("hub.mode", req.mode);
  url.searchParams.append("hub.topic", req.topic);
  url.searchParams.append("hub.challenge", challenge);
  if (req.mode === "subscribe") url.searchParams.append("hub.lease_seconds", String(req.leaseSeconds));
  const log = { event: "hub.verify", mode: req.mode, topic: req.topic, callback_host: url.host };
  const started = performance.now();
  try {
    const res = await deps.client.get(url, challenge.length + 64);
    const verified = res.status >= 200 && res.status < 300 && res.body === challenge;
    const retry = res.status >= 500 || res.status === 429;
    deps.logger.info({ ...log, status: res.status, verified }, verified ? "intent verified" : "intent not verified");
    return { verified, retry, feedback: feedbackOf(res.status, started) };
  } catch (e) {
    deps.logger.info({ ...log, verified: false, err: (e as Error).message }, "verification request failed");
    return { verified: false, retry: !isFinal(e), feedback: feedbackOf(undefined, started) };
  }
}

/**
 * When to ask again after `attempts` unanswered verifications, or undefined once `delaysMs` (the waits before the
 * 2nd, 3rd, … attempt) are spent. Each wait is drawn between half and all of its value, so a burst that timed out
 * together does not come back together.
 */
export function verifyRetryAt(
  attempts: number,
  delaysMs: readonly number[],
  now: number,
  random: () => number = Math.random,
): number | undefined {
  const delay = delaysMs[attempts];
  return delay === undefined ? undefined : now + Math.round(delay * (0.5 + random() / 2));
}
