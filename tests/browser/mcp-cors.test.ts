// A page on another origin (another loopback port) calls /mcp with fetch in Chromium: CORS lets browser
// MCP clients use this public, read-only server, in both protocol eras.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import type { RunningSidecar } from "../../sidecar/server.ts";
import { buildSample } from "../helpers/build.ts";
import { MODERN_META } from "../helpers/mcp-http.ts";
import { startTestSidecar } from "../helpers/sidecar.ts";

let sidecar: RunningSidecar;
let other: Server;
let otherOrigin: string;
let browser: Browser;
let page: Page;

before(async () => {
  sidecar = await startTestSidecar(await buildSample());
  other = createServer((_req, res) => {
    res.setHeader("Content-Type", "text/html");
    res.end("<!doctype html><title>agent</title><p>An MCP client in a browser</p>");
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
  assert.notEqual(otherOrigin, sidecar.url, "the page and the server are on different origins");
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  page = await browser.newPage();
  await page.goto(`${otherOrigin}/`);
});
after(async () => {
  await browser?.close();
  await new Promise((r) => other.close(r));
  await sidecar.close();
});

test("2026-07-28: tools/call with the routing headers passes the preflight and returns the result", async () => {
  const result = await page.evaluate(
    async ({ url, meta }) => {
      const res = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": "tools/call",
          "Mcp-Name": "search_reviews",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_reviews", arguments: { rating: 5, limit: 3 }, _meta: meta },
        }),
      });
      return { status: res.status, body: await res.json() };
    },
    { url: sidecar.url, meta: MODERN_META },
  );
  assert.equal(result.status, 200);
  const content = result.body.result.structuredContent as { count: number; reviews: { rating: number }[] };
  assert.equal(content.count, 3);
  assert.ok(content.reviews.every((r) => r.rating === 5));
});

test("2025-11-25: initialize, read the exposed Mcp-Session-Id, then tools/call", async () => {
  const result = await page.evaluate(async (url) => {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const init = await fetch(`${url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
      }),
    });
    const session = init.headers.get("Mcp-Session-Id");
    if (!session) return { session, status: init.status, body: null };
    const next = { ...headers, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    await fetch(`${url}/mcp`, {
      method: "POST",
      headers: next,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const call = await fetch(`${url}/mcp`, {
      method: "POST",
      headers: next,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_business", arguments: {} },
      }),
    });
    return { session, status: call.status, body: await call.json() };
  }, sidecar.url);
  assert.ok(result.session, "the session header is readable cross-origin");
  assert.equal(result.status, 200);
  assert.ok(result.body.result.structuredContent.business.name);
});
