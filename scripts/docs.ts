// npm run docs: rewrites the generated reference tables in docs/; `-- --check` only reports whether they are current.
import "../src/require-node-version.ts";
import { readFile, writeFile } from "node:fs/promises";
import { generatedBlocks, noteCoverage, readBlock, writeBlock } from "./docs/reference-tables.ts";

const check = process.argv.includes("--check");
const { missing, unknown } = noteCoverage();
if (missing.length || unknown.length) {
  for (const m of missing) console.error(`no note for ${m}: add one in scripts/docs/field-notes.ts`);
  for (const u of unknown) console.error(`note for ${u}, which the schema does not have: remove it`);
  process.exit(1);
}
let stale = 0;
for (const block of generatedBlocks()) {
  const doc = await readFile(block.file, "utf8");
  if (readBlock(doc, block.name) === block.text) continue;
  stale++;
  if (check) console.error(`${block.file}: the ${block.name} table differs from the schema; run npm run docs`);
  else {
    await writeFile(block.file, writeBlock(doc, block.name, block.text));
    console.log(`${block.file}: ${block.name} rewritten`);
  }
}
if (check && stale) process.exit(1);
