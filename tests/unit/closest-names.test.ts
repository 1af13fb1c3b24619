import assert from "node:assert/strict";
import { test } from "node:test";
import { closestEntries } from "../../src/domain/closest-names.ts";

const TECHS = [
  { id: "teresa-nguyen", name: "Teresa Nguyen", aliases: ["Tess"] },
  { id: "marcus-delgado", name: "Marcus Delgado" },
  { id: "grant-okafor", name: "Grant Okafor" },
];

test("near spellings, parts of names and other cases find the entry; far ones find nothing", () => {
  assert.deepEqual(
    closestEntries(TECHS, "Markus").map((e) => e.id),
    ["marcus-delgado"],
  );
  assert.deepEqual(
    closestEntries(TECHS, "tes").map((e) => e.id),
    ["teresa-nguyen"],
  );
  assert.deepEqual(
    closestEntries(TECHS, "GRANT O").map((e) => e.id),
    ["grant-okafor"],
  );
  assert.deepEqual(
    closestEntries(TECHS, "Delgardo").map((e) => e.id),
    ["marcus-delgado"],
  );
  assert.deepEqual(closestEntries(TECHS, "zzzzzzzz"), []);
  assert.deepEqual(closestEntries(TECHS, "  "), []);
});
