// The docs a newcomer reads stay true: generated tables match the schemas, the example files are valid content,
// and every relative link in README.md and docs/ leads to a file that exists.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { generatedBlocks, noteCoverage, readBlock, writeBlock } from "../../scripts/docs/reference-tables.ts";
import { BusinessContent, ReviewContent } from "../../src/domain/schemas/content.ts";
import { ROOT } from "../helpers/paths.ts";

const read = (rel: string) => readFileSync(join(ROOT, rel), "utf8");
const docFiles = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

test("every content field and configuration variable has a note, and no note names a field the schema lacks", () => {
  assert.deepEqual(noteCoverage(), { missing: [], unknown: [] });
});

test("the generated tables in docs/ are what the schemas render (npm run docs rewrites them)", () => {
  for (const block of generatedBlocks()) {
    const doc = read(block.file);
    assert.ok(block.text.split("\n").length > 5, `${block.name} renders a table`);
    assert.equal(readBlock(doc, block.name), block.text, `${block.file} ${block.name}: run npm run docs`);
  }
});

test("a table that differs from the schema is noticed", () => {
  const block = generatedBlocks().find((b) => b.name === "review-fields");
  assert.ok(block);
  const doc = writeBlock(read(block.file), block.name, block.text.replace("| `rating` |", "| `stars` |"));
  assert.notEqual(readBlock(doc, block.name), block.text);
});

test("the example review and business in docs/content.md are valid content", () => {
  const blocks = [...read("docs/content.md").matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
  const review = blocks.find((b) => "rating" in b);
  const business = blocks.find((b) => "services" in b && "address" in b);
  assert.ok(review && business, "both examples are there");
  const r = ReviewContent.safeParse(review);
  assert.ok(r.success, JSON.stringify(r.error?.issues));
  const b = BusinessContent.safeParse(business);
  assert.ok(b.success, JSON.stringify(b.error?.issues));
  const technicians = new Set(b.data.technicians.map((t) => t.id));
  for (const t of r.data.technicians ?? [])
    assert.ok(technicians.has(t), `example technician ${t} is in the example catalog`);
});

test("every relative link in README.md and docs/ resolves to a file", () => {
  const broken: string[] = [];
  let links = 0;
  for (const file of docFiles) {
    if (!existsSync(join(ROOT, file))) continue;
    const text = read(file).replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
      links++;
      const path = join(ROOT, dirname(file), decodeURIComponent(target.split("#")[0]));
      if (!existsSync(path)) broken.push(`${file}: ${target}`);
    }
  }
  assert.ok(links > 10, "the docs link to each other");
  assert.deepEqual(broken, []);
});

test("README.md stays a front door: at most 300 lines", () => {
  assert.ok(read("README.md").split("\n").length <= 300);
});
