// The MCP protocol revisions /mcp speaks, newest first. 2026-07-28 is stateless (server/discover, a _meta
// envelope on every request); the 2025 ones negotiate at initialize and use Mcp-Session-Id.
import { MCP_REVISIONS } from "../../src/domain/mcp-discovery.ts";

export const MODERN_REVISIONS = MCP_REVISIONS.filter((r) => r >= "2026");
export const LEGACY_REVISIONS = MCP_REVISIONS.filter((r) => r < "2026");
