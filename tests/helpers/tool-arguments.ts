// Arguments for an MCP tool built from its input schema, as an agent fills them: a property's own examples, every
// value of an enum, its default or its bounds; and for names and ids, which a schema cannot list, what an agent
// learns first from get_business and search_reviews. Client-agnostic: each client test passes its own call.

export interface PropertySchema {
  type?: string;
  examples?: unknown[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

export interface InputSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** A tool call's structured result. */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface Named {
  id: string;
  name: string;
}

/** Names and ids from the catalog and the newest review, under the argument names that take them. */
export async function catalogValues(call: CallTool): Promise<Record<string, unknown>> {
  const { business } = (await call("get_business", {})) as {
    business: { technicians: Named[]; services: Named[]; service_areas: Named[] };
  };
  const { reviews } = (await call("search_reviews", { limit: 1 })) as {
    reviews: { id: string; title?: string; text: string }[];
  };
  const words = (reviews[0].title || reviews[0].text).split(/\s+/).filter(Boolean).slice(0, 2).join(" ");
  const technician = business.technicians[0].name;
  const service = business.services[0].name;
  const area = business.service_areas[0].name;
  return {
    id: reviews[0].id,
    ...(words ? { query: words } : {}),
    technician,
    mentions_technician: technician,
    service,
    mentions_service: service,
    area,
    mentions_area: area,
  };
}

/** Every value worth sending for one property; empty when neither the schema nor the catalog gives one. */
export function valuesFor(name: string, property: PropertySchema, known: Record<string, unknown>): unknown[] {
  if (property.examples?.length) return property.examples;
  if (property.enum?.length) return property.enum;
  if (property.default !== undefined) return [property.default];
  if (property.type === "integer" || property.type === "number")
    return [property.minimum, property.maximum].filter((v) => v !== undefined);
  return name in known ? [known[name]] : [];
}

export interface PlannedCalls {
  /** The required arguments alone. */
  required: Record<string, unknown>;
  /** The required arguments plus one optional argument set to one of its values, for every such value. */
  withOptional: { property: string; args: Record<string, unknown> }[];
  /** Optional properties nothing gives a value for (e.g. `cursor`, which comes from a previous page). */
  unfilled: string[];
}

export function planCalls(tool: string, schema: InputSchema, known: Record<string, unknown>): PlannedCalls {
  const properties = schema.properties ?? {};
  const requiredNames = schema.required ?? [];
  const required: Record<string, unknown> = {};
  for (const name of requiredNames) {
    const [value] = valuesFor(name, properties[name], known);
    if (value === undefined) throw new Error(`${tool}: no example, enum, default or catalog value for "${name}"`);
    required[name] = value;
  }
  const withOptional: PlannedCalls["withOptional"] = [];
  const unfilled: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (requiredNames.includes(name)) continue;
    const values = valuesFor(name, property, known);
    if (!values.length) unfilled.push(name);
    for (const value of values) withOptional.push({ property: name, args: { ...required, [name]: value } });
  }
  return { required, withOptional, unfilled };
}
