// match=words: how words are cut and folded (the same function at index and query time), and what a words search
// answers for word order, stop words and the default match.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compareNewest } from "../../src/domain/order.ts";
import type { SearchParams } from "../../src/domain/schemas/api.ts";
import { buildReviewIndex } from "../../src/domain/search/review-index.ts";
import { searchPage, searchReviews } from "../../src/domain/search/search-reviews.ts";
import { foldText } from "../../src/domain/search/text-match.ts";
import { queryWordKeys, STOP_WORDS, stemWord, wordKeysOfFolded } from "../../src/domain/search/word-fold.ts";
import { decodeRanks, wordPostings } from "../../src/domain/search/word-postings.ts";
import { searchBusiness, searchRecord } from "../helpers/search-business.ts";

test("inflections of one word fold to one key", () => {
  const families = [
    ["heater", "heaters", "Heaters"],
    ["leak", "leaks", "leaked", "leaking"],
    ["service", "services", "serviced", "servicing"],
    ["fix", "fixes", "fixed", "fixing"],
    ["stop", "stops", "stopped", "stopping"],
    ["make", "makes", "making"],
    ["try", "tries", "tried"],
    ["battery", "batteries"],
    ["match", "matches", "matched"],
    ["agree", "agrees", "agreed"],
    ["control", "controls", "controlled"],
    ["arrive", "arrives", "arrived", "arriving"],
    ["replace", "replaced", "replacing"],
    ["need", "needs", "needed"],
    ["speed", "speeds"],
    ["day", "days"],
    ["clean", "cleaned", "cleaning", "cleans"],
    ["technician", "technicians"],
  ];
  for (const family of families) {
    const keys = new Set(family.map((w) => queryWordKeys(w).join()));
    assert.equal(keys.size, 1, `${family.join(", ")} -> ${[...keys].join(" | ")}`);
  }
});

test("different words stay apart, short and non-Latin words are left as they are", () => {
  const apart = [
    ["heater", "heating"],
    ["leak", "lead"],
    ["late", "later"],
    ["price", "prize"],
  ];
  for (const [a, b] of apart) assert.notEqual(stemWord(a), stemWord(b), `${a} / ${b}`);
  for (const w of ["as", "us", "bus", "this", "gas", "24", "hvac2", "straße", "кот"]) assert.equal(stemWord(w), w);
  assert.equal(stemWord("sing"), "sing"); // no vowel before -ing: not a suffix
  assert.equal(stemWord("bed"), "bed");
});

test("words: case, diacritics, apostrophes and punctuation fold; stop words are left out", () => {
  assert.deepEqual(wordKeysOfFolded(foldText("Martínez FIXED the Café's no-show!")), [
    "martinez",
    "fix",
    "cafe",
    "no",
    "show",
  ]);
  assert.deepEqual(wordKeysOfFolded(foldText("Don’t wait, it's 24/7")), ["dont", "wait", "24", "7"]);
  assert.deepEqual(queryWordKeys("water heater"), queryWordKeys("HEATERS, water!"));
  assert.deepEqual(queryWordKeys("the of on to"), []);
  assert.deepEqual(queryWordKeys("…—"), []);
  for (const w of ["no", "not"]) assert.ok(!STOP_WORDS.has(w), w);
});

const business = searchBusiness();
const reviews = [
  searchRecord({
    id: "a",
    rating: 5,
    date: "2025-03-01",
    updated: "2025-03-01T10:00:00Z",
    text: "The water heater leaked.",
  }),
  searchRecord({
    id: "b",
    rating: 2,
    date: "2025-02-01",
    updated: "2025-02-01T10:00:00Z",
    title: "Heaters",
    text: "Heater water everywhere, water water.",
  }),
  searchRecord({
    id: "c",
    rating: 4,
    date: "2025-01-01",
    updated: "2025-01-01T10:00:00Z",
    text: "Fixed the heat pump.",
  }),
  searchRecord({
    id: "d",
    rating: 3,
    date: "2024-12-01",
    updated: "2024-12-01T10:00:00Z",
    text: "Hot-water heater, late.",
  }),
].sort(compareNewest);
const index = buildReviewIndex(business, reviews);
const search = (p: Partial<SearchParams>) => {
  const out = searchReviews(index, { limit: 20, ...p } as SearchParams);
  assert.ok(out.ok, JSON.stringify(out));
  return out.result;
};
const ids = (p: Partial<SearchParams>) => search(p).reviews.map((r) => r.id);

test("words in any order find the same reviews, in the same order, with BM25 and a title boost", () => {
  assert.deepEqual(ids({ query: "water heater" }), ["a", "d"]); // substring: the two words side by side
  assert.deepEqual(ids({ query: "heater water" }), ["b"]);
  const words = ids({ query: "water heater", match: "words" });
  assert.deepEqual(words, ids({ query: "HEATERS water", match: "words" }));
  // b says both words more often and has "heaters" in its title.
  assert.deepEqual(words, ["b", "a", "d"]);
  assert.deepEqual(ids({ query: "leaking heater", match: "words" }), ["a"]);
  assert.deepEqual(ids({ query: "heater pump", match: "words" }), []);
  assert.deepEqual(ids({ query: "unheard", match: "words" }), []);
  assert.deepEqual(ids({ query: "water heater", match: "words", sort: "oldest" }), ["d", "b", "a"]);
  assert.deepEqual(ids({ query: "water heater", match: "words", rating: 5 }), ["a"]);
});

test("match=substring is the default; match without a query changes nothing", () => {
  assert.deepEqual(search({ query: "heater water", match: "substring" }), search({ query: "heater water" }));
  assert.deepEqual(search({ match: "words" }), search({}));
  // The same filter set: a cursor of one is accepted by the other.
  const first = search({ query: "water", limit: 1 });
  assert.ok(first.next_cursor);
  assert.equal(search({ query: "water", limit: 1, match: "substring", cursor: first.next_cursor }).reviews.length, 1);
});

test("a words query of only stop words or no words is refused, saying why", () => {
  for (const query of ["the", "on the of", "!!!", "´"]) {
    const out = searchPage(index, { query, match: "words", limit: 20 } as SearchParams);
    assert.equal(out.ok, false, query);
    if (!out.ok) {
      assert.deepEqual(out.issues[0].path, ["query"]);
      assert.match(out.issues[0].message, /match=words .* at least one word/);
    }
  }
});

test("word postings keep ranks far apart (gaps of several varint bytes) and every review's weights", () => {
  const n = 40_000;
  const at = [0, 1, 127, 128, 129, 16_511, 16_512, 39_999];
  const folded = Array.from({ length: 2 * n }, () => "");
  for (const rank of at) folded[2 * rank + 1] = "leak leaks";
  folded[2 * 128] = "leaking"; // a title word counts 3 times
  const p = wordPostings(folded, n);
  assert.equal(Buffer.from(p.keyBytes).toString(), "leak");
  assert.deepEqual([...decodeRanks(p.rankBytes, 0, p.postingOffsets[1])], at);
  assert.deepEqual([...p.weights], [2, 2, 2, 5, 2, 2, 2, 2]);
  assert.equal(p.lengths[128], 5);
  assert.ok(p.rankBytes.length < 4 * at.length);
});
