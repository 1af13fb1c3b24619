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
    opening_hours: z.array(z.string()).optional(),
    same_as: z.array(z.url()).optional(),
    logo: z.url().optional(),
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
