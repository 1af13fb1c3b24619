// AUTHOR_NAME_POLICY: how an imported reviewer's name is written, and with AUTHOR_NAME_SCOPE=all how the build
// publishes the names written by hand.
import assert from "node:assert/strict";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { computeSite } from "../../src/build/site-data.ts";
import type { Config } from "../../src/config.ts";
import { formatAuthorName } from "../../src/domain/import/author-name.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { tempDir } from "../helpers/paths.ts";
import { SAMPLE_CONTENT } from "../helpers/sample-content.ts";

test("initial: first name and the last name's initial; one word stays; white space is tidied", () => {
  assert.equal(formatAuthorName("Marcus Hill", "initial"), "Marcus H.");
  assert.equal(formatAuthorName("  Mary   Ann  Smith-Jones ", "initial"), "Mary S.");
  assert.equal(formatAuthorName("Marcus H.", "initial"), "Marcus H.");
  assert.equal(formatAuthorName("Anonymous", "initial"), "Anonymous");
  assert.equal(formatAuthorName("Zoë 𝒵ed", "initial"), "Zoë 𝒵.", "a whole code point, not half a surrogate pair");
});

test("first and full", () => {
  assert.equal(formatAuthorName("Marcus Hill", "first"), "Marcus");
  assert.equal(formatAuthorName("Marcus Hill", "full"), "Marcus Hill");
  assert.equal(formatAuthorName(" Marcus Hill ", "full"), "Marcus Hill");
});

describe("AUTHOR_NAME_SCOPE=all: the build publishes hand-written names by the policy", () => {
  let content: string;
  before(async () => {
    content = join(await tempDir("author-names"), "content");
    await mkdir(join(content, "reviews", "2026"), { recursive: true });
    await copyFile(join(SAMPLE_CONTENT, "business.json"), join(content, "business.json"));
    const review = (author: string, date: string) => ({
      rating: 5,
      date,
      text: "Fixed it fast.",
      author,
      verified: true,
    });
    await writeFile(
      join(content, "reviews/2026/2026-03-01-marcus.json"),
      JSON.stringify(review("Marcus Hill", "2026-03-01")),
    );
    await writeFile(join(content, "reviews/2026/2026-03-02-ana.json"), JSON.stringify(review("Ana", "2026-03-02")));
  });
  const authors = (site: Awaited<ReturnType<typeof computeSite>>) => ({
    dataset: site.dataset.reviews.map((r) => r.author).sort(),
    // reviews.json's bytes are made from cached JSON of each record: they must carry the same names.
    bytes: (JSON.parse(Buffer.from(site.datasetJson).toString("utf8")) as ReviewsDataset).reviews
      .map((r) => r.author)
      .sort(),
  });
  const build = (cache: string, extra: Partial<Config>) =>
    computeSite({ CONTENT_DIR: content, BASE_URL: "https://reviews.example", BUILD_CACHE_DIR: cache, ...extra });

  test("the default scope leaves them as written; `all` applies the policy, also over a warm cache", async () => {
    const cache = await tempDir("author-names-cache");
    const asWritten = ["Ana", "Marcus Hill"];
    assert.deepEqual(authors(await build(cache, {})), { dataset: asWritten, bytes: asWritten });
    const initial = ["Ana", "Marcus H."];
    const all = await build(cache, { AUTHOR_NAME_SCOPE: "all" });
    assert.deepEqual(authors(all), { dataset: initial, bytes: initial });
    const first = await build(cache, { AUTHOR_NAME_SCOPE: "all", AUTHOR_NAME_POLICY: "first" });
    assert.deepEqual(authors(first), { dataset: ["Ana", "Marcus"], bytes: ["Ana", "Marcus"] });
    assert.ok(!JSON.stringify(first.jsonFeed).includes("Marcus Hill"), "feeds are made from the published names");
    assert.deepEqual(authors(await build(cache, {})), { dataset: asWritten, bytes: asWritten }, "and back");
    const file = JSON.parse(await readFile(join(content, "reviews/2026/2026-03-01-marcus.json"), "utf8"));
    assert.equal(file.author, "Marcus Hill", "the content file stays as written");
  });
});
