// GET /api/websub/hub: a short page for people and link checkers that follow `<link rel="hub">` (a hub is only
// POSTed to by subscribers, but every page and topic links to it).
import { escapeHtml } from "../../src/domain/feeds/escape.ts";
import { HUB_FORM_MAX_BYTES } from "../../src/domain/limits.ts";
import { PAGE_PATHS, SERVICE_PATHS } from "../../src/domain/pages/site-paths.ts";

export function renderHubPage(topics: readonly string[]): string {
  const items = topics.map((t) => `<li><a href="${escapeHtml(t)}"><code>${escapeHtml(t)}</code></a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>WebSub hub</title></head>
<body><main>
<h1>WebSub hub</h1>
<p>This is the <a href="https://www.w3.org/TR/websub/">W3C WebSub</a> hub of the reviews: when reviews change, it
POSTs the full new content of a topic to every subscriber's callback, with its Content-Type and a Link header
(<code>rel="hub"</code>, <code>rel="self"</code>).</p>
<h2>Topics</h2>
<ul>${items}</ul>
<h2>How to subscribe</h2>
<p>POST a form (<code>application/x-www-form-urlencoded</code>, up to ${HUB_FORM_MAX_BYTES} bytes) to
<code>${SERVICE_PATHS.hub}</code> with <code>hub.mode=subscribe</code>, <code>hub.topic</code> (one of the topics above)
and <code>hub.callback</code> (an HTTPS URL you control); optionally <code>hub.lease_seconds</code> and
<code>hub.secret</code> (deliveries then carry <code>X-Hub-Signature: sha256=…</code>). The hub answers 202 and sends a
GET to the callback with <code>hub.challenge</code>; answer it with a 2xx and the challenge as the body. Re-subscribe
before the lease ends; <code>hub.mode=unsubscribe</code> stops deliveries.</p>
<p>The API reference lists every status the hub answers: <a href="${PAGE_PATHS.apiReference}">${PAGE_PATHS.apiReference}</a>.</p>
</main></body>
</html>
`;
}
