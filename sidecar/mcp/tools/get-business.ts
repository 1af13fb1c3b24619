import * as z from "zod";
import { AggregateRating, Business } from "../../../src/domain/schemas/published.ts";
import { defineTool } from "./tool.ts";

export const getBusinessTool = defineTool({
  name: "get_business",
  title: "Business details",
  description:
    "Returns the business (name, contact, address, opening hours, its catalog of services, technicians and service areas with their ids) and its aggregate rating (mean, count, distribution of 1-5 stars). Call this first to learn the ids that search_reviews accepts.",
  input: z.strictObject({}),
  output: z.object({ business: Business, aggregate_rating: AggregateRating }),
  run: (snapshot) => ({
    ok: true,
    value: { business: snapshot.dataset.business, aggregate_rating: snapshot.dataset.aggregate_rating },
  }),
});
