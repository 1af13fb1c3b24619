// "Did you mean": the catalog entries (technicians, services, service areas) whose id, name or an alias is
// nearest to what someone typed, by edit distance over the case-folded words, a prefix or substring counting as
// near. For answers that name what exists instead of returning nothing.

export interface NamedEntry {
  id: string;
  name: string;
  aliases?: string[];
}

const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().trim();

/** Levenshtein distance, two rows. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * How far `typed` is from `name`: 0 when the name holds what was typed, or what was typed holds the name as whole
 * words (a short alias such as "AC" inside "furnace" is no match), else the edit distance to its nearest word run.
 */
function nearness(typed: string, name: string): number {
  if (name.includes(typed) || ` ${typed} `.includes(` ${name} `)) return 0;
  const words = name.split(/[\s-]+/);
  return Math.min(distance(typed, name), ...words.map((w) => distance(typed, w)));
}

/** Up to `max` entries nearest to `typed`, nearest first; only those within a few edits of it. */
export function closestEntries<E extends NamedEntry>(entries: readonly E[], typed: string, max = 3): E[] {
  const t = fold(typed);
  if (t === "") return [];
  const scored = entries.map((e) => ({
    e,
    d: Math.min(...[e.id, e.name, ...(e.aliases ?? [])].map((n) => nearness(t, fold(n)))),
  }));
  const within = Math.max(2, Math.floor(t.length / 3));
  return scored
    .filter((s) => s.d <= within)
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((s) => s.e);
}

const NAMED = [
  ["mentions_technician", "technicians", "technician"],
  ["mentions_service", "services", "service"],
  ["mentions_area", "service_areas", "service area"],
] as const;

/**
 * The search's catalog parameters that name nothing in the catalog, as issues that say which entries are near:
 * for answers (MCP) where an empty result would hide a typo. `resolve` says whether a value names an entry.
 */
export function unknownNameIssues(
  catalog: Record<(typeof NAMED)[number][1], readonly NamedEntry[]>,
  params: Partial<Record<(typeof NAMED)[number][0], string>>,
  resolve: (param: (typeof NAMED)[number][0], value: string) => boolean,
): { path: string[]; code: string; message: string }[] {
  const issues: { path: string[]; code: string; message: string }[] = [];
  for (const [param, kind, label] of NAMED) {
    const value = params[param];
    if (value === undefined || resolve(param, value)) continue;
    const near = closestEntries(catalog[kind], value).map((e) => `${e.name} (${e.id})`);
    issues.push({
      path: [param],
      code: "unknown_name",
      message: `no ${label} is named "${value}"${near.length ? `; did you mean ${near.join(", or ")}?` : ""} get_business lists them all`,
    });
  }
  return issues;
}

/** What resolves each catalog parameter: the index's own lookups (id, name or alias, any case). */
export const resolvedBy =
  (index: Record<"resolveTechnician" | "resolveService" | "resolveArea", (ref: string) => string | undefined>) =>
  (param: (typeof NAMED)[number][0], value: string): boolean =>
    (param === "mentions_technician"
      ? index.resolveTechnician(value)
      : param === "mentions_service"
        ? index.resolveService(value)
        : index.resolveArea(value)) !== undefined;
