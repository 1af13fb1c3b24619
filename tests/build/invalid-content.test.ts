// One fixture per kind of invalid file: the build fails naming the file, the field and the reason,
// and leaves the previous output untouched.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { before, test } from "node:test";
import { buildSample, contentFixture, runBuild } from "../helpers/build.ts";

const good = { rating: 5, date: "2025-03-04", text: "Great job.", author: "Ann B.", verified: true };
const sampleBusiness = JSON.parse(readFileSync(new URL("../../content/business.json", import.meta.url), "utf8"));
const [tech0, tech1] = sampleBusiness.technicians as { id: string; name: string; aliases?: string[] }[];
const [service0, service1] = sampleBusiness.services as { id: string; name: string; aliases?: string[] }[];
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
    expect: [/reviews\/x\/six\.json: rating: must be a whole number from 1 to 5, not 6/],
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
    name: "a file that is not UTF-8 (Latin-1)",
    files: {
      "reviews/x/latin1.json": Buffer.from(
        '{"rating":5,"date":"2025-01-10","author":"Ren\u00e9e M\u00fcller","verified":true,"text":"Tr\u00e8s bien"}',
        "latin1",
      ),
    },
    expect: [/reviews\/x\/latin1\.json: \(file\): not UTF-8 text: save the file as UTF-8/],
  },
  {
    name: "half of a surrogate pair, escaped",
    files: {
      "reviews/x/lone.json":
        '{"rating":5,"date":"2025-01-10","author":"Lone S.","verified":true,"text":"Very professional \\ud83d and on time"}',
    },
    expect: [/reviews\/x\/lone\.json: text: holds half of a UTF-16 surrogate pair/],
  },
  {
    name: "two technicians with one id",
    files: {
      "business.json": {
        ...sampleBusiness,
        technicians: [...sampleBusiness.technicians, { ...tech0, name: "Someone Else", aliases: [] }],
      },
    },
    expect: [
      new RegExp(
        `business\\.json: technicians\\.${sampleBusiness.technicians.length}\\.id: "${tech0.id}" also names technicians\\.0`,
      ),
    ],
  },
  {
    name: "an alias naming two services",
    files: {
      "business.json": {
        ...sampleBusiness,
        technicians: [tech0, tech1, ...sampleBusiness.technicians.slice(2)],
        services: [
          service0,
          { ...service1, aliases: [...(service1.aliases ?? []), service0.name] },
          ...sampleBusiness.services.slice(2),
        ],
      },
    },
    expect: [/business\.json: services\.1\.aliases\.\d+: ".*" also names services\.0/],
  },
  {
    name: "invalid business field",
    files: {
      "business.json": { name: "X", url: "not a url", address: {}, services: [], technicians: [], service_areas: [] },
    },
    expect: [/business\.json: url:/, /business\.json: address\.locality:/, /business\.json: services:/],
  },
  {
    name: "invalid visitor-facing business fields",
    files: {
      "business.json": {
        ...sampleBusiness,
        brand_color: "teal",
        booking_url: "javascript:alert(1)",
        photos: [{ src: "https://example.com/a.jpg", alt: "" }],
        licence: "x".repeat(201),
      },
    },
    expect: [
      /business\.json: brand_color: must be a colour written #rrggbb/,
      /business\.json: booking_url:/,
      /business\.json: photos\.0\.alt:/,
      /business\.json: licence:/,
    ],
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
