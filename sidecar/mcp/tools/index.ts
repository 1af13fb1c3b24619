import { getBusinessTool } from "./get-business.ts";
import { getInsightsTool } from "./get-insights.ts";
import { getReviewTool } from "./get-review.ts";
import { getReviewsSinceTool } from "./get-reviews-since.ts";
import { searchReviewsTool } from "./search-reviews.ts";

export const TOOLS = [getBusinessTool, searchReviewsTool, getReviewTool, getReviewsSinceTool, getInsightsTool];
