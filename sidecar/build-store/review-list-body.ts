// JSON answers that end in a list of reviews, assembled from the exact bytes of reviews.json (no objects, no
// re-serialising): `{...envelope, "reviews": [<review bytes>, ...]}` with the envelope's keys first.
import type { Snapshot } from "./snapshot.ts";

export function reviewListBody(
  snapshot: Pick<Snapshot, "reviewBytes">,
  envelope: Record<string, unknown>,
  ranks: ArrayLike<number>,
): Buffer {
  const json = JSON.stringify(envelope);
  const head = Buffer.from(`${json === "{}" ? "{" : `${json.slice(0, -1)},`}"reviews":[`);
  // Each review's bytes asked for once (they may come from disk).
  const reviews: Buffer[] = new Array(ranks.length);
  let size = head.length + 2 + Math.max(0, ranks.length - 1);
  for (let i = 0; i < ranks.length; i++) {
    reviews[i] = snapshot.reviewBytes(ranks[i]);
    size += reviews[i].length;
  }
  const body = Buffer.allocUnsafe(size);
  let at = head.copy(body, 0);
  for (let i = 0; i < ranks.length; i++) {
    if (i > 0) body[at++] = 0x2c; // ,
    at += reviews[i].copy(body, at);
  }
  body[at++] = 0x5d; // ]
  body[at++] = 0x7d; // }
  return body;
}
