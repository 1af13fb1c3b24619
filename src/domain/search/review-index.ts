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
  readonly trigrams: ReadonlyMap<string, Int32Array>;
  resolveTechnician(ref: string): string | undefined;
  resolveService(ref: string): string | undefined;
}

export function trigramsOf(folded: string): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= folded.length; i++) grams.add(folded.slice(i, i + 3));
  return grams;
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
  const trigrams = new Map<string, number[]>();
  const folded: { title: string; text: string }[] = [];
  const byId = new Map<string, ReviewRecord>();
  reviews.forEach((r, rank) => {
    byId.set(r.id, r);
    ratings[r.rating].push(rank);
    for (const t of r.mentions.technicians) pushTo(technicians, t, rank);
    for (const s of r.mentions.services) pushTo(services, s, rank);
    const f = { title: foldText(r.title ?? ""), text: foldText(r.text) };
    folded.push(f);
    const grams = trigramsOf(f.title);
    for (const g of trigramsOf(f.text)) grams.add(g);
    for (const g of grams) pushTo(trigrams, g, rank);
  });
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
    trigrams: freeze(trigrams),
    resolveTechnician: techLookup,
    resolveService: (ref) => {
      const id = ref.trim().toLowerCase();
      return serviceIds.has(id) ? id : undefined;
    },
  };
}
