// Word postings for match=words, written by the index writer: for each word key (word-fold.ts) the ranks of the
// reviews holding it, with the word's weighted count in each, and each review's weighted length (for BM25).
import { keyOfWord, rawWordsOf } from "./word-fold.ts";

/** A title word counts this many times a text word, in the weights and in the lengths. */
export const TITLE_WEIGHT = 3;
/** Weights are kept in one byte: a word said more than this often in one review counts this often. */
const MAX_WEIGHT = 255;

export interface WordPostings {
  /** The word keys as UTF-8, sorted bytewise (Buffer.compare), key k at keyBytes[keyOffsets[k], keyOffsets[k+1]). */
  keyBytes: Uint8Array;
  keyOffsets: Uint32Array;
  /** Key k's postings are ranks[postingOffsets[k], postingOffsets[k+1]), ascending, with their weights. */
  postingOffsets: Uint32Array;
  ranks: Int32Array;
  /** TITLE_WEIGHT x count in the title + count in the text, at most MAX_WEIGHT. */
  weights: Uint8Array;
  /** Each review's weighted word count (stop words left out), by rank. */
  lengths: Uint32Array;
}

/** `folded`: two strings per review (folded title, folded text), in rank order. */
export function wordPostings(folded: readonly string[], n: number): WordPostings {
  // Folded word -> key id (-1: a stop word), so each distinct word is stemmed once and looked up once per use.
  const idOfWord = new Map<string, number>();
  const idOfKey = new Map<string, number>();
  const keys: string[] = [];
  // (id, weight) pairs of every review, flattened: pairs[2 * starts[r] .. 2 * starts[r+1]).
  let pairs = new Int32Array(1 << 16);
  const starts = new Uint32Array(n + 1);
  const lengths = new Uint32Array(n);
  let weightOf = new Int32Array(1 << 12);
  let used = 0;
  for (let rank = 0; rank < n; rank++) {
    const touched: number[] = [];
    for (let part = 0; part < 2; part++) {
      const weight = part === 0 ? TITLE_WEIGHT : 1;
      for (const word of rawWordsOf(folded[2 * rank + part])) {
        let id = idOfWord.get(word);
        if (id === undefined) {
          const key = keyOfWord(word);
          id = key === "" ? -1 : idOfKey.get(key);
          if (id === undefined) {
            id = keys.length;
            idOfKey.set(key, id);
            keys.push(key);
            if (id >= weightOf.length) {
              const grown = new Int32Array(weightOf.length * 2);
              grown.set(weightOf);
              weightOf = grown;
            }
          }
          idOfWord.set(word, id);
        }
        if (id < 0) continue;
        if (weightOf[id] === 0) touched.push(id);
        weightOf[id] += weight;
        lengths[rank] += weight;
      }
    }
    if (2 * (used + touched.length) > pairs.length) {
      const grown = new Int32Array(Math.max(pairs.length * 2, 2 * (used + touched.length)));
      grown.set(pairs);
      pairs = grown;
    }
    for (const id of touched) {
      pairs[2 * used] = id;
      pairs[2 * used + 1] = Math.min(MAX_WEIGHT, weightOf[id]);
      used++;
      weightOf[id] = 0;
    }
    starts[rank + 1] = used;
  }

  const encoded = keys.map((k) => Buffer.from(k));
  const sortedIds = Int32Array.from(keys.keys()).sort((a, b) => Buffer.compare(encoded[a], encoded[b]));
  const posOfId = new Int32Array(keys.length);
  for (let pos = 0; pos < keys.length; pos++) posOfId[sortedIds[pos]] = pos;
  const keyOffsets = new Uint32Array(keys.length + 1);
  for (let pos = 0; pos < keys.length; pos++) keyOffsets[pos + 1] = keyOffsets[pos] + encoded[sortedIds[pos]].length;
  const keyBytes = Buffer.concat(Array.from(sortedIds, (id) => encoded[id]));

  const postingOffsets = new Uint32Array(keys.length + 1);
  for (let i = 0; i < used; i++) postingOffsets[posOfId[pairs[2 * i]] + 1]++;
  for (let k = 0; k < keys.length; k++) postingOffsets[k + 1] += postingOffsets[k];
  const ranks = new Int32Array(used);
  const weights = new Uint8Array(used);
  const fill = postingOffsets.slice(0, keys.length);
  // Reviews in rank order, so every list comes out ascending.
  for (let rank = 0; rank < n; rank++) {
    for (let i = starts[rank]; i < starts[rank + 1]; i++) {
      const at = fill[posOfId[pairs[2 * i]]]++;
      ranks[at] = rank;
      weights[at] = pairs[2 * i + 1];
    }
  }
  return { keyBytes, keyOffsets, postingOffsets, ranks, weights, lengths };
}
