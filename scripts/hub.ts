// npm run hub -- list [--json]: the operator's view of the WebSub hub (no public endpoint shows this).
import { existsSync } from "node:fs";
import { hubStorePath } from "../sidecar/hub/hub.ts";
import { openSqliteHubStore } from "../sidecar/hub/sqlite-hub-store.ts";
import { loadConfig } from "../src/config.ts";

const [command = "list", ...flags] = process.argv.slice(2);
if (command !== "list") {
  console.error("usage: npm run hub -- list [--json]");
  process.exit(2);
}
const config = loadConfig();
const path = hubStorePath(config);
if (!existsSync(path)) {
  console.error(`No hub database at ${path} yet (it is created when the sidecar first starts).`);
  process.exit(1);
}
const store = openSqliteHubStore(path);
const subs = store.list();
store.close();
const now = Date.now();
const rows = subs.map((s) => ({
  topic: s.topic,
  callback: s.callback,
  expires: new Date(s.expiresAt).toISOString(),
  active: s.expiresAt > now,
  lease_seconds: s.leaseSeconds,
  failures: s.failures,
  pending_deliveries: s.pending,
  signed: s.secret !== null,
}));
if (flags.includes("--json")) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const topics = [...new Set(rows.map((r) => r.topic))];
  console.log(`${rows.length} subscription(s) in ${path}`);
  for (const t of topics) {
    const of = rows.filter((r) => r.topic === t);
    console.log(
      `\n${t}: ${of.filter((r) => r.active).length} active, ${of.filter((r) => r.failures > 0).length} failing, ${of.reduce((s, r) => s + r.pending_deliveries, 0)} pending`,
    );
    for (const r of of)
      console.log(
        `  ${r.callback}  expires ${r.expires}  failures ${r.failures}  pending ${r.pending_deliveries}${r.signed ? "  signed" : ""}`,
      );
  }
}
