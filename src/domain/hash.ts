import { createHash } from "node:crypto";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A strong entity tag derived from the content hash. */
export function strongEtag(hex: string, variant = ""): string {
  return `"${hex.slice(0, 32)}${variant ? `-${variant}` : ""}"`;
}
