// The engine's own vocabulary: the labels it gives, the aspects it looks for and what it reads of a business.
// A caller's schemas may list the same labels and aspects; a caller that keeps the engine's results in records
// typed by its schemas has its typecheck fail when the engine can give one its schema does not allow.

export const SENTIMENTS = ["positive", "neutral", "negative"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** The aspects in the order the aspect layer's weights are laid out (model/aspect-layer.json). */
export const ASPECTS = [
  "punctuality",
  "professionalism",
  "workmanship",
  "price_value",
  "communication",
  "cleanliness",
  "speed",
  "friendliness",
  "scheduling",
] as const;
export type Aspect = (typeof ASPECTS)[number];

/** A catalog entry the mentions are matched against: its id, name and other names. */
export interface CatalogEntry {
  id: string;
  name: string;
  aliases?: string[];
}

/** What the engine reads of a business: its name and its catalog of technicians, services and service areas. */
export interface Catalog {
  name: string;
  technicians: CatalogEntry[];
  services: CatalogEntry[];
  service_areas: (CatalogEntry & { postal_codes?: string[] })[];
}
