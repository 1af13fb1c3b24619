// The engine's public API: what the publishing service (its build, insights and pages) calls. Everything else in
// src/ is the engine's own and may change without notice; scripts/ and tests/ may read it, callers may not.

// A review's title and text in; its sentiment, review label and aspects out (analyzeByRules: the rules alone,
// without the models, to see what the models changed).
export { analyzeByRules, analyzeText, aspectCues, type ReviewLabel } from "./src/analyze-text.ts";
// Which catalog entries a text names; the words of the catalog's names, which are never opinions.
export { buildMatcher, findMentions, type Mentions, nameWords } from "./src/mentions.ts";
// A score to a label, by the engine's threshold.
export { LEXICON_VERSION, labelOf } from "./src/sentiment.ts";
export { tokenize } from "./src/tokenize.ts";
// What a result was computed by: anything kept from the analysis is stale when ANALYSIS_VERSION changes.
export {
  ANALYSIS_VERSION,
  ASPECT_MODEL_VERSION,
  CHIP_MODEL_VERSION,
  ENGINE,
  ENGINE_VERSION,
  LEXICON_VERSIONS,
  MODEL_VERSION,
} from "./src/version.ts";
export type { Aspect, Catalog, Sentiment } from "./src/vocabulary.ts";
export { sentimentWords, stopwords } from "./src/word-lists.ts";
