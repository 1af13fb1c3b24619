// npm start: builds when DIST_DIR is missing, built for another BASE_URL or index version, or older than
// CONTENT_DIR, then serves and rebuilds on each change under CONTENT_DIR (npm run serve -- --watch, after a build).
import "../src/require-node-version.ts";
import { loadConfig } from "../src/config.ts";
import { needsBuild, unusableBuild } from "./needs-build.ts";
import { runBuild, stopBuild } from "./run-build.ts";
import { main } from "./server.ts";

const config = loadConfig();
const reason = await needsBuild(config);
let failed = false;
// A signal during the first build ends the build with it (no build left running for nobody); the server's own
// handlers take over once it listens.
const stopEarly = () => {
  stopBuild();
  process.exit(1);
};
process.once("SIGTERM", stopEarly).once("SIGINT", stopEarly);
if (reason) {
  console.log(`building (${reason})...`);
  try {
    await runBuild({ echo: true });
  } catch {
    // Its output (the reasons) is above. A failed rebuild must not take the site down: serve the last good build
    // when there is one for BASE_URL.
    if (await unusableBuild(config)) {
      console.error(`The build failed; no usable build in ${config.DIST_DIR} to serve instead.`);
      process.exit(1);
    }
    console.error(`The build failed; serving the last good build in ${config.DIST_DIR}.`);
    failed = true;
  }
}
process.off("SIGTERM", stopEarly).off("SIGINT", stopEarly);
// After a failed build the watcher builds again at once: /readyz reports the failure, and it is retried.
await main({ watch: { rebuildNow: failed } });
