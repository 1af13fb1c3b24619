import { hash } from "node:crypto";

/** One-shot `crypto.hash`: the same digest as createHash().update().digest(), at a fraction of the cost per call. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash("sha256", data, "hex");
}

/** A strong entity tag derived from the content hash. */
export function strongEtag(hex: string, variant = ""): string {
  return `"${hex.slice(0, 32)}${variant ? `-${variant}` : ""}"`;
}
