// GET /.well-known/mcp/catalog.json and GET /mcp/server-card (see src/domain/mcp-discovery.ts).
import { Router } from "express";
import {
  MCP_CATALOG_PATH,
  MCP_SERVER_CARD_MEDIA_TYPE,
  MCP_SERVER_CARD_PATH,
  mcpCatalog,
  mcpServerCard,
} from "../../src/domain/mcp-discovery.ts";
import { JSON_MEDIA_TYPE } from "../../src/domain/media-types.ts";
import { methodNotAllowed } from "../http/errors.ts";

const CACHE_DISCOVERY = "public, max-age=3600";

export function createMcpDiscoveryRouter(baseUrl: string, version: string): Router {
  const catalog = Buffer.from(JSON.stringify(mcpCatalog(baseUrl)));
  const card = Buffer.from(JSON.stringify(mcpServerCard(baseUrl, version)));
  const router = Router();
  router.get(MCP_CATALOG_PATH, (_req, res) => {
    res.setHeader("Cache-Control", CACHE_DISCOVERY);
    res.type(JSON_MEDIA_TYPE).send(catalog);
  });
  router.get(MCP_SERVER_CARD_PATH, (_req, res) => {
    res.setHeader("Cache-Control", CACHE_DISCOVERY);
    res.type(MCP_SERVER_CARD_MEDIA_TYPE).send(card);
  });
  router.all([MCP_CATALOG_PATH, MCP_SERVER_CARD_PATH], methodNotAllowed("GET, HEAD"));
  return router;
}
