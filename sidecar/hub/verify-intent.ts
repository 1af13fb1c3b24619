// Verification of intent (W3C WebSub 5.3): a GET with a fresh challenge; only a 2xx whose body is exactly
// the challenge counts. This is the network half; the hub applies the outcome to the store.
import { randomBytes } from "node:crypto";
import type { Logger } from "../logger.ts";
import type { CallbackClient } from "./callback-client.ts";
import { feedbackOf, type HostFeedback } from "./host-concurrency.ts";
import type { HubRequest } from "./hub-request.ts";

const CHALLENGE_BYTES = 24;

export async function verifyIntent(
  req: HubRequest,
  deps: { client: CallbackClient; logger: Logger },
): Promise<{ verified: boolean; feedback: HostFeedback }> {
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
    deps.logger.info({ ...log, status: res.status, verified }, verified ? "intent verified" : "intent not verified");
    return { verified, feedback: feedbackOf(res.status, started) };
  } catch (e) {
    deps.logger.info({ ...log, verified: false, err: (e as Error).message }, "verification request failed");
    return { verified: false, feedback: feedbackOf(undefined, started) };
  }
}
