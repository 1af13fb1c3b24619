import assert from "node:assert/strict";
import { test } from "node:test";
import { usePretty } from "../../sidecar/logger.ts";
import { loadConfig } from "../../src/config.ts";

test("logs are pretty on a terminal and JSON elsewhere unless LOG_FORMAT says otherwise", () => {
  assert.equal(usePretty("auto", true), true);
  assert.equal(usePretty("auto", false), false);
  assert.equal(usePretty("json", true), false);
  assert.equal(usePretty("pretty", false), true);
  assert.equal(loadConfig({}).LOG_FORMAT, "auto");
  assert.throws(() => loadConfig({ LOG_FORMAT: "xml" }), /LOG_FORMAT/);
});
