// Where agents find the MCP endpoint before connecting: an MCP Catalog at a well-known URI listing one
// Server Card (the server-card extension of MCP, SEP-2127; the 2026-07-28 revision itself defines no
// well-known document, and server/discover answers only once connected).
export const MCP_PATH = "/mcp";
export const MCP_SERVER_CARD_PATH = `${MCP_PATH}/server-card`;
export const MCP_CATALOG_PATH = "/.well-known/mcp/catalog.json";
export const MCP_SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
export const MCP_REVISIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];
/** The JSON-RPC methods of the revisions served here (requests and notifications a client may send). */
export const MCP_METHODS = [
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "notifications/initialized",
  "notifications/cancelled",
] as const;

const TITLE = "Verified customer reviews";
const DESCRIPTION =
  "Read-only MCP server over one business's verified customer reviews: search, insights, the business and its catalog.";

/** Reverse-DNS name the server card format asks for: `localhost:4321` gives `localhost/reviews`. */
const cardName = (baseUrl: string) => `${new URL(baseUrl).hostname.split(".").reverse().join(".")}/reviews`;

export function mcpServerCard(baseUrl: string, version: string) {
  return {
    $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
    name: cardName(baseUrl),
    version,
    title: TITLE,
    description: DESCRIPTION,
    websiteUrl: `${baseUrl}/`,
    remotes: [{ type: "streamable-http", url: `${baseUrl}${MCP_PATH}`, supportedProtocolVersions: MCP_REVISIONS }],
  };
}

export function mcpCatalog(baseUrl: string) {
  return {
    specVersion: "draft",
    entries: [
      {
        identifier: `urn:air:${new URL(baseUrl).hostname}:reviews`,
        displayName: TITLE,
        type: MCP_SERVER_CARD_MEDIA_TYPE,
        url: `${baseUrl}${MCP_SERVER_CARD_PATH}`,
      },
    ],
  };
}
