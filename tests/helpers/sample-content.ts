// The sample content, written fresh by its seeded generator into this test process's own folder: tests never
// read the working copy's content/, which may hold your unsaved or deliberately broken edits.
import { join } from "node:path";
import { writeSampleContent } from "../../scripts/content-generator/sample.ts";
import { tempDir } from "./paths.ts";

export const SAMPLE_CONTENT = join(await tempDir("sample"), "content");
await writeSampleContent(SAMPLE_CONTENT);
