// tools/call results kept per build: every tool is a pure function of the build and its arguments, so a
// repeated call costs a lookup. One entry holds the result's JSON text (the text block) and the same JSON parsed
// (structuredContent).

import { MCP_ANSWER_MAX_BYTES, MCP_PAGE_REVIEW_BYTES } from "../../src/domain/limits.ts";
import { parseQuery } from "../../src/domain/parse-query.ts";
import { PerBuildCache } from "../../src/domain/per-build-cache.ts";
import type { Issue } from "../../src/domain/schemas/api.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import type { ToolDefinition, ToolOutcome } from "./tools/tool.ts";

export interface PreparedResult {
  /** The result's JSON, the text block's text. */
  text: string;
  /** The same JSON parsed: structuredContent. */
  structured: Record<string, unknown>;
}

/** A tools/call result as the SDK takes it: fresh wrappers around the shared, never mutated parts. */
export const callToolResult = (p: PreparedResult) => ({
  content: [{ type: "text" as const, text: p.text }],
  structuredContent: p.structured,
});

export function prepare(outcome: Exclude<ToolOutcome<unknown>, { ok: false }>): PreparedResult {
  const text = "json" in outcome ? outcome.json.toString("utf8") : JSON.stringify(outcome.value);
  const structured = "json" in outcome ? JSON.parse(text) : outcome.value;
  return { text, structured };
}

/**
 * Results kept per build, estimated at four times their JSON (the string, the objects). One over an eighth of the
 * budget (a result of 750 KB of JSON: a `get_reviews_since` of months) is computed per call and not kept.
 */
const MCP_CACHE_BUDGET = 24 << 20;
/** A result's text block and structuredContent together, with room for the JSON-RPC envelope. */
const ANSWER_ROOM = MCP_ANSWER_MAX_BYTES - 1024;
const mcpCache = new PerBuildCache<PreparedResult>(MCP_CACHE_BUDGET, (v) => 4 * v.text.length);

/**
 * The prepared result of `tool` called with `raw` arguments, or the issues (never kept). Kept under the
 * arguments as sent: equal arguments validate to equal values, so a repeated call is not validated again.
 */
export function toolResult(
  snapshot: Snapshot,
  tool: ToolDefinition,
  raw: Record<string, unknown>,
): PreparedResult | { ok: false; issues: Issue[] } {
  const cache = mcpCache.of(snapshot);
  const key = `result\n${tool.name}\n${JSON.stringify(raw)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const args = parseQuery(tool.input, raw);
  if (!args.ok) return args;
  // A page whose reviews are long (quotes escaped in the text block weigh more) is asked again with half the room.
  for (let reviewBytes = MCP_PAGE_REVIEW_BYTES; ; reviewBytes = Math.floor(reviewBytes / 2)) {
    const outcome = tool.run(snapshot, args.value, reviewBytes);
    if (!outcome.ok) return outcome;
    const prepared = prepare(outcome);
    const size = Buffer.byteLength(JSON.stringify(prepared.text)) + Buffer.byteLength(prepared.text);
    if (size <= ANSWER_ROOM || reviewBytes < 1024) {
      cache.set(key, prepared);
      return prepared;
    }
  }
}
