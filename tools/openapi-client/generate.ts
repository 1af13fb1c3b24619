// TypeScript types for a served OpenAPI document, made by openapi-typescript with its default options: what an
// integrator's generated client is typed with.
import openapiTS, { astToString } from "openapi-typescript";

export async function generateTypes(document: object): Promise<string> {
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}
