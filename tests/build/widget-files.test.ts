// The widget's files in a build of the sample: the script at its stable path and its hashed twin, self-contained
// and pointing nowhere but beside itself; a summary and a list for the business and each catalogue entry, each
// matching its schema, small, in the manifest, and served with the data files' headers.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { before, test } from "node:test";
import { brotliCompressSync } from "node:zlib";
import { sha256Hex } from "../../src/domain/hash.ts";
import { type BuildManifest, MANIFEST_FILE } from "../../src/domain/schemas/manifest.ts";
import { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { CACHE_DATA, CACHE_IMMUTABLE, HEADERS_FILE, IMMUTABLE_PREFIX } from "../../src/domain/static-headers.ts";
import {
  WIDGET_DATA_DIR,
  WIDGET_ENTITY_FIELDS,
  WIDGET_SCRIPT_PATH,
  type WidgetEntity,
  widgetDataPaths,
} from "../../src/domain/widget/widget-paths.ts";
import { WidgetReviews, WidgetSummary } from "../../src/domain/widget/widget-schema.ts";
import { buildSample } from "../helpers/build.ts";

/** The largest list file the sample may give (five rankings of 20 short reviews at most). */
const MAX_LIST_BYTES = 64 * 1024;

let dist: string;
let manifest: BuildManifest;
const read = (p: string) => readFile(join(dist, p), "utf8");

before(async () => {
  dist = await buildSample();
  manifest = JSON.parse(await read(MANIFEST_FILE));
});

test("widget.js and its hashed twin are self-contained ES modules that define <reviews-widget>", async () => {
  const script = await read(WIDGET_SCRIPT_PATH.slice(1));
  const twins = Object.keys(manifest.files).filter((p) => p.startsWith(`${IMMUTABLE_PREFIX}widget.`));
  assert.equal(twins.length, 1, twins.join(", "));
  const twin = await read(twins[0].slice(1));
  assert.equal(twins[0], `${IMMUTABLE_PREFIX}widget.${sha256Hex(Buffer.from(twin)).slice(0, 12)}.js`);
  for (const code of [script, twin]) {
    assert.match(code, /customElements\.define\("reviews-widget"/);
    assert.doesNotMatch(code, /\bimport\s*[{("'*]|\bimport\s+\w+\s+from/, "no import of another module");
    assert.doesNotMatch(code, /https?:\/\//, "no absolute URL: everything is fetched beside the script");
    assert.doesNotMatch(
      code,
      /innerHTML|insertAdjacentHTML|document\.write|localStorage|sessionStorage|document\.cookie/,
    );
  }
  assert.notEqual(script, twin, "the twin finds the data one folder up");
  const entry = manifest.files[WIDGET_SCRIPT_PATH];
  assert.equal(entry.type, "text/javascript; charset=utf-8");
  assert.ok(entry.encodings.br && entry.encodings.gzip, "precompressed");
  console.log(`widget.js: ${entry.size} B, ${entry.encodings.gzip.size} B gzip, ${entry.encodings.br.size} B brotli`);
});

test("a summary and a list for the business and for every catalogue entry, each valid and in the manifest", async () => {
  const dataset = ReviewsDataset.parse(JSON.parse(await read("reviews.json")));
  const slices: Array<{ kind: WidgetEntity; id: string } | undefined> = [undefined];
  for (const [kind, field] of Object.entries(WIDGET_ENTITY_FIELDS) as [WidgetEntity, "services"][]) {
    for (const e of dataset.business[field]) slices.push({ kind, id: e.id });
  }
  const listed = Object.keys(manifest.files).filter((p) => p.startsWith(WIDGET_DATA_DIR));
  assert.equal(listed.length, 2 * slices.length, "nothing else under the widget's folder");
  let largest = 0;
  for (const slice of slices) {
    const paths = widgetDataPaths(slice);
    const summary = WidgetSummary.parse(JSON.parse(await read(paths.summary.slice(1))));
    const list = WidgetReviews.parse(JSON.parse(await read(paths.reviews.slice(1))));
    assert.deepEqual(
      { ...list, reviews: undefined },
      { ...summary, reviews: undefined },
      "the list repeats its summary",
    );
    assert.equal(summary.slice.kind, slice?.kind ?? "all");
    const own = slice
      ? dataset.reviews.filter((r) => r.mentions[WIDGET_ENTITY_FIELDS[slice.kind]].includes(slice.id))
      : dataset.reviews;
    assert.equal(summary.rating.review_count, own.length, paths.summary);
    const ids = new Set(own.map((r) => r.id));
    for (const r of list.reviews) assert.ok(ids.has(r.id), `${paths.reviews} holds only its own reviews`);
    for (const path of [paths.summary, paths.reviews]) {
      const entry = manifest.files[path];
      assert.ok(entry?.encodings.br, `${path} is in the manifest, precompressed`);
      largest = Math.max(largest, entry.size);
    }
  }
  assert.ok(largest <= MAX_LIST_BYTES, `largest widget file ${largest} B`);
  const all = await read(widgetDataPaths().reviews.slice(1));
  console.log(
    `widget data: all.json ${manifest.files[widgetDataPaths().summary].encodings.br?.size} B brotli, all.reviews.json ${all.length} B, ${brotliCompressSync(all).length} B brotli; reviews.json ${manifest.files["/reviews.json"].size} B`,
  );
});

test("static hosts get the data files' headers for widget.js and its data, immutable caching for the twin", async () => {
  const rules = await read(HEADERS_FILE);
  for (const path of [WIDGET_SCRIPT_PATH, widgetDataPaths().summary]) {
    const block = rules.split(/\n(?=\/)/).find((b) => b.startsWith(`${path}\n`));
    assert.ok(block, `${path} has a rule`);
    assert.match(block, new RegExp(`Cache-Control: ${CACHE_DATA.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  }
  assert.ok(rules.includes(`${IMMUTABLE_PREFIX}*\n  Cache-Control: ${CACHE_IMMUTABLE}`));
  assert.match(rules, /\/\*\n {2}Access-Control-Allow-Origin: \*/);
});
