import * as z from "zod";
import { resolvedBy, unknownNameIssues } from "../../../src/domain/closest-names.ts";
import { INSIGHT_SECTIONS, Insights } from "../../../src/domain/schemas/insights.ts";
import { defineTool } from "./tool.ts";

const name = z.string().trim().min(1).max(100);

export const getInsightsTool = defineTool({
  name: "get_insights",
  title: "Review insights",
  description:
    "What customers praise and criticise, computed from the reviews at build time. Without arguments: the overview (period, review labels, summary, FAQ). `section` gives one part in full: aspects (per aspect counts, score, trend by quarter, example quotes), entities, topics, faq, summary. `technician`, `service` or `area` (id, name or alias) gives that one's rating, sentiment and top aspects. Text marked generated: true was written by the build, not by a customer.",
  input: z.strictObject({
    section: z.enum(INSIGHT_SECTIONS).optional().describe("Only this part of the insights"),
    technician: name.optional().describe("Only this technician (id, name or alias)"),
    service: name.optional().describe("Only this service (id, name or alias)"),
    area: name.optional().describe("Only this service area (id, name or alias)"),
  }),
  output: Insights.partial(),
  run: (snapshot, { section, technician, service, area }) => {
    const insights = snapshot.json("/insights.json") as Insights;
    const { method, generated_from, period } = insights;
    if (technician !== undefined || service !== undefined || area !== undefined) {
      const { index } = snapshot;
      const asked = { mentions_technician: technician, mentions_service: service, mentions_area: area };
      const unknown = unknownNameIssues(snapshot.dataset.business, asked, resolvedBy(index));
      if (unknown.length > 0) return { ok: false, issues: unknown };
      const ids = {
        technicians: technician === undefined ? undefined : index.resolveTechnician(technician),
        services: service === undefined ? undefined : index.resolveService(service),
        service_areas: area === undefined ? undefined : index.resolveArea(area),
      };
      const only = (kind: keyof typeof ids) => insights.entities[kind].filter((e) => e.id === ids[kind]);
      const entities = {
        technicians: only("technicians"),
        services: only("services"),
        service_areas: only("service_areas"),
      };
      return { ok: true, value: { method, generated_from, period, entities } };
    }
    // The whole document is larger than an answer for a context window: the overview, and a part on request.
    if (!section) {
      const { review_labels, summary, faq } = insights;
      return { ok: true, value: { method, generated_from, period, review_labels, summary, faq } };
    }
    return { ok: true, value: { method, generated_from, period, [section]: insights[section] } };
  },
});
