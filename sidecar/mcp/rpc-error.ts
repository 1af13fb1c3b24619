// JSON-RPC error answers that /mcp writes itself (before or instead of the SDK).
import type { Response } from "express";
import type { RpcId } from "./json-rpc.ts";

export function rpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: RpcId | null = null,
  headers: Record<string, string> = {},
): void {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json({ jsonrpc: "2.0", id, error: { code, message } });
}
