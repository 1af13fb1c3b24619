// With DATABASE_URL, a legacy MCP session ended on one instance is refused by every other instance, also one
// that had already adopted it; without the shared store the other instance would keep answering it.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { buildSample } from "../helpers/build.ts";
import { legacySession, rpc } from "../helpers/mcp-http.ts";
import { tempDir } from "../helpers/paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/pg.ts";
import { type SidecarProcess, startSidecarProcess } from "../helpers/sidecar-process.ts";

const SECRET = randomBytes(24).toString("hex");
let db: TestDatabase;
let a: SidecarProcess;
let b: SidecarProcess;

before(async () => {
  db = await createTestDatabase("mcprev");
  const dist = await buildSample();
  const start = async () =>
    startSidecarProcess({
      DIST_DIR: dist,
      DATA_DIR: join(await tempDir("data"), "data"),
      MCP_SESSION_SECRET: SECRET,
      DATABASE_URL: db.url,
      LOG_LEVEL: "info",
    });
  a = await start();
  b = await start();
});
after(async () => {
  await Promise.all([a, b].map((s) => s?.stop()));
  await db?.drop();
});

test("a session ended with DELETE on one instance is refused by the other, which had adopted it", async () => {
  const session = await legacySession(a.url);
  const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
  assert.equal((await rpc(b.url, list, session)).res.status, 200, "b adopts the session");
  const ended = await fetch(`${a.url}/mcp`, { method: "DELETE", headers: session });
  assert.equal(ended.status, 200);
  assert.equal((await rpc(a.url, list, session)).res.status, 404, "ended where it was deleted");
  // b reads ended ids every second; give it a few polls.
  let status = 0;
  for (let i = 0; i < 50 && status !== 404; i++) {
    await sleep(200);
    status = (await rpc(b.url, list, session)).res.status;
  }
  assert.equal(status, 404, "b refuses the ended session");
});
