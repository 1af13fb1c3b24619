import * as z from "zod";
import { INSIGHT_SECTIONS, Insights } from "../../../src/domain/schemas/insights.ts";
import { defineTool } from "./tool.ts";

export const getInsightsTool = defineTool({
  name: "get_insights",
  title: "Review insights",
  description:
    "Returns what customers praise and criticise, computed from the reviews at build time: per aspect (punctuality, professionalism, workmanship, price_value, communication, cleanliness, speed, friendliness, scheduling) counts, score, trend by quarter and example quotes; per technician, service and service area; topics; FAQ; summary. Text marked generated: true was written by the build, not by a customer. Without `section`: the overview (method, period, review labels, summary, FAQ); pass `section` for one part in full (aspects, entities, topics, faq, summary).",
  input: z.strictObject({ section: z.enum(INSIGHT_SECTIONS).optional().describe("Only this part of the insights") }),
  output: Insights.partial(),
  run: (snapshot, { section }) => {
    const insights = snapshot.json("/insights.json") as Insights;
    const { method, generated_from, period } = insights;
    // The whole document is larger than an answer for a context window: the overview, and a part on request.
    if (!section) {
      const { review_labels, summary, faq } = insights;
      return { ok: true, value: { method, generated_from, period, review_labels, summary, faq } };
    }
    return { ok: true, value: { method, generated_from, period, [section]: insights[section] } };
  },
});
