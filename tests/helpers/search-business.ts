// The smallest business the search index needs, for unit tests that build an index from a few records.
import type { Business } from "../../src/domain/schemas/published.ts";

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
