// What a tool is here: zod schemas in and out, and a pure run over the current build.
import type * as z from "zod";
import type { Issue } from "../../../src/domain/schemas/api.ts";
import type { Snapshot } from "../../build-store/snapshot.ts";

/** Every tool only reads the current build. */
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** `text`: the value as JSON when the tool has it as bytes already (else the server stringifies `value`). */
export type ToolOutcome<T> = { ok: true; value: T; text?: string } | { ok: false; issues: Issue[] };

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(snapshot: Snapshot, args: z.output<I>): ToolOutcome<z.output<O>>;
}

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(t: ToolDefinition<I, O>): ToolDefinition =>
  t as unknown as ToolDefinition;
