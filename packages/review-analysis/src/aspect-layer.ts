// The learned aspect layer: per review and per aspect, a four-way logistic regression (absent /
// positive / negative / neutral, the absent class's score fixed at 0) decides whether the review speaks of the
// aspect and with which polarity, trained by npm run eval:aspects -- --write (scripts/eval/aspect-layer.ts) and
// read from model/aspect-layer.json. Its inputs are shared with the review-label model: the review's hashed
// words (the same buckets, hashed once per review), the combiner's inputs (the rules' findings and the text
// model's log-probabilities of the labels) and, per aspect, which polarities the rules gave it. Each bucket's row
// holds the weights of every aspect and class (one look-up per bucket). Beside them, for an aspect the rules found,
// its local words: the buckets of the clauses the rules found it in (the same hashing pass, by the places of the
// features), whose rows hold one weight per polarity shared by every aspect, so that in "great tech, awful
// office" each aspect's polarity is read from its own clause while presence still sees the whole review. An aspect is given when its probability
// of being present reaches the file's threshold (one for aspects the rules found, one for those they missed); its
// polarity is the most probable; its quote is the rules' quote of that polarity (else their first for the
// aspect), or for an aspect the rules missed the clause whose words most support the decision.

import { type BucketRows, bucketRows, finiteNumbers, rowOf, tenThousandths, WEIGHT_UNIT } from "./bucket-rows.ts";
import modelFile from "./model/aspect-layer.json" with { type: "json" };
import { COMBINER_FEATURES, type ReviewModel } from "./review-model.ts";
import type { Span } from "./segment.ts";
import type { BucketPlaces, TextFeatureConfig } from "./text-features.ts";
import { ASPECTS, type Aspect, type Sentiment } from "./vocabulary.ts";

/** The layer version this engine reads (bump it, and retrain, when the features, the training or the files change). */
export const ASPECT_LAYER_VERSION = "aspect-layer@1.2.0";
/** What the layer decides per aspect; class 0 ("the review says nothing of it") scores 0. */
export const ASPECT_CLASSES = ["absent", "positive", "negative", "neutral"] as const;
/** The polarities scored (ASPECT_CLASSES without absent), in the order of each aspect's weights. */
export const ASPECT_POLARITIES: readonly Sentiment[] = ["positive", "negative", "neutral"];
/** Per aspect: whether the rules gave it each polarity (0 or 1), then the review model's combiner inputs. */
export const ASPECT_DENSE: readonly string[] = [...ASPECT_POLARITIES.map((p) => `rules_${p}`), ...COMBINER_FEATURES];
const FLAGS = ASPECT_POLARITIES.length;
const C = ASPECT_POLARITIES.length;
const A = ASPECTS.length;
/** Weights per bucket: every aspect's, each class's. */
const ROW = A * C;
const D = ASPECT_DENSE.length;
const SHARED = COMBINER_FEATURES.length;

export interface AspectMention {
  aspect: Aspect;
  polarity: Sentiment;
  quote: string;
}

/** The file's form (model/aspect-layer.json). Weights are aspect-major, then class (ASPECT_POLARITIES). */
export interface AspectLayerFile {
  version: string;
  aspects: readonly string[];
  classes: readonly string[];
  /** Each file the layer learned from, with its sha256. */
  files: Record<string, string>;
  /** The training settings and cross-validated figures (for the record). */
  training: Record<string, unknown>;
  /** Must be the review model's (the buckets are hashed once for both). */
  features: TextFeatureConfig;
  /** The shared dense inputs' standardisation (COMBINER_FEATURES; the rules' flags are read as they are). */
  dense: { features: string[]; mean: number[]; scale: number[] };
  /** Least probability of being present for an aspect the rules found, and for one they did not. */
  presence: { found: number; added: number };
  bias: number[];
  /** ROW × D: per aspect and class, a weight per ASPECT_DENSE input. */
  denseWeights: number[];
  buckets: number[];
  /** ROW weights per bucket, 4 decimals. */
  weights: number[];
  /** The local words' buckets (localBuckets) and C weights per bucket (ASPECT_POLARITIES, every aspect's), 4 decimals. */
  local: { buckets: number[]; weights: number[] };
}

export interface AspectLayer {
  version: string;
  files: Readonly<Record<string, string>>;
  features: TextFeatureConfig;
  presence: { found: number; added: number };
  mean: Float64Array;
  scale: Float64Array;
  bias: Float64Array;
  denseWeights: Float64Array;
  rows: BucketRows;
  weights: Int16Array | Int32Array;
  localRows: BucketRows;
  localWeights: Int16Array | Int32Array;
}

function refuse(why: string): never {
  throw new Error(`aspect layer: ${why}`);
}

const numbers = (x: unknown, length: number, what: string): Float64Array =>
  finiteNumbers(x, length) ?? refuse(`${what} must be ${length} finite numbers`);

/** A table of per-bucket weights (one row per bucket, at most 4 decimals), as the engine reads it. */
const weightTable = (x: unknown, length: number, what: string): Int16Array | Int32Array =>
  tenThousandths(numbers(x, length, `${what} (one row per bucket)`)) ?? refuse(`${what} must have at most 4 decimals`);

const sameFeatures = (a: TextFeatureConfig, b: TextFeatureConfig) =>
  a.bits === b.bits && a.bigrams === b.bigrams && a.chars === b.chars && a.negationScope === b.negationScope;

/**
 * Checks a parsed layer file against the review model whose buckets it reads and builds its scoring tables;
 * another version or shape is refused, saying why.
 */
export function loadAspectLayer(file: unknown, reviewModel: Pick<ReviewModel, "features">): AspectLayer {
  const f = file as Partial<AspectLayerFile>;
  if (typeof f !== "object" || f === null) refuse("not a JSON object");
  if (f.version !== ASPECT_LAYER_VERSION)
    refuse(`version ${JSON.stringify(f.version)}, this engine reads ${ASPECT_LAYER_VERSION} (retrain or bump it)`);
  if (JSON.stringify(f.aspects) !== JSON.stringify(ASPECTS)) refuse(`aspects must be ${ASPECTS.join(", ")}`);
  if (JSON.stringify(f.classes) !== JSON.stringify(ASPECT_CLASSES))
    refuse(`classes must be ${ASPECT_CLASSES.join(", ")}`);
  if (JSON.stringify(f.dense?.features) !== JSON.stringify(COMBINER_FEATURES))
    refuse(`dense features must be ${COMBINER_FEATURES.join(", ")}`);
  if (!f.features || !sameFeatures(f.features, reviewModel.features))
    refuse(`features ${JSON.stringify(f.features)} must be the review model's ${JSON.stringify(reviewModel.features)}`);
  const presence = f.presence;
  const probability = (p: unknown) => typeof p === "number" && p >= 0 && p <= 1;
  if (!presence || !probability(presence.found) || !probability(presence.added))
    refuse("presence.found and presence.added must be probabilities");
  const buckets = f.buckets ?? [];
  const rows = bucketRows(buckets, f.features.bits) ?? refuse("buckets must be increasing bucket ids below 2^bits");
  const localBucketIds = f.local?.buckets ?? [];
  const localRows =
    bucketRows(localBucketIds, f.features.bits) ?? refuse("local.buckets must be increasing bucket ids below 2^bits");
  return {
    version: f.version,
    files: { ...(f.files ?? {}) },
    features: f.features,
    presence: { found: presence.found, added: presence.added },
    mean: numbers(f.dense?.mean, SHARED, "dense.mean"),
    scale: numbers(f.dense?.scale, SHARED, "dense.scale"),
    bias: numbers(f.bias, ROW, "bias"),
    denseWeights: numbers(f.denseWeights, ROW * D, "denseWeights"),
    rows,
    weights: weightTable(f.weights, buckets.length * ROW, "weights"),
    localRows,
    localWeights: weightTable(f.local?.weights, localBucketIds.length * C, "local.weights"),
  };
}

// Scratch space, reused (one review at a time): the row sums, the scores, the standardised shared inputs.
const scratch = {
  sums: new Float64Array(ROW),
  z: new Float64Array(ROW),
  shared: new Float64Array(SHARED),
  flags: new Uint8Array(A * FLAGS),
  local: new Float64Array(C),
};

/** Per aspect, its local words' buckets: those of aspect a are buckets[start[a] … start[a + 1]), sorted, each once. */
export interface LocalGroups {
  start: Int32Array;
  buckets: Int32Array;
}

// localBuckets' buffers, reused (grown when a review needs more): the groups, each clause's aspects (a bit each),
// each feature's clause.
const localScratch = {
  groups: { start: new Int32Array(A + 1), buckets: new Int32Array(256) } as LocalGroups,
  aspectsOf: new Uint16Array(64),
  clauseOf: new Int32Array(1024),
  at: new Int32Array(A),
};

/**
 * The local words of each aspect the rules found: the buckets of the features (the places of textBuckets) whose
 * word lies in a clause the rules quote for the aspect (a word belongs to the last clause of its part starting at
 * or before it). A view of buffers the next call overwrites.
 */
export function localBuckets(review: Pick<LayerReview, "clauses" | "places" | "rules">): LocalGroups {
  const { clauses, places, rules } = review;
  const ls = localScratch;
  const { start } = ls.groups;
  start.fill(0);
  if (rules.length === 0) return ls.groups;
  let total = 0;
  for (const c of clauses) total += c.length;
  if (ls.aspectsOf.length < total) ls.aspectsOf = new Uint16Array(total * 2);
  const aspectsOf = ls.aspectsOf;
  aspectsOf.fill(0, 0, total);
  for (const m of rules) {
    const bit = 1 << ASPECTS.indexOf(m.aspect);
    for (let p = 0, g = 0; p < clauses.length; g += clauses[p].length, p++)
      for (let s = 0; s < clauses[p].length; s++) if (clauses[p][s].text === m.quote) aspectsOf[g + s] |= bit;
  }
  const { count, bucket, part, offset } = places;
  if (ls.clauseOf.length < count) ls.clauseOf = new Int32Array(count * 2);
  const clauseOf = ls.clauseOf;
  // Each feature's clause (-1: none) and how many features each aspect gets (counted at start[a + 1]).
  let p = -1;
  let first = 0;
  let s = 0;
  for (let j = 0; j < count; j++) {
    if (part[j] !== p) {
      while (p < part[j]) {
        if (p >= 0) first += clauses[p].length;
        p++;
      }
      s = 0;
    }
    const spans = clauses[p];
    if (spans === undefined || spans.length === 0) {
      clauseOf[j] = -1;
      continue;
    }
    while (s + 1 < spans.length && spans[s + 1].start <= offset[j]) s++;
    clauseOf[j] = first + s;
    for (let bits = aspectsOf[first + s], a = 0; bits !== 0; bits >>= 1, a++) if (bits & 1) start[a + 1]++;
  }
  for (let a = 0; a < A; a++) start[a + 1] += start[a];
  if (ls.groups.buckets.length < start[A]) ls.groups.buckets = new Int32Array(start[A] * 2);
  const buckets = ls.groups.buckets;
  const at = ls.at;
  at.set(start.subarray(0, A));
  for (let j = 0; j < count; j++) {
    if (clauseOf[j] < 0) continue;
    for (let bits = aspectsOf[clauseOf[j]], a = 0; bits !== 0; bits >>= 1, a++)
      if (bits & 1) buckets[at[a]++] = bucket[j];
  }
  // Each group sorted, each bucket once (compacted in place).
  let n = 0;
  for (let a = 0; a < A; a++) {
    const group = buckets.subarray(start[a], start[a + 1]).sort();
    start[a] = n;
    for (let i = 0, last = -1; i < group.length; i++) if (group[i] !== last) last = buckets[n++] = group[i];
  }
  start[A] = n;
  return ls.groups;
}

/**
 * Every aspect's class scores for a review (ROW: aspect-major, ASPECT_POLARITIES; absent scores 0): its buckets
 * (textBuckets of the layer's features), the review model's combiner inputs, the rules' aspects and their local
 * words (localBuckets). A view of a buffer the next call overwrites.
 */
export function aspectScores(
  layer: AspectLayer,
  buckets: Int32Array,
  inputs: Float64Array,
  rules: readonly { aspect: Aspect; polarity: Sentiment }[],
  local: LocalGroups,
): Float64Array {
  const { sums, z, shared } = scratch;
  sums.fill(0);
  const w = layer.weights;
  for (let j = 0; j < buckets.length; j++) {
    const r = rowOf(layer.rows, buckets[j]);
    if (r < 0) continue;
    const o = r * ROW;
    for (let k = 0; k < ROW; k++) sums[k] += w[o + k];
  }
  const v = buckets.length ? 1 / (Math.sqrt(buckets.length) * WEIGHT_UNIT) : 0;
  for (let j = 0; j < SHARED; j++) shared[j] = (inputs[j] - layer.mean[j]) / layer.scale[j];
  const dw = layer.denseWeights;
  for (let k = 0; k < ROW; k++) {
    let t = layer.bias[k] + sums[k] * v;
    const o = k * D + FLAGS;
    for (let j = 0; j < SHARED; j++) t += dw[o + j] * shared[j];
    z[k] = t;
  }
  // Whether the rules gave each aspect each polarity (once, however many clauses gave it).
  const flags = scratch.flags;
  flags.fill(0);
  for (const m of rules) flags[ASPECTS.indexOf(m.aspect) * FLAGS + ASPECT_POLARITIES.indexOf(m.polarity)] = 1;
  for (let a = 0; a < A; a++)
    for (let flag = 0; flag < FLAGS; flag++)
      if (flags[a * FLAGS + flag]) for (let c = 0; c < C; c++) z[a * C + c] += dw[(a * C + c) * D + flag];
  // Each aspect's local words, length-normalised as the review's.
  const lw = layer.localWeights;
  const sum = scratch.local;
  for (let a = 0; a < A; a++) {
    const from = local.start[a];
    const to = local.start[a + 1];
    if (from === to) continue;
    sum.fill(0);
    for (let j = from; j < to; j++) {
      const r = rowOf(layer.localRows, local.buckets[j]);
      if (r < 0) continue;
      for (let c = 0; c < C; c++) sum[c] += lw[r * C + c];
    }
    const u = 1 / (Math.sqrt(to - from) * WEIGHT_UNIT);
    for (let c = 0; c < C; c++) z[a * C + c] += sum[c] * u;
  }
  return z;
}

/** P(present) of aspect a and its most probable polarity (index into ASPECT_POLARITIES), from the scores. */
export function decide(z: Float64Array, a: number): { present: number; polarity: number } {
  let best = 0;
  let total = 0;
  for (let c = 0; c < C; c++) {
    total += Math.exp(z[a * C + c]);
    if (z[a * C + c] > z[a * C + best]) best = c;
  }
  return { present: total / (1 + total), polarity: best };
}

/** What the layer reads of one review: the rules' findings and the text hashed once (textBuckets, with places). */
export interface LayerReview {
  parts: readonly string[];
  /** Each part's clauses (segment.ts, as the rules found them). */
  clauses: readonly (readonly Span[])[];
  /** The review's buckets (textBuckets of the layer's features) and where each feature came from. */
  buckets: Int32Array;
  places: BucketPlaces;
  /** The review model's combiner inputs (COMBINER_FEATURES). */
  inputs: Float64Array;
  rules: readonly AspectMention[];
}

/**
 * For each (aspect a, class c) wanted, the clause whose own words most support it (an exact substring of one
 * part): each feature of the text (the buckets' places) counts for the clause holding its word.
 */
function supportingClauses(layer: AspectLayer, review: LayerReview, wanted: readonly { a: number; c: number }[]) {
  const spans = review.clauses.flat();
  const best: (Span | undefined)[] = wanted.map(() => spans[0]);
  if (spans.length <= 1) return best;
  // The first clause of each part in `spans`.
  const first: number[] = [];
  for (let p = 0, k = 0; p < review.clauses.length; k += review.clauses[p].length, p++) first.push(k);
  const support = new Float64Array(spans.length * wanted.length);
  const { count, bucket, part, offset } = review.places;
  for (let j = 0; j < count; j++) {
    const r = rowOf(layer.rows, bucket[j]);
    if (r < 0) continue;
    const clausesOfPart = review.clauses[part[j]];
    if (clausesOfPart.length === 0) continue;
    // The last clause starting at or before the word (the first when none does), by bisection over the starts,
    // which rise: a scan back from the last clause cost time quadratic in a part of many clauses.
    let s = 0;
    for (let lo = 1, hi = clausesOfPart.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >>> 1;
      if (clausesOfPart[mid].start <= offset[j]) {
        s = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const at = (first[part[j]] + s) * wanted.length;
    for (let k = 0; k < wanted.length; k++) support[at + k] += layer.weights[r * ROW + wanted[k].a * C + wanted[k].c];
  }
  for (let k = 0; k < wanted.length; k++) {
    let top = 0;
    for (let s = 1; s < spans.length; s++)
      if (support[s * wanted.length + k] > support[top * wanted.length + k]) top = s;
    best[k] = spans[top];
  }
  return best;
}

/** Per aspect, the layer's P(present) then P(each of ASPECT_POLARITIES | present): what the chip verifier reads. */
export const LAYER_PROBABILITIES = 1 + C;

/**
 * A review's aspects under the layer: one per aspect given, with one polarity (see the header). `probabilities`
 * (A × LAYER_PROBABILITIES, when given) receives each aspect's probabilities.
 */
export function layerAspects(layer: AspectLayer, review: LayerReview, probabilities?: Float64Array): AspectMention[] {
  const { rules } = review;
  const z = aspectScores(layer, review.buckets, review.inputs, rules, localBuckets(review));
  const decided: { present: number; polarity: number }[] = [];
  for (let a = 0; a < A; a++) decided.push(decide(z, a));
  if (probabilities)
    for (let a = 0; a < A; a++) {
      let total = 0;
      for (let c = 0; c < C; c++) total += Math.exp(z[a * C + c]);
      probabilities[a * LAYER_PROBABILITIES] = decided[a].present;
      for (let c = 0; c < C; c++) probabilities[a * LAYER_PROBABILITIES + 1 + c] = Math.exp(z[a * C + c]) / total;
    }
  const out: AspectMention[] = [];
  const given = new Set<Aspect>();
  for (const m of rules) {
    if (given.has(m.aspect)) continue;
    const d = decided[ASPECTS.indexOf(m.aspect)];
    if (d.present < layer.presence.found) continue;
    given.add(m.aspect);
    const polarity = ASPECT_POLARITIES[d.polarity];
    const quote = rules.find((o) => o.aspect === m.aspect && o.polarity === polarity)?.quote ?? m.quote;
    out.push({ aspect: m.aspect, polarity, quote });
  }
  const wanted: { a: number; c: number }[] = [];
  for (let a = 0; a < A; a++)
    if (decided[a].present >= layer.presence.added && !rules.some((m) => m.aspect === ASPECTS[a]))
      wanted.push({ a, c: decided[a].polarity });
  if (wanted.length === 0) return out;
  const quotes = supportingClauses(layer, review, wanted);
  for (const [k, { a, c }] of wanted.entries()) {
    const quote = quotes[k]?.text;
    if (quote !== undefined) out.push({ aspect: ASPECTS[a], polarity: ASPECT_POLARITIES[c], quote });
  }
  return out;
}

let loaded: AspectLayer | undefined;
/** The engine's layer, loaded from model/aspect-layer.json on first use (checked against the review model). */
export function aspectLayer(reviewModel: Pick<ReviewModel, "features">): AspectLayer {
  loaded ??= loadAspectLayer(modelFile, reviewModel);
  return loaded;
}
