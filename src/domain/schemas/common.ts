import * as z from "zod";

/** Catalog ids (services, technicians, service areas). */
export const Id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must match ^[a-z0-9][a-z0-9-]*$");

/** A real calendar date written as YYYY-MM-DD (2023-02-29 is refused). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine(isRealDate, "not a real calendar date")
  .meta({ format: "date", examples: ["2025-06-01"] });

export function isRealDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** RFC 3339 date-time with an offset, normalised by the publisher to UTC `Z`. */
export const DateTime = z.iso.datetime({ offset: true });

export const Sentiment = z.enum(["positive", "neutral", "negative"]);
export type Sentiment = z.infer<typeof Sentiment>;

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
export const Aspect = z.enum(ASPECTS);
export type Aspect = z.infer<typeof Aspect>;
