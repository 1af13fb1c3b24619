// GET /search: the API's parameters from a form submission, searched with the same domain function as the API.
import { ASPECT_LABELS } from "../domain/insights/aspect-insights.ts";
import type { PageData } from "../domain/pages/page-data.ts";
import { PAGE_PATHS } from "../domain/pages/site-paths.ts";
import { parseQuery } from "../domain/parse-query.ts";
import {
  type Issue,
  QUERY_MAX_LENGTH,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SearchParams,
  type SearchResult,
  type SearchSort,
} from "../domain/schemas/api.ts";
import { ASPECTS } from "../domain/schemas/common.ts";
import type { Business } from "../domain/schemas/published.ts";
import { searchReviews } from "../domain/search/search-reviews.ts";

export interface SearchField {
  name: string;
  label: string;
  options?: [string, string][];
  /** The text of the select's empty choice ("Any" when absent). */
  empty?: string;
  input?: Record<string, string>;
}

export const SORT_LABELS: Record<SearchSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  highest: "Highest rated",
  lowest: "Lowest rated",
  relevance: "Most relevant",
};

/** One entry per parameter of GET /api/reviews/search (cursor excepted: the "next" link carries it). */
export function searchFields(business: Business): SearchField[] {
  return [
    { name: "query", label: "Text contains", input: { type: "search", maxlength: String(QUERY_MAX_LENGTH) } },
    { name: "rating", label: "Exact rating", options: [5, 4, 3, 2, 1].map((n) => [String(n), `${n} stars`]) },
    { name: "min_rating", label: "Minimum rating", input: { type: "number", min: "1", max: "5", step: "0.5" } },
    { name: "since", label: "From date", input: { type: "date" } },
    { name: "until", label: "To date", input: { type: "date" } },
    { name: "mentions_technician", label: "Technician", options: business.technicians.map((t) => [t.id, t.name]) },
    { name: "mentions_service", label: "Service", options: business.services.map((s) => [s.id, s.name]) },
    { name: "mentions_area", label: "Area", options: business.service_areas.map((a) => [a.id, a.name]) },
    { name: "aspect", label: "Topic", options: ASPECTS.map((a) => [a, ASPECT_LABELS[a]]) },
    {
      name: "aspect_polarity",
      label: "Said about the topic",
      options: [
        ["positive", "Praise"],
        ["negative", "Criticism"],
        ["neutral", "Neutral"],
      ],
    },
    {
      name: "sort",
      label: "Order",
      empty: "Newest first (by relevance with text)",
      options: Object.entries(SORT_LABELS),
    },
    {
      name: "limit",
      label: "Per page",
      input: { type: "number", min: "1", max: String(SEARCH_LIMIT_MAX), placeholder: String(SEARCH_LIMIT_DEFAULT) },
    },
  ];
}

export type SearchPage =
  | { state: "empty"; values: Record<string, string> }
  | { state: "invalid"; values: Record<string, string>; issues: Issue[] }
  | { state: "results"; values: Record<string, string>; result: SearchResult; next: string | null };

/**
 * A form leaves empty fields in the query; an empty field means "no filter" here (the API, which no form feeds,
 * keeps refusing empty values). Anything else is validated exactly as the API does, repeated parameters included.
 */
export function runSearchPage(data: PageData, url: URL, path: string = PAGE_PATHS.search): SearchPage {
  // No prototype: a parameter named __proto__ is a key (an unknown parameter), as in the API.
  const raw: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of url.searchParams) {
    if (v.trim() === "") continue;
    const seen = raw[k];
    raw[k] = seen === undefined ? v : [...(Array.isArray(seen) ? seen : [seen]), v];
  }
  const values = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  if (Object.keys(raw).length === 0) return { state: "empty", values };
  const parsed = parseQuery(SearchParams, raw);
  if (!parsed.ok) return { state: "invalid", values, issues: parsed.issues };
  const outcome = searchReviews(data.index, parsed.value);
  if (!outcome.ok) return { state: "invalid", values, issues: outcome.issues };
  const { next_cursor } = outcome.result;
  const nextQuery = new URLSearchParams({ ...values, ...(next_cursor ? { cursor: next_cursor } : {}) });
  return {
    state: "results",
    values,
    result: outcome.result,
    next: next_cursor ? `${path}?${nextQuery}` : null,
  };
}
