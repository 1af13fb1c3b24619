// One fixture per kind of invalid file: the build fails naming the file, the field and the reason,
// and leaves the previous output untouched.
import assert from "node:assert/strict";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { before, test } from "node:test";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";

const good = { rating: 5, date: "2025-03-04", text: "Great job.", author: "Ann B.", verified: true };
const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);

const cases: { name: string; files: Record<string, unknown>; expect: RegExp[] }[] = [
  {
    name: "malformed JSON",
    files: { "reviews/x/bad-json.json": "{ rating: 5" },
    expect: [/reviews\/x\/bad-json\.json/, /not valid JSON/],
  },
  {
    name: "unknown field",
    files: { "reviews/x/extra.json": { ...good, stars: 5 } },
    expect: [/reviews\/x\/extra\.json/, /unknown field stars/],
  },
  {
    name: "rating out of range",
    files: { "reviews/x/six.json": { ...good, rating: 6 } },
    expect: [/reviews\/x\/six\.json: rating:/, /<=5/],
  },
  {
    name: "impossible date",
    files: { "reviews/x/leap.json": { ...good, date: "2023-02-29" } },
    expect: [/reviews\/x\/leap\.json: date: not a real calendar date/],
  },
  {
    name: "unknown catalog reference",
    files: { "reviews/x/who.json": { ...good, technicians: ["nobody-here"] } },
    expect: [/reviews\/x\/who\.json: technicians\.0: unknown technician "nobody-here"/],
  },
  {
    name: "duplicate id across folders",
    files: { "reviews/a/twin.json": good, "reviews/b/twin.json": good },
    expect: [/reviews\/b\/twin\.json/, /also used by reviews\/a\/twin\.json/],
  },
  {
    name: "missing required field",
    files: { "reviews/x/anon.json": { rating: 4, date: "2025-01-01", text: "", verified: true } },
    expect: [/reviews\/x\/anon\.json: author:/],
  },
  {
    name: "review dated in the future",
    files: { "reviews/x/soon.json": { ...good, date: inTenDays } },
    expect: [/reviews\/x\/soon\.json: date: \d{4}-\d{2}-\d{2} is in the future \(today is \d{4}-\d{2}-\d{2}\)/],
  },
  {
    name: "owner response dated before its review",
    files: { "reviews/x/early.json": { ...good, response: { text: "Thanks!", date: "2025-03-01" } } },
    expect: [
      /reviews\/x\/early\.json: response\.date: the owner response \(2025-03-01\) is dated before the review \(2025-03-04\)/,
    ],
  },
  {
    name: "invalid business field",
    files: {
      "business.json": { name: "X", url: "not a url", address: {}, services: [], technicians: [], service_areas: [] },
    },
    expect: [/business\.json: url:/, /business\.json: address\.locality:/, /business\.json: services:/],
  },
];

let dist: string;
let before1: Map<string, Buffer>;

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), await readFile(join(e.parentPath, e.name)));
  }
  return out;
}

before(async () => {
  dist = await buildSample();
  before1 = await snapshot(dist);
});

for (const c of cases) {
  test(`${c.name}: the build fails with file, field and reason, and dist/ stays as it was`, async () => {
    const content = await contentFixture(c.files);
    try {
      const run = await runBuild({ CONTENT_DIR: content, DIST_DIR: dist });
      assert.equal(run.code, 1, run.stdout);
      for (const re of c.expect) assert.match(run.stderr, re);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
      const after = await snapshot(dist);
      assert.deepEqual([...after.keys()].sort(), [...before1.keys()].sort());
      for (const [k, v] of after) assert.ok(v.equals(before1.get(k) as Buffer), k);
    } finally {
      await rm(content, { recursive: true, force: true });
    }
  });
}
