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
  /** Key k is in postingOffsets[k+1] - postingOffsets[k] reviews; its weights start at postingOffsets[k]. */
  postingOffsets: Uint32Array;
  /**
   * Key k's ranks, ascending, at rankBytes[rankByteOffsets[k], rankByteOffsets[k+1]): each the gap from the one
   * before (from -1 for the first) less one, as an unsigned LEB128 varint. A frequent word's gaps are small, so
   * most ranks take one byte instead of four.
   */
  rankBytes: Uint8Array;
  rankByteOffsets: Uint32Array;
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
  const { rankBytes, rankByteOffsets } = encodeRanks(ranks, postingOffsets);
  return { keyBytes, keyOffsets, postingOffsets, rankBytes, rankByteOffsets, weights, lengths };
}

/** Each list of `ranks` (split at `offsets`) as varint gaps (WordPostings.rankBytes). */
function encodeRanks(ranks: Int32Array, offsets: Uint32Array) {
  const lists = offsets.length - 1;
  const rankByteOffsets = new Uint32Array(lists + 1);
  const bytes = new Uint8Array(5 * ranks.length);
  let at = 0;
  for (let k = 0; k < lists; k++) {
    let previous = -1;
    for (let i = offsets[k]; i < offsets[k + 1]; i++) {
      let gap = ranks[i] - previous - 1;
      previous = ranks[i];
      while (gap >= 0x80) {
        bytes[at++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      bytes[at++] = gap;
    }
    rankByteOffsets[k + 1] = at;
  }
  return { rankBytes: bytes.slice(0, at), rankByteOffsets };
}

/** The `count` ranks varint-encoded in bytes[from, ...) (encodeRanks' format), ascending. */
export function decodeRanks(bytes: Uint8Array, from: number, count: number): Int32Array {
  const ranks = new Int32Array(count);
  let at = from;
  let previous = -1;
  for (let i = 0; i < count; i++) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++];
      gap |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    previous += gap + 1;
    ranks[i] = previous;
  }
  return ranks;
}
