// What the sidecar answered on /mcp, as its own /metrics counts it: the server's side of a client test, so a
// refused request (a 429, a 404 for a session the client still uses) is seen even when a client retries it.

/** Responses on /mcp by "METHOD status", e.g. {"POST 200": 120, "GET 405": 50}. */
export async function mcpAnswers(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(
    /^\w+_http_request_duration_seconds_count\{method="(\w+)",route="\/mcp",status="(\d+)"\} (\d+)$/gm,
  ))
    counts[`${m[1]} ${m[2]}`] = Number(m[3]);
  return counts;
}

/** JSON-RPC requests to /mcp by method, e.g. {"initialize": 50, "tools/list": 50}. */
export async function mcpMethods(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^\w+_mcp_requests_total\{method="([^"]+)"\} (\d+)$/gm)) counts[m[1]] = Number(m[2]);
  return counts;
}

/** The answers of `after` minus those of `before` (counters only grow). */
export function since(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const diff: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) > 0) diff[k] = v - (before[k] ?? 0);
  return diff;
}
