// Type-checks the .astro files under src/ (tsc checks the .ts files). Calls @astrojs/check's API: its astro-check
// command line drops its first two arguments (it strips the node and script names twice), so --root and --tsconfig
// cannot be given there. Fails on warnings too.
import { fileURLToPath } from "node:url";
import { check } from "@astrojs/check";

const root = fileURLToPath(new URL("../..", import.meta.url));
const failed = await check({
  root,
  tsconfig: fileURLToPath(new URL("tsconfig.json", import.meta.url)),
  watch: false,
  minimumSeverity: "hint",
  minimumFailingSeverity: "warning",
  preserveWatchOutput: false,
});
if (failed !== false) process.exitCode = 1;
