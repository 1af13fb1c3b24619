// Large streamed answers (since a date long ago: megabytes) are cheap per chunk but long: a client that opens many
// at once holds many sockets and reads of the same bytes. Each client address may have a few in flight; one more
// gets 429 with a Retry-After from the progress of its own streams (when the first of them should end at the pace
// it is being read), so a client that waits that long gets through.
import type { Response } from "express";
import { HEAVY_ANSWER_BYTES, HEAVY_ANSWERS_PER_CLIENT } from "../../src/domain/limits.ts";
import { HttpError } from "./errors.ts";

const RETRY_MAX_SECONDS = 60;

interface Stream {
  total: number;
  started: number;
  res: Response;
}

export function heavyAnswers(limit = HEAVY_ANSWERS_PER_CLIENT) {
  const byClient = new Map<string, Set<Stream>>();
  /** Seconds until the client's nearest stream should be done, from its pace so far (1 to 60). */
  const retryAfter = (streams: Set<Stream>) => {
    let soonest = RETRY_MAX_SECONDS;
    for (const s of streams) {
      const sent = s.res.socket?.bytesWritten ?? 0;
      const elapsed = (performance.now() - s.started) / 1000;
      const eta = sent > 0 ? ((s.total - Math.min(sent, s.total)) * elapsed) / sent : RETRY_MAX_SECONDS;
      soonest = Math.min(soonest, eta);
    }
    return Math.max(1, Math.ceil(soonest));
  };
  return {
    /** Counts the answer against its client until the response closes; throws 429 when the client is at its cap. */
    admit(client: string, res: Response, total: number): void {
      if (total < HEAVY_ANSWER_BYTES) return;
      let streams = byClient.get(client);
      if (streams && streams.size >= limit)
        throw new HttpError(
          429,
          "too_many_large_answers",
          `At most ${limit} answers over ${HEAVY_ANSWER_BYTES} bytes at a time per client; page with limit and cursor, or wait.`,
          { "Retry-After": String(retryAfter(streams)) },
        );
      if (!streams) {
        streams = new Set();
        byClient.set(client, streams);
      }
      const stream: Stream = { total, started: performance.now(), res };
      streams.add(stream);
      const s = streams;
      res.once("close", () => {
        s.delete(stream);
        if (s.size === 0) byClient.delete(client);
      });
    },
  };
}
