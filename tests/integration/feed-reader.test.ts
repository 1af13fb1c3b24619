// A real feed reader (Debian's python3-feedparser, installed by .ci/run) fetches /feed.xml through the
// sidecar, then re-fetches conditionally and gets 304.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

const run = promisify(execFile);
let sidecar: RunningSidecar;

const SCRIPT = `
import feedparser, json, sys
url = sys.argv[1]
d = feedparser.parse(url)
again = feedparser.parse(url, etag=d.get("etag"), modified=d.get("modified"))
print(json.dumps({
  "status": d.status, "bozo": d.bozo, "version": d.version, "title": d.feed.title,
  "entries": len(d.entries), "first_title": d.entries[0].title, "first_author": d.entries[0].author,
  "hub": [l.href for l in d.feed.links if l.rel == "hub"], "self": [l.href for l in d.feed.links if l.rel == "self"],
  "etag": d.get("etag"), "again_status": again.status, "again_entries": len(again.entries),
}))
`;

before(async () => {
  sidecar = await startTestSidecar(await buildSample());
});
after(() => sidecar.close());

test("feedparser reads the Atom feed and its conditional re-fetch gets 304", async () => {
  const { stdout } = await run("/usr/bin/python3", ["-c", SCRIPT, `${sidecar.url}/feed.xml`]);
  const r = JSON.parse(stdout);
  assert.equal(r.status, 200);
  assert.ok(!r.bozo, "well-formed");
  assert.equal(r.version, "atom10");
  assert.equal(r.entries, 50);
  assert.match(r.title, /customer reviews/);
  assert.ok(r.first_author.length > 0);
  assert.deepEqual(r.hub, ["http://localhost:4321/api/websub/hub"]);
  assert.deepEqual(r.self, ["http://localhost:4321/feed.xml"]);
  assert.ok(r.etag);
  assert.equal(r.again_status, 304);
  assert.equal(r.again_entries, 0);
});
