const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML forbids are the point
const XML_SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes for XML text and attributes and drops the code points XML 1.0 forbids. */
export function escapeXml(s: string): string {
  // Most strings (every URL of a sitemap of 100,000 reviews) hold nothing to escape or drop: one search for them.
  if (!XML_SPECIAL.test(s)) return s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the control characters XML forbids is the point
  return escapeHtml(s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ""));
}
