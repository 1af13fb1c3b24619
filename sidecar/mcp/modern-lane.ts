// The hot path of the 2026-07-28 revision: a tools/call whose routing headers are plain and agree with its
// body is answered by one long-lived server over a shared ExchangeTransport (no server, transport, web
// Request or Response per call; a prepared result is written from its bytes). The SDK still classifies the
// request (classifyInboundRequest, the same function its HTTP entry routes with), validates the envelope,
// params and result, and dispatches. Anything else, and any call this lane would answer with a JSON-RPC
// error, goes to the SDK's own entry (createMcpHandler), so its validation ladder and error answers stay the
// SDK's word for word.
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { createMcpServer, type McpServerDeps } from "./create-mcp-server.ts";
import { type Answer, ExchangeTransport, sendJsonChunks } from "./exchange-transport.ts";
import type { RpcMessage } from "./json-rpc.ts";
import { MODERN_REVISIONS } from "./revisions.ts";

const header = (req: Request, name: string) => {
  const v = req.headers[name];
  return typeof v === "string" ? v : undefined;
};

export function modernLane(deps: McpServerDeps) {
  const lanes = new Map(
    MODERN_REVISIONS.map((revision) => {
      const transport = new ExchangeTransport({ era: "modern", revision });
      const server = createMcpServer(deps, transport.hooks);
      return [revision, { transport, server, connected: server.connect(transport) }] as const;
    }),
  );
  return {
    /** Answers `message` and returns the answer, or undefined (nothing written) for the SDK's entry to answer. */
    async serve(req: Request, res: Response, message: RpcMessage): Promise<Answer | undefined> {
      if (message.method !== "tools/call" || message.id === undefined) return undefined;
      const version = header(req, "mcp-protocol-version");
      const lane = version === undefined ? undefined : lanes.get(version);
      const name = header(req, "mcp-name");
      // Only the plain header forms (no optional whitespace, no =?base64?...?= sentinel).
      if (!lane || header(req, "mcp-method") !== "tools/call" || name !== message.params?.name) return undefined;
      const route = classifyInboundRequest({
        httpMethod: "POST",
        protocolVersionHeader: version,
        mcpMethodHeader: "tools/call",
        mcpNameHeader: name,
        body: message,
      });
      if (route.kind !== "modern" || route.classification.revision !== version) return undefined;
      await lane.connected;
      const [answer] = await lane.transport.exchange([message]);
      if (answer.error) return undefined;
      sendJsonChunks(res, answer.frame);
      return answer;
    },
    close: () => Promise.all([...lanes.values()].map((l) => l.server.close())),
  };
}
