// The MCP protocol revisions /mcp speaks, newest first. 2026-07-28 is stateless (server/discover, a _meta
// envelope on every request); the 2025 ones negotiate at initialize and use Mcp-Session-Id.
export const MODERN_REVISIONS = ["2026-07-28"];
export const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];
export const SUPPORTED_REVISIONS = [...MODERN_REVISIONS, ...LEGACY_REVISIONS];
