// Word lists of the engine's lexicons for callers that pick out other words than opinions (keyphrases): a word
// in either list says nothing about what a review is about.
import sentimentLexicon from "./lexicon/sentiment.json" with { type: "json" };
import stopwordList from "./lexicon/stopwords.json" with { type: "json" };

/** Function words and fillers (lexicon/stopwords.json). */
export const stopwords: ReadonlySet<string> = new Set(stopwordList.words);

/** Every word the sentiment lexicon reads (lexicon/sentiment.json): opinion words, negators and modifiers. */
export const sentimentWords: ReadonlySet<string> = new Set([
  ...Object.keys(sentimentLexicon.words),
  ...sentimentLexicon.negators,
  ...Object.keys(sentimentLexicon.intensifiers),
  ...Object.keys(sentimentLexicon.diminishers),
]);
