// Accept-Encoding negotiation between the precompressed variants of a file.
export type Encoding = "br" | "gzip" | "identity";

export function acceptedEncodings(header: string | undefined): Set<Encoding> {
  const accepted = new Set<Encoding>(["identity"]);
  if (!header) return accepted;
  let star: boolean | undefined;
  const explicit = new Map<string, boolean>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (name === "*") star = ok;
    else explicit.set(name, ok);
  }
  for (const enc of ["br", "gzip"] as const) {
    if (explicit.get(enc) ?? star ?? false) accepted.add(enc);
  }
  if (explicit.get("identity") === false || (star === false && !explicit.has("identity"))) accepted.delete("identity");
  return accepted;
}
