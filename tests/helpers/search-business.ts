// The smallest business the search index needs, for unit tests that build an index from a few records.
import type { Business, ReviewRecord } from "../../src/domain/schemas/published.ts";

/** A business with the given catalog (none by default) and placeholder contact details. */
export function searchBusiness(catalog: Partial<Pick<Business, "services" | "technicians">> = {}): Business {
  return {
    name: "B",
    url: "https://b.example",
    address: { street_address: "1", locality: "X", region: "Y", postal_code: "1", country: "US" },
    services: [],
    technicians: [],
    service_areas: [],
    ...catalog,
  } as unknown as Business;
}

/** A record with no mentions, a neutral sentiment and no aspects; the fields a test cares about override it. */
export function searchRecord(
  fields: Pick<ReviewRecord, "id" | "rating" | "date" | "updated" | "text"> & Partial<ReviewRecord>,
): ReviewRecord {
  return {
    author: "A",
    source: "direct",
    language: "en",
    mentions: { technicians: [], services: [], service_areas: [] },
    sentiment: { score: 0, label: "neutral" },
    aspects: [],
    ...fields,
  };
}
