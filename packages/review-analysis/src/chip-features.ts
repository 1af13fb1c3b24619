// What the chip verifier (chip-verifier.ts) reads of one candidate chip, a praising or criticising aspect with its
// quote: the readings the engine already made of the review and of the quote alone, set relative to the chip's
// polarity ("same" is the chip's side, "opposite" the other), so one weight serves praise and criticism alike.
// Nothing here is learned; the weights are.

import { LAYER_PROBABILITIES } from "./aspect-layer.ts";
import { FEATURE_NAMES } from "./label-features.ts";
import { REVIEW_LABELS, type ReviewLabel } from "./review-model.ts";
import { ASPECTS, type Aspect, type Sentiment } from "./vocabulary.ts";

/** Why the hand-written chip rules (analyze-text.ts) abstain from a chip; each is a feature. */
export const ABSTENTIONS = [
  "review_opposite",
  "conditional",
  "denied",
  "not_writers",
  "conceded_price",
  "job_done_turn",
  "alone_opposite",
  "alone_aspect_opposite",
  "weak_praise",
  "not_carried",
] as const;
export type Abstention = (typeof ABSTENTIONS)[number];

/** Feature names, in the order of the vector chipFeatures returns and the verifier's weights. */
export const CHIP_FEATURES: readonly string[] = [
  "praise",
  ...ASPECTS.map((a) => `aspect_${a}`),
  ...["overall_same", "overall_opposite", "overall_mixed", "overall_neutral", "score_same"],
  ...REVIEW_LABELS.map((l) => `text_${l}`),
  "text_same",
  "text_opposite",
  ...["rules_same", "rules_opposite", "rules_neutral", "rules_none", "rules_score_same", "rules_contrast"],
  ...["layer_present", "layer_margin", "layer_neutral", "layer_added"],
  ...["alone_same", "alone_opposite", "alone_mixed", "alone_score_same", "alone_aspect_same", "alone_aspect_none"],
  "abstained",
  ...ABSTENTIONS.map((r) => `abstain_${r}`),
  ...["quote_words", "review_words", "quote_share", "sentences", "quote_first", "quote_last"],
  ...["contrast_review", "contrast_quote", "question_quote", "negator_quote", "other_party", "story"],
  ...["praise_overall_mixed", "praise_overall_neutral", "praise_layer_margin", "praise_alone_score"],
];

/** The readings of a review and of one chip's quote that the features are made of. */
export interface ChipReading {
  chip: { aspect: Aspect; polarity: Sentiment; quote: string };
  parts: readonly string[];
  /** The review model's label and score of the whole review, and its combiner inputs (COMBINER_FEATURES). */
  overall: ReviewLabel;
  score: number;
  inputs: Float64Array;
  /** The rules' aspects of the review. */
  rules: readonly { aspect: Aspect; polarity: Sentiment }[];
  /** The aspect layer's probabilities (layerAspects), A × LAYER_PROBABILITIES. */
  layer: Float64Array;
  /** The quote read alone by the engine. */
  alone: { overall: ReviewLabel; score: number; aspects: readonly { aspect: Aspect; polarity: Sentiment }[] };
  /** Why the chip rules abstain from the chip (empty: they show it). */
  abstentions: ReadonlySet<Abstention>;
  /** What the features read of the whole review (reviewCues), the same for each of its chips. */
  cues: ReviewCues;
}

export interface ReviewCues {
  words: number;
  sentences: number;
  contrast: number;
  otherParty: boolean;
  story: boolean;
}

/** The review-wide cues of the features, read once per review. */
export function reviewCues(parts: readonly string[]): ReviewCues {
  const review = parts.join(" ");
  return {
    words: words(review),
    sentences: count(/[.!?]+(?:\s|$)/g, review),
    contrast: count(CONTRAST, review),
    otherParty: OTHER_PARTY.test(review),
    story: STORY.test(review),
  };
}

const CONTRAST = /\b(?:but|though|although|however|yet|except|unfortunately|otherwise)\b/gi;
const NEGATOR =
  /\b(?:not|no|never|nothing|nobody|none|nor|didn'?t|don'?t|doesn'?t|wasn'?t|weren'?t|isn'?t|won'?t|couldn'?t|wouldn'?t|can'?t|cannot)\b/i;
// Another company, person or visit than the one judged: where an opinion is most often someone else's.
const OTHER_PARTY =
  /\b(?:other|another|previous|last|first|second|different|next) (?:company|companies|plumber|guy|tech|technician|contractor|place|quote|bid|visit|time)\b|\b(?:said|told|says|claimed|promised)\b/i;
// A told sequence of events: where the verdict often comes at the end, not in the clause quoted.
const STORY = /\b(?:then|after|later|again|came back|called back|weeks?|days?|months?)\b/i;
const words = (s: string) => s.split(/\s+/).filter((w) => w !== "").length;
const count = (re: RegExp, s: string) => s.match(re)?.length ?? 0;
const RULES_SCORE = FEATURE_NAMES.indexOf("score");
const RULES_CONTRAST = FEATURE_NAMES.indexOf("contrast");

/** The features of one praising or criticising chip (CHIP_FEATURES order). */
export function chipFeatures(r: ChipReading): number[] {
  const { chip } = r;
  const praise = chip.polarity === "positive";
  const same: ReviewLabel = praise ? "positive" : "negative";
  const opposite: ReviewLabel = praise ? "negative" : "positive";
  const sign = praise ? 1 : -1;
  const a = ASPECTS.indexOf(chip.aspect);
  const text = (l: ReviewLabel) => r.inputs[FEATURE_NAMES.length + REVIEW_LABELS.indexOf(l)];
  const ruled = r.rules.filter((m) => m.aspect === chip.aspect);
  const p = (k: number) => r.layer[a * LAYER_PROBABILITIES + k];
  const pSame = p(praise ? 1 : 2);
  const pOpposite = p(praise ? 2 : 1);
  const margin = Math.log(pSame + 1e-6) - Math.log(pOpposite + 1e-6);
  const own = r.alone.aspects.filter((m) => m.aspect === chip.aspect);
  const part = r.parts.find((s) => s.includes(chip.quote)) ?? chip.quote;
  const at = part.indexOf(chip.quote);
  const { cues } = r;
  const reviewWords = cues.words;
  const quoteWords = words(chip.quote);
  return [
    praise ? 1 : 0,
    ...ASPECTS.map((_, k) => (k === a ? 1 : 0)),
    r.overall === same ? 1 : 0,
    r.overall === opposite ? 1 : 0,
    r.overall === "mixed" ? 1 : 0,
    r.overall === "neutral" ? 1 : 0,
    sign * r.score,
    ...REVIEW_LABELS.map(text),
    text(same),
    text(opposite),
    ruled.some((m) => m.polarity === chip.polarity) ? 1 : 0,
    ruled.some((m) => m.polarity === opposite) ? 1 : 0,
    ruled.length > 0 && ruled.every((m) => m.polarity === "neutral") ? 1 : 0,
    ruled.length === 0 ? 1 : 0,
    sign * r.inputs[RULES_SCORE],
    r.inputs[RULES_CONTRAST],
    p(0),
    Math.max(-8, Math.min(8, margin)),
    p(3),
    ruled.length === 0 ? 1 : 0,
    r.alone.overall === same ? 1 : 0,
    r.alone.overall === opposite ? 1 : 0,
    r.alone.overall === "mixed" ? 1 : 0,
    sign * r.alone.score,
    own.some((m) => m.polarity === chip.polarity) ? 1 : 0,
    own.length === 0 ? 1 : 0,
    r.abstentions.size > 0 ? 1 : 0,
    ...ABSTENTIONS.map((x) => (r.abstentions.has(x) ? 1 : 0)),
    Math.log1p(quoteWords),
    Math.log1p(reviewWords),
    reviewWords ? quoteWords / reviewWords : 1,
    Math.log1p(cues.sentences),
    at <= 0 ? 1 : 0,
    at >= 0 && part.slice(at + chip.quote.length).trim().length < 3 ? 1 : 0,
    Math.log1p(cues.contrast),
    Math.log1p(count(CONTRAST, chip.quote)),
    chip.quote.includes("?") ? 1 : 0,
    NEGATOR.test(chip.quote) ? 1 : 0,
    cues.otherParty ? 1 : 0,
    cues.story ? 1 : 0,
    praise && r.overall === "mixed" ? 1 : 0,
    praise && r.overall === "neutral" ? 1 : 0,
    praise ? Math.max(-8, Math.min(8, margin)) : 0,
    praise ? r.alone.score : 0,
  ];
}
