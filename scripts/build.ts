// npm run build [-- --strict] [-- --timings]: builds CONTENT_DIR into DIST_DIR for BASE_URL. Exit code 1 and a
// readable list on bad content; with --strict also on a file the build would ignore (a review outside reviews/).
import "../src/require-node-version.ts";
import { readLineFilesEarly } from "../src/build/line-file.ts";
import { loadConfig } from "../src/config.ts";
import { ContentError } from "../src/domain/content-errors.ts";

process.env.ASTRO_TELEMETRY_DISABLED = "1";
try {
  const config = loadConfig();
  // The caches are read while the build's code loads (a second at 100,000 reviews on a slow machine).
  readLineFilesEarly(config.BUILD_CACHE_DIR);
  const { buildSite } = await import("../src/build/build-site.ts");
  const strict = process.argv.includes("--strict");
  const { manifest, timings, warnings, dataOnly, astro } = await buildSite({ ...config, strict });
  for (const line of warnings) console.warn(line);
  console.log(astro);
  const seconds = (performance.now() / 1000).toFixed(1);
  console.log(
    `built ${Object.keys(manifest.files).length} files, ${manifest.review_count} reviews, into ${config.DIST_DIR} in ${seconds} s`,
  );
  if (process.argv.includes("--timings")) {
    // total: since the process started (performance.now()'s origin), Node's start and loading the code included.
    // CPU time of the whole process (every thread), which a loaded machine inflates less than the wall clock.
    const { user, system } = process.cpuUsage();
    const cpu = { total: Math.round((user + system) / 1000) };
    const path = dataOnly ? "data-only" : "full";
    const total = Math.round(performance.now());
    console.log(JSON.stringify({ timings: { ...timings, total }, path, cpu }));
  }
} catch (e) {
  if (e instanceof ContentError) {
    console.error(e.message);
    console.error("The build stopped; the previous output was left as it was.");
  } else {
    console.error(e instanceof Error ? e.message : e);
  }
  process.exit(1);
}
