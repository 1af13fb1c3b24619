// Trigram posting lists for the index writer. Each review's distinct trigrams are found once with an
// open-addressing table (no Set of boxed numbers); a list is stored as ranks, or as a bitmap of one bit per
// review when that is smaller (frequent trigrams such as " th" are in most reviews).
import { trigramKey } from "./index-keys.ts";

export interface TrigramPostings {
  /** Sorted trigram keys; position k describes list k. */
  keys: Float64Array;
  /** Reviews per list. */
  counts: Uint32Array;
  /** 1 when list k is a bitmap (ceil(n/32) words), 0 when it is ascending ranks. */
  bitmap: Uint8Array;
  offsets: Uint32Array;
  data: Int32Array;
}

const mix = (c0: number, c1: number, c2: number) =>
  Math.imul(Math.imul(c0, 0x01000193) ^ Math.imul(c1, 0x9e3779b1) ^ c2, 0x85ebca6b) ^ (c0 >>> 3);

/** Trigram key -> dense id (in first-seen order), open addressing, growing by doubling. */
class KeyTable {
  keys = new Float64Array(1 << 12).fill(-1);
  ids = new Int32Array(1 << 12);
  size = 0;
  idOf(key: number, hash: number): number {
    const mask = this.keys.length - 1;
    let slot = hash & mask;
    while (this.keys[slot] !== -1) {
      if (this.keys[slot] === key) return this.ids[slot];
      slot = (slot + 1) & mask;
    }
    if (2 * (this.size + 1) > this.keys.length) {
      this.grow();
      return this.idOf(key, hash);
    }
    this.keys[slot] = key;
    this.ids[slot] = this.size;
    return this.size++;
  }
  private grow() {
    const { keys, ids } = this;
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.ids = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let s = 0; s < keys.length; s++) {
      const key = keys[s];
      if (key === -1) continue;
      let slot = mix(Math.floor(key / 4294967296), (key / 65536) & 0xffff, key & 0xffff) & mask;
      while (this.keys[slot] !== -1) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.ids[slot] = ids[s];
    }
  }
}

/** `folded`: two strings per review (folded title, folded text), in rank order. */
export function trigramPostings(folded: readonly string[], n: number): TrigramPostings {
  const table = new KeyTable();
  const keyOfId: number[] = [];
  let seen = new Int32Array(1 << 12).fill(-1);
  // Distinct ids per review, flattened: perReview[starts[r] .. starts[r+1]).
  let perReview = new Int32Array(1 << 16);
  const starts = new Uint32Array(n + 1);
  let used = 0;
  for (let rank = 0; rank < n; rank++) {
    for (let part = 2 * rank; part < 2 * rank + 2; part++) {
      const s = folded[part];
      for (let i = 0; i + 3 <= s.length; i++) {
        const id = table.idOf(trigramKey(s, i), mix(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2)));
        const key = trigramKey(s, i);
        if (id === keyOfId.length) keyOfId.push(key);
        if (id >= seen.length) {
          const grown = new Int32Array(seen.length * 2).fill(-1);
          grown.set(seen);
          seen = grown;
        }
        if (seen[id] === rank) continue;
        seen[id] = rank;
        if (used === perReview.length) {
          const grown = new Int32Array(perReview.length * 2);
          grown.set(perReview);
          perReview = grown;
        }
        perReview[used++] = id;
      }
    }
    starts[rank + 1] = used;
  }
  const ids = keyOfId.length;
  const sortedIds = Int32Array.from(keyOfId.keys()).sort((a, b) => keyOfId[a] - keyOfId[b]);
  const posOfId = new Int32Array(ids);
  for (let pos = 0; pos < ids; pos++) posOfId[sortedIds[pos]] = pos;

  const counts = new Uint32Array(ids);
  for (let i = 0; i < used; i++) counts[posOfId[perReview[i]]]++;
  const words = Math.ceil(n / 32);
  const bitmap = Uint8Array.from(counts, (c) => (c > words ? 1 : 0));
  const offsets = new Uint32Array(ids + 1);
  for (let k = 0; k < ids; k++) offsets[k + 1] = offsets[k] + (bitmap[k] ? words : counts[k]);
  const data = new Int32Array(offsets[ids]);
  const fill = offsets.slice(0, ids);
  for (let rank = 0; rank < n; rank++) {
    for (let i = starts[rank]; i < starts[rank + 1]; i++) {
      const k = posOfId[perReview[i]];
      if (bitmap[k]) data[offsets[k] + (rank >>> 5)] |= 1 << (rank & 31);
      else data[fill[k]++] = rank;
    }
  }
  return { keys: Float64Array.from(sortedIds, (id) => keyOfId[id]), counts, bitmap, offsets, data };
}
