// Pages rendered on demand follow the build the sidecar serves: a rebuild shows at once, cached pages and their
// ETags are the old build's no more, and page code from a replaced DIST_DIR still renders every page type.
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, test } from "node:test";
import type { RunningSidecar } from "../../sidecar/server.ts";
import type { ReviewsDataset } from "../../src/domain/schemas/published.ts";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";
import { until } from "../helpers/until.ts";

let dist: string;
let sidecar: RunningSidecar;
const html = { headers: { Accept: "text/html", "Accept-Encoding": "identity" } };

before(async () => {
  dist = await buildSample();
  sidecar = await startTestSidecar(dist);
});
after(() => sidecar.close());

test("after a rebuild, pages show the new build, old ETags no longer match, and untouched page types still render", async () => {
  const dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as ReviewsDataset;
  const list = await fetch(`${sidecar.url}/reviews/`, html);
  const oldEtag = list.headers.get("etag") ?? "";
  await list.text();
  const cached = await fetch(`${sidecar.url}/reviews/`, { headers: { ...html.headers, "If-None-Match": oldEtag } });
  assert.equal(cached.status, 304, "the cached page revalidates");

  const content = await contentFixture({
    "reviews/2026/zz-page-newest.json": {
      rating: 4,
      date: "2026-11-21",
      text: "A review that only the second build has.",
      author: "Pia N.",
      verified: true,
    },
  });
  try {
    const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
    assert.equal(run.code, 0, run.stderr);
  } finally {
    await rm(content, { recursive: true, force: true });
  }
  const page = await until("the list to show the second build's review", async () => {
    const text = await (await fetch(`${sidecar.url}/reviews/`, html)).text();
    return text.includes("zz-page-newest") && text;
  });
  assert.ok(page.includes("A review that only the second build has."), "the list shows the new review");
  const revalidated = await fetch(`${sidecar.url}/reviews/`, {
    headers: { ...html.headers, "If-None-Match": oldEtag },
  });
  assert.equal(revalidated.status, 200, "the first build's ETag is stale");
  await revalidated.text();
  const permalink = await fetch(`${sidecar.url}/reviews/zz-page-newest/`, html);
  assert.equal(permalink.status, 200);
  assert.match(await permalink.text(), /A review that only the second build has\./);
  // Page types not requested before the switch load their code from the bundle held in memory.
  for (const path of [
    `/areas/${dataset.business.service_areas[0].id}/`,
    `/services/${dataset.business.services[0].id}/`,
    "/technicians/",
    "/search?query=the",
    "/reviews/page/2/",
  ]) {
    const res = await fetch(`${sidecar.url}${path}`, html);
    assert.equal(res.status, 200, path);
    await res.text();
  }
});
