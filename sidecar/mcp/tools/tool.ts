// What a tool is here: zod schemas in and out, and a pure run over the current build.
import type * as z from "zod";
import type { Issue } from "../../../src/domain/schemas/api.ts";
import type { Snapshot } from "../../build-store/snapshot.ts";

/** Every tool only reads the current build. */
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * `value`: the result as an object; or `json`: the result as JSON bytes when the tool assembles it from the
 * bytes of reviews.json (the REST answer's bytes), so nothing is parsed only to be serialised again.
 */
export type ToolOutcome<T> = { ok: true; value: T } | { ok: true; json: Buffer } | { ok: false; issues: Issue[] };

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /**
   * `reviewBytes`: how many bytes of reviews' JSON a page may hold (tools that answer pages of reviews stop there,
   * at least one review, and their next_cursor goes on from there).
   */
  run(snapshot: Snapshot, args: z.output<I>, reviewBytes: number): ToolOutcome<z.output<O>>;
}

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(t: ToolDefinition<I, O>): ToolDefinition =>
  t as unknown as ToolDefinition;
