// Query parameters are parsed strictly: decimal numbers only, every unknown name refused, real dates 0000-9999.
import assert from "node:assert/strict";
import { parse } from "node:querystring";
import { test } from "node:test";
import { parseQuery } from "../../src/domain/parse-query.ts";
import { SearchParams, SinceParams } from "../../src/domain/schemas/api.ts";
import { isRealDate } from "../../src/domain/schemas/common.ts";

const search = (qs: string) => parseQuery(SearchParams, parse(qs) as Record<string, unknown>);

test("numbers must be written in decimal digits", () => {
  for (const qs of ["limit=0x10", "limit=+5", "limit=%205", "limit=5.0", "limit=", "min_rating=1e0", "rating=0b1"]) {
    const r = search(qs);
    assert.equal(r.ok, false, qs);
    if (!r.ok) assert.match(r.issues[0]?.message ?? "", /written in digits/, qs);
  }
  const ok = search("limit=10&min_rating=3.5&rating=4");
  assert.deepEqual(ok, { ok: true, value: { limit: 10, min_rating: 3.5, rating: 4 } });
});

test("ranges still apply after the digits check", () => {
  const r = search("limit=101");
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.issues[0]?.code, "too_big");
});

test("MCP passes JSON numbers: the same schema accepts them", () => {
  assert.deepEqual(SearchParams.parse({ limit: 5, rating: 2 }), { limit: 5, rating: 2 });
});

test("prototype-like names are unknown parameters like any other", () => {
  for (const name of ["__proto__", "constructor", "toString"]) {
    const r = search(`${name}=1`);
    assert.equal(r.ok, false, name);
    if (!r.ok) assert.deepEqual(r.issues[0]?.path, [name]);
  }
});

test("dates in the years 0000 to 0099 are real calendar dates; impossible ones are not", () => {
  for (const d of ["0000-01-01", "0004-02-29", "0099-12-31", "2024-02-29", "9999-12-31"]) assert.ok(isRealDate(d), d);
  for (const d of ["0001-02-29", "0099-02-29", "2023-02-29", "2024-13-01", "2024-00-10"]) assert.ok(!isRealDate(d), d);
  assert.equal(SinceParams.safeParse({ date: "0050-06-15" }).success, true);
});
