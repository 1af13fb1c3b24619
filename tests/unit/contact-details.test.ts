// The PII guard's pure core: what counts as a customer's contact detail, and what is left alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ContentError } from "../../src/domain/content-errors.ts";
import { createContactFinder, redactText } from "../../src/domain/pii/contact-details.ts";
import { describeFindings, guardContactDetails, LISTED_FILES } from "../../src/domain/pii/guard-reviews.ts";
import { REDACTED } from "../../src/domain/pii/policy.ts";
import type { ReviewContent } from "../../src/domain/schemas/content.ts";

const business = {
  address: { street_address: "1 Main St", locality: "Boise", region: "ID", postal_code: "83706", country: "US" },
  telephone: "+1-208-555-0147",
  email: "hello@summitcomfort.example",
};
const find = createContactFinder({ country: "US", telephone: business.telephone, email: business.email });
const redact = (text: string) => redactText(text, find(text));

test("emails and phone numbers in the usual national and international forms are replaced", () => {
  const cases: [string, string][] = [
    ["mail jane.doe+hvac@mail.example now", `mail ${REDACTED.email} now`],
    ["Call 208-555-0199.", `Call ${REDACTED.phone}.`],
    ["(208) 555-0199", REDACTED.phone],
    ["208.555.0199 or 2085550199", `${REDACTED.phone} or ${REDACTED.phone}`],
    ["+1 208 555 0199", REDACTED.phone],
    ["abroad: +44 20 7946 0958", `abroad: ${REDACTED.phone}`],
    ["Bob@Example.ORG", REDACTED.email],
  ];
  for (const [input, expected] of cases) assert.equal(redact(input), expected, input);
});

test("years, prices, dates, ratings, order numbers and the business's own contacts are left alone", () => {
  for (const text of [
    "Installed in 2019, paid $1,250.",
    "Visit on 2024-05-01 and 05/06/2024, 10/10 would hire again.",
    "Order SC-968128, model XR-2000, 3 hours, 98.6 degrees.",
    "Call them at (208) 555-0147 or +1 208 555 0147.",
    "Write to HELLO@summitcomfort.example.",
  ]) {
    assert.equal(redact(text), text, text);
  }
});

test("without a supported country only international numbers are recognised", () => {
  const noRegion = createContactFinder({ country: "Atlantis" });
  assert.deepEqual(
    noRegion("208-555-0199 or +1 208 555 0199").map((m) => m.kind),
    ["phone"],
  );
});

const review = (fields: Partial<ReviewContent>): { file: string; content: ReviewContent } => ({
  file: "reviews/a.json",
  content: { rating: 5, date: "2025-01-01", text: "", author: "Ann", verified: true, ...fields },
});

test("guard: redacts title, text, author and response, reports fields and kinds, leaves tags and private alone", () => {
  const input = review({
    title: "Call 208-555-0199",
    text: "ann@mail.example",
    author: "ann@mail.example",
    response: { text: "We rang 208-555-0199 back.", date: "2025-01-02" },
    private: { phone: "208-555-0199" },
  });
  const { reviews, findings } = guardContactDetails([input], business, "redact");
  assert.deepEqual(reviews[0].content, {
    ...input.content,
    title: `Call ${REDACTED.phone}`,
    text: REDACTED.email,
    author: REDACTED.email,
    response: { text: `We rang ${REDACTED.phone} back.`, date: "2025-01-02" },
  });
  assert.deepEqual(findings, [
    {
      file: "reviews/a.json",
      fields: [
        { field: "title", kinds: ["phone"] },
        { field: "text", kinds: ["email"] },
        { field: "author", kinds: ["email"] },
        { field: "response.text", kinds: ["phone"] },
      ],
    },
  ]);
  assert.match(describeFindings(findings).join("\n"), /1 review file .*\n {2}reviews\/a\.json: title \(phone\)/);
  assert.match(describeFindings(findings)[0], /fields: 2 phone, 2 email\):$/);
});

test("the build's redaction summary counts every file and names the first ones only", () => {
  const many = Array.from({ length: LISTED_FILES + 5 }, (_, i) => ({
    file: `reviews/r${i}.json`,
    fields: [{ field: "text", kinds: ["email" as const] }],
  }));
  const lines = describeFindings(many);
  assert.match(
    lines[0],
    new RegExp(`redacted in ${LISTED_FILES + 5} review files .*fields: ${LISTED_FILES + 5} email`),
  );
  assert.equal(lines.length, 1 + LISTED_FILES + 1);
  assert.equal(lines.at(-1), "  … and 5 more");
});

test("guard: a clean review is returned as the same object; off changes nothing; fail names file and field", () => {
  const clean = review({ text: "Great work." });
  const dirty = review({ text: "ring 208-555-0199" });
  assert.equal(guardContactDetails([clean], business, "redact").reviews[0], clean);
  assert.deepEqual(guardContactDetails([dirty], business, "off"), { reviews: [dirty], findings: [] });
  assert.throws(
    () => guardContactDetails([clean, dirty], business, "fail"),
    (e: unknown) =>
      e instanceof ContentError &&
      e.problems.length === 1 &&
      e.problems[0].file === "reviews/a.json" &&
      e.problems[0].field === "text" &&
      /PII_POLICY=fail/.test(e.problems[0].reason),
  );
});

test("guard: a review known to be clean is not searched again; the others are", () => {
  const dirty = review({ text: "ring 208-555-0199" });
  const other = { ...review({ text: "mail bob@example.org" }), file: "reviews/b.json" };
  const { reviews, findings } = guardContactDetails([dirty, other], business, "redact", (r) => r === dirty);
  assert.equal(reviews[0], dirty, "trusted as clean: returned as it is");
  assert.equal(reviews[1].content.text, `mail ${REDACTED.email}`);
  assert.deepEqual(
    findings.map((f) => f.file),
    ["reviews/b.json"],
  );
});
