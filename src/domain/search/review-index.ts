// In-memory indexes over one dataset, built once per loaded build. Ranks are positions in newest-first order,
// so every posting list in ascending rank order is already in the default result order.
import { compareOldest } from "../order.ts";
import type { Business, ReviewRecord } from "../schemas/published.ts";
import { catalogLookup } from "../validate-content.ts";
import { foldText } from "./text-match.ts";

export interface ReviewIndex {
  /** Newest first (the dataset's own order). */
  readonly reviews: readonly ReviewRecord[];
  readonly byId: ReadonlyMap<string, ReviewRecord>;
  /** Oldest first, for the since endpoint. */
  readonly oldestFirst: readonly ReviewRecord[];
  readonly folded: readonly { title: string; text: string }[];
  readonly ratings: readonly Int32Array[];
  readonly technicians: ReadonlyMap<string, Int32Array>;
  readonly services: ReadonlyMap<string, Int32Array>;
  /** Keyed by trigramKey(); postings ascending. */
  readonly trigrams: ReadonlyMap<number, Int32Array>;
  resolveTechnician(ref: string): string | undefined;
  resolveService(ref: string): string | undefined;
}

/** Three UTF-16 code units as one number, so indexing allocates no strings. */
export function trigramKey(s: string, i: number): number {
  return s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);
}

/** Adds the trigram keys of `folded` to `into` (cleared by the caller). */
export function addTrigrams(folded: string, into: Set<number>): Set<number> {
  for (let i = 0; i + 3 <= folded.length; i++) into.add(trigramKey(folded, i));
  return into;
}

function pushTo(map: Map<string, number[]>, key: string, rank: number) {
  const list = map.get(key);
  if (list) list.push(rank);
  else map.set(key, [rank]);
}

function freeze(map: Map<string, number[]>): Map<string, Int32Array> {
  return new Map([...map].map(([k, v]) => [k, Int32Array.from(v)]));
}

/** `reviews` must be newest first, as in reviews.json. */
export function buildReviewIndex(business: Business, reviews: readonly ReviewRecord[]): ReviewIndex {
  const ratings: number[][] = [[], [], [], [], [], []];
  const technicians = new Map<string, number[]>();
  const services = new Map<string, number[]>();
  const folded: { title: string; text: string }[] = [];
  const byId = new Map<string, ReviewRecord>();
  reviews.forEach((r, rank) => {
    byId.set(r.id, r);
    ratings[r.rating].push(rank);
    for (const t of r.mentions.technicians) pushTo(technicians, t, rank);
    for (const s of r.mentions.services) pushTo(services, s, rank);
    folded.push({ title: foldText(r.title ?? ""), text: foldText(r.text) });
  });
  // Two passes (count, then fill exact-size arrays): growing millions of JS arrays would multiply the peak memory.
  const grams = new Set<number>();
  const gramsOf = (rank: number) => {
    grams.clear();
    addTrigrams(folded[rank].title, grams);
    return addTrigrams(folded[rank].text, grams);
  };
  const counts = new Map<number, number>();
  for (let rank = 0; rank < reviews.length; rank++)
    for (const g of gramsOf(rank)) counts.set(g, (counts.get(g) ?? 0) + 1);
  const trigrams = new Map<number, Int32Array>();
  const fill = new Map<number, number>();
  for (const [g, n] of counts) {
    trigrams.set(g, new Int32Array(n));
    fill.set(g, 0);
  }
  for (let rank = 0; rank < reviews.length; rank++) {
    for (const g of gramsOf(rank)) {
      const at = fill.get(g) as number;
      (trigrams.get(g) as Int32Array)[at] = rank;
      fill.set(g, at + 1);
    }
  }
  const techLookup = catalogLookup(business.technicians);
  const serviceIds = new Set(business.services.map((s) => s.id));
  return {
    reviews,
    byId,
    oldestFirst: [...reviews].sort(compareOldest),
    folded,
    ratings: ratings.map((r) => Int32Array.from(r)),
    technicians: freeze(technicians),
    services: freeze(services),
    trigrams,
    resolveTechnician: techLookup,
    resolveService: (ref) => {
      const id = ref.trim().toLowerCase();
      return serviceIds.has(id) ? id : undefined;
    },
  };
}
