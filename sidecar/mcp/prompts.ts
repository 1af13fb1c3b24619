// Prompts that start an agent on common questions, with the data they need embedded.
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { searchReviews } from "../../src/domain/search/search-reviews.ts";
import { searchMemoOf } from "../build-store/search-memo.ts";
import type { Snapshot } from "../build-store/snapshot.ts";

export const PROMPTS = [
  {
    name: "summarize_technician_feedback",
    title: "Summarise feedback about a technician",
    description:
      "Recent reviews that mention one technician, with instructions to summarise praise and criticism by aspect.",
    arguments: [
      { name: "technician", description: "Technician id, name or nickname", required: true },
      { name: "since", description: "Only reviews on or after this date (YYYY-MM-DD)", required: false },
    ],
  },
  {
    name: "draft_owner_response",
    title: "Draft a reply to a review",
    description: "One review and the business's details, with instructions to draft a short, specific owner response.",
    arguments: [{ name: "review_id", description: "Id of the review to answer", required: true }],
  },
];

type Args = Record<string, string | undefined>;

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

export function getPrompt(snapshot: Snapshot, name: string, args: Args = {}) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw invalid(`Unknown prompt ${name}; prompts/list names them`);
  for (const a of prompt.arguments)
    if (a.required && !args[a.name]) throw invalid(`Missing required argument "${a.name}" for prompt ${name}`);
  if (name === "summarize_technician_feedback") {
    const tech = args.technician ?? "";
    const id = snapshot.index.resolveTechnician(tech);
    if (!id) throw invalid(`Unknown technician "${tech}"; get_business lists them`);
    const since = args.since && /^\d{4}-\d{2}-\d{2}$/.test(args.since) ? args.since : undefined;
    const out = searchReviews(
      snapshot.index,
      { mentions_technician: id, limit: 30, ...(since ? { since } : {}) },
      searchMemoOf(snapshot),
    );
    const reviews = out.ok ? out.result.reviews : [];
    const name2 = snapshot.dataset.business.technicians.find((t) => t.id === id)?.name ?? id;
    return {
      description: `Feedback about ${name2}`,
      messages: [
        {
          role: "user" as const,
          content: {
            type: "text" as const,
            text: `Summarise what customers say about the technician ${name2} in the ${reviews.length} most recent verified reviews below${since ? ` (since ${since})` : ""}. Group praise and criticism by aspect (punctuality, professionalism, workmanship, price, communication, cleanliness, speed, friendliness, scheduling), quote short phrases with their review ids, and end with one concrete suggestion.\n\n${JSON.stringify(reviews.map((r) => ({ id: r.id, date: r.date, rating: r.rating, title: r.title, text: r.text, aspects: r.aspects })))}`,
          },
        },
      ],
    };
  }
  if (name === "draft_owner_response") {
    const review = snapshot.index.byId.get(args.review_id ?? "");
    if (!review) throw invalid(`No published review has the id ${args.review_id}`);
    const b = snapshot.dataset.business;
    return {
      description: `Reply to review ${review.id}`,
      messages: [
        {
          role: "user" as const,
          content: {
            type: "text" as const,
            text: `Draft a reply from ${b.name} to the review below: under 80 words, thank the customer by name, address each specific point (especially complaints), offer a concrete next step (phone ${b.telephone ?? "the office"}), and never argue.\n\n${JSON.stringify({ id: review.id, rating: review.rating, date: review.date, author: review.author, title: review.title, text: review.text, existing_response: review.response ?? null })}`,
          },
        },
      ],
    };
  }
  throw invalid(`Unknown prompt ${name}`);
}
