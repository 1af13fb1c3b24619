// What a business writes in CONTENT_DIR. Strict: unknown fields fail the build.
import * as z from "zod";
import { DateTime, Id, IsoDate } from "./common.ts";

const CatalogEntry = z.strictObject({
  id: Id,
  name: z.string().trim().min(1),
  aliases: z.array(z.string().trim().min(1)).optional(),
});

export const ServiceEntry = CatalogEntry.meta({ id: "Service" });
export const TechnicianEntry = CatalogEntry.meta({ id: "Technician" });
export const ServiceAreaEntry = CatalogEntry.extend({
  postal_codes: z.array(z.string().trim().min(1)).optional(),
}).meta({ id: "ServiceArea" });

export const Address = z
  .strictObject({
    street_address: z.string().min(1),
    locality: z.string().min(1),
    region: z.string().min(1),
    postal_code: z.string().min(1),
    country: z.string().min(2),
  })
  .meta({ id: "Address" });

const webUrl = z.url({ protocol: /^https?$/ });
export const PHOTOS_MAX = 12;
export const ALT_MAX_LENGTH = 300;
export const LICENCE_MAX_LENGTH = 200;

export const BusinessContent = z
  .strictObject({
    name: z.string().trim().min(1),
    description: z.string().optional(),
    url: z.url({ protocol: /^https?$/ }),
    telephone: z.string().optional(),
    email: z.email().optional(),
    address: Address,
    geo: z.strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
    price_range: z.string().optional(),
    opening_hours: z
      .array(z.string())
      .optional()
      .describe('schema.org openingHours strings such as "Mo-Fr 07:30-18:00"; shown on the home page'),
    same_as: z.array(z.url()).optional(),
    logo: z.url().optional(),
    photos: z
      .array(
        z.strictObject({
          src: webUrl.describe("The photo's address (http or https)"),
          alt: z
            .string()
            .trim()
            .min(1)
            .max(ALT_MAX_LENGTH)
            .describe("What the photo shows, for people who cannot see it"),
        }),
      )
      .max(PHOTOS_MAX)
      .optional()
      .describe(`Up to ${PHOTOS_MAX} photos shown on the home page and named in the JSON-LD`),
    booking_url: webUrl.optional().describe("Where a customer books a visit: the booking button"),
    review_url: webUrl.optional().describe("The business's own invitation to leave a review (e.g. on Google)"),
    licence: z.string().trim().min(1).max(LICENCE_MAX_LENGTH).optional().describe("Licence line shown under the name"),
    brand_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour written #rrggbb")
      .optional()
      .describe("Colour of the action buttons and page accents"),
    schema_type: z
      .string()
      .regex(/^[A-Z][A-Za-z]+$/, "must be a schema.org type name such as HVACBusiness")
      .optional(),
    services: z.array(ServiceEntry).min(1),
    technicians: z.array(TechnicianEntry),
    service_areas: z.array(ServiceAreaEntry),
  })
  .meta({
    id: "Business",
    description: "Business metadata and its catalog of services, technicians and service areas.",
  });
export type BusinessContent = z.infer<typeof BusinessContent>;

export const ReviewContent = z.strictObject({
  rating: z.int().min(1).max(5),
  date: IsoDate,
  updated: DateTime.optional(),
  title: z.string().optional(),
  text: z.string(),
  author: z.string().trim().min(1),
  verified: z.boolean(),
  source: z.string().min(1).optional(),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a BCP 47 language tag such as en or en-US")
    .optional(),
  response: z.strictObject({ text: z.string().min(1), date: IsoDate }).optional(),
  technicians: z.array(z.string().min(1)).optional(),
  services: z.array(z.string().min(1)).optional(),
  service_areas: z.array(z.string().min(1)).optional(),
  private: z.record(z.string(), z.unknown()).optional(),
});
export type ReviewContent = z.infer<typeof ReviewContent>;
