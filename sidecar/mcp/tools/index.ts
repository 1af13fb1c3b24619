import { getBusinessTool } from "./get-business.ts";
import { getInsightsTool } from "./get-insights.ts";
import { getReviewTool } from "./get-review.ts";
import { getReviewsSinceTool } from "./get-reviews-since.ts";
import { toolJsonSchema } from "./json-schema.ts";
import { searchReviewsTool } from "./search-reviews.ts";
import { READ_ONLY } from "./tool.ts";

export const TOOLS = [getBusinessTool, searchReviewsTool, getReviewTool, getReviewsSinceTool, getInsightsTool];

/** What tools/list answers; generated once, the schemas never change while the process runs. */
export const TOOL_LIST = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: toolJsonSchema(t.input, "input"),
  outputSchema: toolJsonSchema(t.output, "output"),
  annotations: { title: t.title, ...READ_ONLY },
}));
