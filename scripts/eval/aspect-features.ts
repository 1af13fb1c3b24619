// The aspect-model experiment of issue 18 (aspect-model.ts, npm run eval:aspects), its pure half: the features of
// one review for each of the nine aspects and the scoring of a trained model. For each aspect the model decides
// absent / positive / negative / neutral from the rules' mentions of that aspect (their polarities), the rules'
// review label, the words of the rules' quotes for it (shared across aspects and conjoined with the aspect) and,
// optionally, the words of the whole text conjoined with the aspect. Feature names are hashed (FNV-1a) into
// 2^bits buckets; a name conjoined with an aspect is its hash mixed with the aspect's number. No fs, no eval
// imports: this file can move into src/domain/analysis with text-features.ts.
import type { AspectMention, ReviewLabel } from "../../src/domain/analysis/analyze-text.ts";
import { type Span, sentences } from "../../src/domain/analysis/segment.ts";
import {
  fnv1a,
  type SparseVector,
  type TextFeatureConfig,
  textFeatureNames,
} from "../../src/domain/analysis/text-features.ts";
import { ASPECTS, type Aspect } from "../../src/domain/schemas/common.ts";

/** The version of the model a --write gives (bump when the features, the training or the files change). */
export const ASPECT_MODEL_VERSION = "aspect-polarity-model@0.1.0";

/** What the model decides per aspect; class 0 is "the review says nothing of it". */
export const ASPECT_CLASSES = ["absent", "positive", "negative", "neutral"] as const;
export type AspectClass = (typeof ASPECT_CLASSES)[number];

export interface AspectFeatureConfig extends TextFeatureConfig {
  /** Words of the whole text conjoined with the aspect. */
  text: boolean;
  /** Words of the rules' quotes of the aspect (shared across aspects and conjoined with it). */
  quotes: boolean;
  /** Words of the sentences that hold the rules' quotes of the aspect (shared and conjoined). */
  sentences?: boolean;
  /** The model may add an aspect the rules did not find (its quote: the sentence that most supports it). */
  add: boolean;
  /** When the model's polarity is one of several the rules found for an aspect, all the rules' mentions stay. */
  keepHedges?: boolean;
  /** The model may drop an aspect the rules found (else a rules aspect judged absent keeps the rules' mentions). */
  drop: boolean;
}

export interface AspectModel {
  version: string;
  classes: readonly AspectClass[];
  config: AspectFeatureConfig;
  bias: number[];
  /** Hash bucket → one weight per class (rounded; zero rows left out). */
  sparse: Record<string, number[]>;
}

/** A model ready to score: for each bucket, where its row starts in `weights` (-1: no row). */
export interface PreparedAspectModel {
  model: AspectModel;
  at: Int32Array;
  weights: Float64Array;
  mask: number;
}

/** Refuses a model of another version or shape; indexes its rows. */
export function prepareAspectModel(model: AspectModel): PreparedAspectModel {
  if (model.version !== ASPECT_MODEL_VERSION)
    throw new Error(`aspect model ${model.version}: this code reads ${ASPECT_MODEL_VERSION} only`);
  if (model.classes.join() !== ASPECT_CLASSES.join() || model.bias.length !== ASPECT_CLASSES.length)
    throw new Error(`aspect model: classes must be ${ASPECT_CLASSES.join(", ")}`);
  const k = ASPECT_CLASSES.length;
  const at = new Int32Array(1 << model.config.bits).fill(-1);
  const rows = Object.entries(model.sparse);
  const weights = new Float64Array(rows.length * k);
  rows.forEach(([bucket, row], r) => {
    at[Number(bucket)] = r * k;
    weights.set(row, r * k);
  });
  return { model, at, weights, mask: at.length - 1 };
}

/** A hash conjoined with aspect number `a` (0..8); `a` = -1 leaves it shared. */
const conjoin = (h: number, a: number) =>
  a < 0 ? h : Math.imul((h ^ Math.imul(a + 1, 0x9e3779b1)) >>> 0, 0x01000193) >>> 0;

/** The rules' polarities of one aspect as one name ("none", "positive", "negative+positive", ...). */
const polarityKey = (mentions: readonly AspectMention[]) =>
  mentions.length === 0 ? "none" : [...new Set(mentions.map((m) => m.polarity))].sort().join("+");

/** The sentences of the parts (`spans`, one list per part) that hold the mentions' quotes, each once. */
function sentencesHolding(
  parts: readonly string[],
  spans: readonly (readonly Span[])[],
  mentions: readonly AspectMention[],
): string[] {
  const out = new Set<string>();
  for (const [p, part] of parts.entries()) {
    for (const m of mentions) {
      const at = part.indexOf(m.quote);
      if (at < 0) continue;
      for (const s of spans[p]) if (s.start < at + m.quote.length && at < s.end) out.add(s.text);
    }
  }
  return [...out];
}

export interface ReviewRules {
  aspects: readonly AspectMention[];
  overall: ReviewLabel;
}

/** The aspects a model decides for a review (ASPECTS order): those the rules found, or all when it may add. */
export const candidates = (rules: ReviewRules, config: AspectFeatureConfig): boolean[] =>
  ASPECTS.map((aspect) => config.add || rules.aspects.some((m) => m.aspect === aspect));

/**
 * The features of one review for each candidate aspect (ASPECTS order; an empty vector for the others); the
 * text's names are hashed once.
 */
export function aspectFeatures(
  parts: readonly string[],
  rules: ReviewRules,
  config: AspectFeatureConfig,
  only: readonly boolean[] = candidates(rules, config),
): SparseVector[] {
  const mask = (1 << config.bits) - 1;
  // The hashed names of some texts under a prefix, each list built once per review (a short review's quote,
  // sentence and text are often the same words).
  const memo = new Map<string, { hashes: number[]; v: number }>();
  const hashed = (prefix: string, texts: readonly string[]) => {
    const k = `${prefix}\u0000${texts.join("\u0001")}`;
    let got = memo.get(k);
    if (!got) {
      const names = textFeatureNames(texts, config);
      got = { hashes: names.map((n) => fnv1a(`${prefix}${n}`)), v: 1 / Math.sqrt(names.length || 1) };
      memo.set(k, got);
    }
    return got;
  };
  const textHashes = config.text && only.includes(true) ? hashed("t:", parts).hashes : [];
  let spans: Span[][] | undefined;
  return ASPECTS.map((aspect, a) => {
    if (!only[a]) return { index: new Int32Array(0), value: new Float64Array(0) };
    const mentions = rules.aspects.filter((m) => m.aspect === aspect);
    const index: number[] = [];
    const value: number[] = [];
    const add = (h: number, v: number) => {
      index.push(h & mask);
      value.push(v);
    };
    const key = polarityKey(mentions);
    const flags = [`aspect`, `rules:${key}`, `overall:${rules.overall}`, `rules:${key} overall:${rules.overall}`];
    for (const f of flags) {
      const h = fnv1a(f);
      add(h, 1);
      add(conjoin(h, a), 1);
    }
    if (config.quotes && mentions.length) {
      const { hashes, v } = hashed(
        "q:",
        mentions.map((m) => m.quote),
      );
      for (const h of hashes) {
        add(h, v);
        add(conjoin(h, a), v);
      }
    }
    if (config.sentences && mentions.length) {
      spans ??= parts.map(sentences);
      const { hashes, v } = hashed("s:", sentencesHolding(parts, spans, mentions));
      for (const h of hashes) {
        add(h, v);
        add(conjoin(h, a), v);
      }
    }
    if (textHashes.length) {
      const v = 1 / Math.sqrt(textHashes.length);
      for (const h of textHashes) add(conjoin(h, a), v);
    }
    return { index: Int32Array.from(index), value: Float64Array.from(value) };
  });
}

/** The class scores of one feature vector. */
export function aspectScores(prepared: PreparedAspectModel, x: SparseVector): number[] {
  const z = [...prepared.model.bias];
  for (let j = 0; j < x.index.length; j++) {
    const r = prepared.at[x.index[j]];
    if (r >= 0) for (let c = 0; c < z.length; c++) z[c] += prepared.weights[r + c] * x.value[j];
  }
  return z;
}

const argmax = (z: readonly number[]) => z.indexOf(Math.max(...z));

/** The sentence of the parts whose own words (conjoined with aspect `a`) most support class `c` over absent. */
function bestSentence(
  parts: readonly string[],
  prepared: PreparedAspectModel,
  a: number,
  c: number,
): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  for (const part of parts)
    for (const s of sentences(part)) {
      const names = textFeatureNames([s.text], prepared.model.config);
      let t = 0;
      for (const n of names) {
        const r = prepared.at[conjoin(fnv1a(`t:${n}`), a) & prepared.mask];
        if (r >= 0) t += prepared.weights[r + c] - prepared.weights[r];
      }
      if (best === undefined || t > bestScore) {
        best = s.text;
        bestScore = t;
      }
    }
  return best;
}

/**
 * The aspects of a review under the model: per aspect, the class the model gives. A rules mention of that
 * polarity is kept as it is (its quote); a rules aspect given another polarity keeps the rules' first quote for
 * it; an aspect the rules did not find is added (when the model's config allows) with the sentence that most
 * supports it as its quote, an exact substring of one part.
 */
export function aspectsWithModel(
  parts: readonly string[],
  rules: ReviewRules,
  prepared: PreparedAspectModel,
): AspectMention[] {
  const config = prepared.model.config;
  const only = candidates(rules, config);
  const vectors = aspectFeatures(parts, rules, config, only);
  // "keep": a rules aspect the model judged absent, kept as the rules found it (config.drop false).
  const decided = new Map<Aspect, AspectClass | "keep">();
  ASPECTS.forEach((aspect, a) => {
    if (!only[a]) return;
    const found = rules.aspects.some((m) => m.aspect === aspect);
    const c = ASPECT_CLASSES[argmax(aspectScores(prepared, vectors[a]))];
    decided.set(aspect, c === "absent" && found && !config.drop ? "keep" : c);
  });
  const out: AspectMention[] = [];
  const kept = new Set<Aspect>();
  for (const m of rules.aspects) {
    const c = decided.get(m.aspect);
    const hedged =
      config.keepHedges && c !== undefined && rules.aspects.some((o) => o.aspect === m.aspect && o.polarity === c);
    if (c === m.polarity || c === "keep" || hedged) {
      out.push(m);
      kept.add(m.aspect);
    }
  }
  ASPECTS.forEach((aspect, a) => {
    const c = decided.get(aspect);
    if (c === undefined || c === "absent" || c === "keep" || kept.has(aspect)) return;
    const rulesQuote = rules.aspects.find((m) => m.aspect === aspect)?.quote;
    const quote = rulesQuote ?? bestSentence(parts, prepared, a, ASPECT_CLASSES.indexOf(c));
    if (quote !== undefined) out.push({ aspect, polarity: c, quote });
  });
  return out;
}
