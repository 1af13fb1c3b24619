// Reads a `_headers` file the way Netlify and Cloudflare Pages do: a path pattern (exact, or ending in a `*`
// splat) followed by indented `Name: value` lines; every rule that matches a path contributes its headers.
export interface HeaderRule {
  pattern: string;
  headers: Array<[string, string]>;
}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: [] });
      return;
    }
    const m = /^\s+([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    const rule = rules.at(-1);
    if (!m || !rule) throw new Error(`_headers line ${i + 1}: not a path nor a "Name: value" line: ${line}`);
    rule.headers.push([m[1], m[2]]);
  });
  return rules;
}

/** The headers a host sends for `path`, lower-cased names; a header set by two rules is joined with ", ". */
export function headersFor(rules: HeaderRule[], path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of rules) {
    const { pattern } = rule;
    const matches = pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
    if (!matches) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      out.set(key, out.has(key) ? `${out.get(key)}, ${value}` : value);
    }
  }
  return out;
}
