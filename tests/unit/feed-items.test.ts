// The feeds' item HTML: paragraphs and line breaks, whatever line ends the review file had.
import assert from "node:assert/strict";
import { test } from "node:test";
import { itemHtml } from "../../src/domain/feeds/feed-items.ts";
import type { Business, ReviewRecord } from "../../src/domain/schemas/published.ts";

const business = { name: "Acme & Sons" } as Business;
const record = (text: string) => ({ rating: 5, text }) as ReviewRecord;

test("item HTML: LF, CRLF and CR line ends give the same paragraphs and breaks, and no raw CR", () => {
  const lf = itemHtml(record("Very professional.\n\nOn time.\nClean <work>."), business);
  assert.equal(lf, "<p>Rating: 5 of 5</p><p>Very professional.</p><p>On time.<br>Clean &lt;work&gt;.</p>");
  for (const ends of ["\r\n", "\r"]) {
    const html = itemHtml(record(`Very professional.${ends}${ends}On time.${ends}Clean <work>.`), business);
    assert.equal(html, lf, JSON.stringify(ends));
    assert.doesNotMatch(html, /\r/);
  }
});
