import * as z from "zod";
import { ReviewRecord } from "../../../src/domain/schemas/published.ts";
import { defineTool } from "./tool.ts";

export const getReviewTool = defineTool({
  name: "get_review",
  title: "One review",
  description:
    "Returns one verified review by its id (the `id` field of any review returned by the other tools), with its mentions, sentiment and aspects.",
  input: z.strictObject({ id: z.string().min(1).max(200).describe("Review id") }),
  output: z.object({ review: ReviewRecord }),
  run: (snapshot, { id }) => {
    const review = snapshot.index.byId.get(id);
    if (!review)
      return {
        ok: false,
        issues: [{ path: ["id"], code: "not_found", message: `no published review has the id ${id}` }],
      };
    return { ok: true, value: { review } };
  },
});
