// match=words: the reviews holding every word of the query, found by intersecting word postings (no review text is
// read), scored by BM25 over title and text.
import type { RankList } from "./order-ranks.ts";
import type { ReviewIndex } from "./review-index.ts";

/** BM25's usual constants: how fast a repeated word stops adding, and how much a long review is discounted. */
const K1 = 1.2;
const B = 0.75;
/** Scores are whole thousandths, so a cursor's key and the order compare exact integers. */
const SCALE = 1000;
/** Ranks fit below this in a sort key (a build of more reviews than this is refused long before: 4 GiB). */
const RANK_SPAN = 2 ** 27;

export interface WordMatches {
  /** Ascending (newest first). */
  ranks: Int32Array;
  /** BM25 x SCALE, rounded, of ranks[i]. */
  scores: Int32Array;
}

/** First position >= `from` of `list` whose value is >= x: galloping, so a long list is skipped through in few steps. */
function gallop(list: Int32Array, from: number, x: number): number {
  const length = list.length;
  if (from >= length || list[from] >= x) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < length && list[hi] < x) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  hi = Math.min(hi, length);
  // list[lo] < x, and list[hi] >= x or hi === length.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < x) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The candidates as a typed array, or as [first, last] when they are every rank between (no filter). */
function candidateSet(candidates: RankList): Int32Array | [number, number] {
  const n = candidates.length;
  if (n === 0) return [0, -1];
  const first = candidates.at(0);
  const last = candidates.at(n - 1);
  if (last - first === n - 1) return [first, last];
  return Int32Array.from({ length: n }, (_, i) => candidates.at(i));
}

/**
 * The candidates holding every key of `keys` (word-fold.ts, at least one), with their BM25 scores: for each key,
 * idf x w (K1 + 1) / (w + K1 (1 - B + B len / average len)), w the key's weighted count in the review
 * (title x TITLE_WEIGHT + text) and len the review's weighted length.
 */
export function wordMatches(index: ReviewIndex, keys: readonly string[], candidates: RankList): WordMatches {
  const lists = keys.map((k) => index.word(k));
  const n = index.count;
  const idf = lists.map((l) => Math.log(1 + (n - l.ranks.length + 0.5) / (l.ranks.length + 0.5)));
  const order = lists.map((_, i) => i).sort((a, b) => lists[a].ranks.length - lists[b].ranks.length);
  const shortest = lists[order[0]].ranks;
  const ranks = new Int32Array(shortest.length);
  const scores = new Int32Array(shortest.length);
  const positions = new Int32Array(lists.length);
  const lengths = index.wordLengths;
  const average = index.wordLengthAverage || 1;
  const allowed = candidateSet(candidates);
  const range = Array.isArray(allowed) ? allowed : undefined;
  const listed = Array.isArray(allowed) ? undefined : allowed;
  let c = 0;
  let found = 0;
  outer: for (let i = 0; i < shortest.length; i++) {
    const rank = shortest[i];
    if (range) {
      if (rank < range[0]) continue;
      if (rank > range[1]) break;
    } else if (listed) {
      c = gallop(listed, c, rank);
      if (c === listed.length) break;
      if (listed[c] !== rank) continue;
    }
    positions[order[0]] = i;
    for (let k = 1; k < order.length; k++) {
      const list = lists[order[k]].ranks;
      const p = gallop(list, positions[order[k]], rank);
      positions[order[k]] = p;
      if (p === list.length) break outer;
      if (list[p] !== rank) continue outer;
    }
    const norm = K1 * (1 - B + (B * lengths[rank]) / average);
    let score = 0;
    for (let k = 0; k < lists.length; k++) {
      const w = lists[k].weights[positions[k]];
      score += (idf[k] * w * (K1 + 1)) / (w + norm);
    }
    ranks[found] = rank;
    scores[found++] = Math.round(score * SCALE);
  }
  return { ranks: ranks.subarray(0, found), scores: scores.subarray(0, found) };
}

/** `matches` by score, highest first, ties newest first (rank order), as the substring relevance orders. */
export function byScore({ ranks, scores }: WordMatches): WordMatches {
  // One native numeric sort of packed keys instead of a comparator over pairs.
  const keyed = new Float64Array(ranks.length);
  for (let i = 0; i < ranks.length; i++) keyed[i] = ranks[i] - scores[i] * RANK_SPAN;
  keyed.sort();
  const sortedRanks = new Int32Array(ranks.length);
  const sortedScores = new Int32Array(ranks.length);
  for (let i = 0; i < keyed.length; i++) {
    const rank = ((keyed[i] % RANK_SPAN) + RANK_SPAN) % RANK_SPAN;
    sortedRanks[i] = rank;
    sortedScores[i] = (rank - keyed[i]) / RANK_SPAN;
  }
  return { ranks: sortedRanks, scores: sortedScores };
}
