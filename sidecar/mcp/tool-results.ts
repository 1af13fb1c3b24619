// tools/call answers kept per build: every tool is a pure function of the build and its arguments, so a
// repeated call costs a lookup. One entry holds the result once as JSON bytes and once as the objects the SDK
// validates; the text block and structuredContent are both made from the same bytes, and a transport that
// writes its own frames (exchange-transport.ts) splices the bytes in instead of serialising the objects again.
// The same per-build cache, under the same budget, keeps whole answers for prepared-calls.ts.
import type { Issue } from "../../src/domain/schemas/api.ts";
import { parseQuery } from "../../src/domain/search/issues.ts";
import { PerBuildCache } from "../build-store/per-build-cache.ts";
import type { Snapshot } from "../build-store/snapshot.ts";
import type { ToolDefinition, ToolOutcome } from "./tools/tool.ts";

export interface PreparedResult {
  /** The result's JSON, the text block's text. */
  text: string;
  /** The same JSON parsed: structuredContent. */
  structured: Record<string, unknown>;
  /** `[{"type":"text","text":...}]`, the content array as JSON. */
  contentJson: Buffer;
  /** The result's JSON bytes. */
  structuredJson: Buffer;
}

/** A tools/call result as the SDK takes it: fresh wrappers around the shared, never mutated parts. */
export const callToolResult = (p: PreparedResult) => ({
  content: [{ type: "text" as const, text: p.text }],
  structuredContent: p.structured,
});

export function prepare(outcome: Exclude<ToolOutcome<unknown>, { ok: false }>): PreparedResult {
  const structuredJson = "json" in outcome ? outcome.json : Buffer.from(JSON.stringify(outcome.value));
  const text = structuredJson.toString("utf8");
  const structured = "json" in outcome ? JSON.parse(text) : outcome.value;
  const contentJson = Buffer.from(JSON.stringify([{ type: "text", text }]));
  return { text, structured, contentJson, structuredJson };
}

/** A whole tools/call answer kept by prepared-calls.ts: the frame's bytes after the request's id. */
export interface KeptAnswer {
  tail: Buffer;
  /** Bytes it holds, its key included. */
  cost: number;
}

/**
 * What /mcp keeps per build, under one budget: tool results (here) and the whole answers of repeated calls
 * (prepared-calls.ts), least recently used out first. A result is estimated at six times its JSON (the bytes,
 * the text block's JSON, the string, the objects), an answer at its bytes. One over an eighth of the budget
 * (a result of 500 KB of JSON: a `get_reviews_since` of months) is computed per call and not kept.
 */
const MCP_CACHE_BUDGET = 24 << 20;
export const mcpCache = new PerBuildCache<PreparedResult | KeptAnswer>(MCP_CACHE_BUDGET, (v) =>
  "tail" in v ? v.cost : 6 * v.structuredJson.length,
);

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
  if (hit && !("tail" in hit)) return hit;
  const args = parseQuery(tool.input, raw);
  if (!args.ok) return args;
  const outcome = tool.run(snapshot, args.value);
  if (!outcome.ok) return outcome;
  const prepared = prepare(outcome);
  cache.set(key, prepared);
  return prepared;
}
