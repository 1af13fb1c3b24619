import * as z from "zod";
import { INSIGHT_SECTIONS, Insights } from "../../../src/domain/schemas/insights.ts";
import { defineTool } from "./tool.ts";

export const getInsightsTool = defineTool({
  name: "get_insights",
  title: "Review insights",
  description:
    "Returns what customers praise and criticise, computed from the reviews at build time: per aspect (punctuality, professionalism, workmanship, price_value, communication, cleanliness, speed, friendliness, scheduling) counts, score, trend by quarter and example quotes; per technician, service and service area; topics; FAQ; summary. Text marked generated: true was written by the build, not by a customer. Pass `section` to get only one part.",
  input: z.strictObject({ section: z.enum(INSIGHT_SECTIONS).optional().describe("Only this part of the insights") }),
  output: Insights.partial(),
  run: (snapshot, { section }) => {
    const insights = snapshot.json("/insights.json") as Insights;
    if (!section) return { ok: true, value: insights };
    const { method, generated_from, period } = insights;
    return { ok: true, value: { method, generated_from, period, [section]: insights[section] } };
  },
});
