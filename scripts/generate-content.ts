// Writes the sample content folder: node scripts/generate-content.ts [dir] [count] [seed]
import "../src/require-node-version.ts";
import { SAMPLE_COUNT, SAMPLE_SEED, writeSampleContent } from "./content-generator/sample.ts";

const [dir = "content", count = String(SAMPLE_COUNT), seed = String(SAMPLE_SEED)] = process.argv.slice(2);
const written = await writeSampleContent(dir, Number(count), Number(seed));
console.log(`wrote ${written} reviews and business.json to ${dir}`);
