// How an imported reviewer's name is published (AUTHOR_NAME_POLICY): platforms export the full name a
// customer gave them, which is more than a review page needs to show.
export const AUTHOR_NAME_POLICIES = ["initial", "first", "full"] as const;
export type AuthorNamePolicy = (typeof AUTHOR_NAME_POLICIES)[number];
export const DEFAULT_AUTHOR_NAME_POLICY: AuthorNamePolicy = "initial";
/**
 * Which reviews the policy is applied to (AUTHOR_NAME_SCOPE): `import`, the names `npm run import` writes; `all`,
 * also the names written by hand in content/, applied by the build to what it publishes (the files stay as written).
 */
export const AUTHOR_NAME_SCOPES = ["import", "all"] as const;
export type AuthorNameScope = (typeof AUTHOR_NAME_SCOPES)[number];
export const DEFAULT_AUTHOR_NAME_SCOPE: AuthorNameScope = "import";

/**
 * `initial`: the first name and the last name's initial ("Marcus Hill" -> "Marcus H."); `first`: the first name;
 * `full`: as exported. A single word ("Marcus", "Anonymous") stays as it is.
 */
export function formatAuthorName(name: string, policy: AuthorNamePolicy): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  if (policy === "full" || words.length < 2) return name.trim();
  if (policy === "first") return words[0];
  // The last name's first letter, whole (a code point, not half of a surrogate pair), upper-cased.
  const initial = [...words[words.length - 1]][0].toLocaleUpperCase();
  return `${words[0]} ${initial}.`;
}
