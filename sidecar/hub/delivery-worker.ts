// Fat pings: sends the topic's current bytes to each pending delivery, bounded globally and per callback
// host. Pending deliveries live in the store, so a restart resumes them (at-least-once).
import { createHmac } from "node:crypto";
import PQueue from "p-queue";
import type { Logger } from "../logger.ts";
import type { CallbackClient } from "./callback-client.ts";
import type { Delivery, HubStore } from "./hub-store.ts";

export const MAX_CONSECUTIVE_FAILURES = 3;
const BATCH = 500;

export interface TopicContent {
  bytes: Buffer;
  type: string;
}

export interface DeliveryWorkerDeps {
  store: HubStore;
  client: CallbackClient;
  logger: Logger;
  hubUrl: string;
  /** The current bytes of a topic URL, read at send time, so a retry always carries the newest content. */
  topicContent(topic: string): TopicContent | undefined;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  concurrency?: number;
  concurrencyPerHost?: number;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now. */
  wake(): void;
  /** Resolves when nothing is in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function signature(secret: string, body: Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const global = new PQueue({ concurrency: deps.concurrency ?? 64 });
  const perHost = new Map<string, PQueue>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let pumping = false;
  let again = false;

  const hostQueue = (host: string) => {
    let q = perHost.get(host);
    if (!q) {
      q = new PQueue({ concurrency: deps.concurrencyPerHost ?? 8 });
      q.addEventListener("idle", () => perHost.delete(host));
      perHost.set(host, q);
    }
    return q;
  };

  async function deliverOne(d: Delivery): Promise<void> {
    const now = Date.now();
    const log = { event: "hub.deliver", topic: d.topic, callback_host: new URL(d.callback).host };
    if (d.expiresAt <= now) {
      deps.store.remove(d.topic, d.callback);
      deps.logger.info({ ...log, outcome: "lease_ended" }, "lease ended; not delivered");
      return;
    }
    const content = deps.topicContent(d.topic);
    if (!content) return;
    const headers: Record<string, string> = {
      "Content-Type": content.type,
      Link: `<${deps.hubUrl}>; rel="hub", <${d.topic}>; rel="self"`,
    };
    if (d.secret) headers["X-Hub-Signature"] = signature(d.secret, content.bytes);
    let status: number | undefined;
    let error: string | undefined;
    try {
      status = (await deps.client.post(new URL(d.callback), content.bytes, headers)).status;
    } catch (e) {
      error = (e as Error).message;
    }
    if (status !== undefined && status >= 200 && status < 300) {
      deps.store.delivered(d);
      deps.logger.debug({ ...log, status, outcome: "delivered" });
    } else if (status === 410) {
      deps.store.remove(d.topic, d.callback);
      deps.logger.info({ ...log, status, outcome: "gone" }, "subscriber answered 410; subscription removed");
    } else {
      const outcome = deps.store.failed(d, Date.now(), deps.retryDelaysMs, MAX_CONSECUTIVE_FAILURES);
      deps.logger.info(
        { ...log, status, err: error, outcome: outcome.removed ? "removed" : "retry" },
        "delivery failed",
      );
      if (!outcome.removed) schedule();
    }
  }

  function schedule() {
    if (closed) return;
    const next = deps.store.nextDueAt();
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (next === undefined) return;
    timer = setTimeout(wake, Math.max(0, next - Date.now()) + 5);
    timer.unref();
  }

  function wake() {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        const now = Date.now();
        const due = deps.store.claimDue(now, now + 2 * deps.timeoutMs + 1000, BATCH);
        for (const d of due) {
          void hostQueue(new URL(d.callback).host).add(() => global.add(() => deliverOne(d)));
        }
        if (due.length === BATCH) again = true;
      } while (again);
    } finally {
      pumping = false;
    }
    schedule();
  }

  return {
    wake,
    async idle() {
      while (global.size + global.pending > 0 || [...perHost.values()].some((q) => q.size + q.pending > 0)) {
        await Promise.all([global.onIdle(), ...[...perHost.values()].map((q) => q.onIdle())]);
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const q of perHost.values()) q.clear();
      await global.onIdle();
    },
  };
}
