// npm run build: builds CONTENT_DIR into DIST_DIR for BASE_URL. Exit code 1 and a readable list on bad content.
import { buildSite } from "../src/build/build-site.ts";
import { loadConfig } from "../src/config.ts";
import { ContentError } from "../src/domain/content-errors.ts";

process.env.ASTRO_TELEMETRY_DISABLED = "1";
const started = performance.now();
try {
  const config = loadConfig();
  const { manifest, timings, warnings, dataOnly, astro } = await buildSite(config);
  for (const line of warnings) console.warn(line);
  console.log(astro);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `built ${Object.keys(manifest.files).length} files, ${manifest.review_count} reviews, into ${config.DIST_DIR} in ${seconds} s`,
  );
  if (process.argv.includes("--timings")) {
    // CPU time of the whole process (every thread), which a loaded machine inflates less than the wall clock.
    const { user, system } = process.cpuUsage();
    const cpu = { total: Math.round((user + system) / 1000) };
    const path = dataOnly ? "data-only" : "full";
    console.log(JSON.stringify({ timings: { ...timings, total: Math.round(performance.now() - started) }, path, cpu }));
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
