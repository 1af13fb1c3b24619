// An SDK Transport for one HTTP exchange of the 2025 revisions in JSON-response mode: the messages of one
// POST go in, the responses to its requests come out, and the route writes them as one JSON body. The SDK
// still does the protocol (negotiation, validation, dispatch, result encoding); this replaces only its
// streamable HTTP transport, whose Node -> web Request -> Node conversions cost more than the tool call.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import type { RpcId, RpcMessage } from "./json-rpc.ts";

const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RpcId } =>
  "id" in m && ("result" in m || "error" in m);

export class ExchangeTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly waiting = new Map<RpcId, (answer: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Server-to-client requests and notifications have no channel in JSON-response mode: dropped.
    if (!isResponse(message)) return;
    this.waiting.get(message.id)?.(message);
    this.waiting.delete(message.id);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * Delivers the messages; resolves with the answers to its requests, in order (none for notifications).
   * A request the server leaves unanswered (it should not happen: the route only lets well-formed messages
   * through) is answered -32603 after `timeoutMs` rather than holding the connection forever.
   */
  async exchange(messages: RpcMessage[], timeoutMs = 10_000): Promise<JSONRPCMessage[]> {
    const requests = messages.filter((m) => m.method !== undefined && m.id !== undefined);
    const answers = requests.map(
      (m) => new Promise<JSONRPCMessage>((resolve) => this.waiting.set(m.id as RpcId, resolve)),
    );
    const timer = setTimeout(() => {
      for (const [id, resolve] of this.waiting)
        resolve({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error: the request got no answer" } });
      this.waiting.clear();
    }, timeoutMs);
    for (const m of messages) this.onmessage?.(m as JSONRPCMessage);
    try {
      return await Promise.all(answers);
    } finally {
      clearTimeout(timer);
    }
  }
}
