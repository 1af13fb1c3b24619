// The shadow root's content for each variant, built with DOM calls only: every text goes in as a text node, so a
// review can never inject markup. Each variant's box has one height (widgetHeight) while it loads, once it shows the
// reviews and when the service cannot be reached.
import { WIDGET_ASPECT_ROWS, widgetHeight } from "../domain/widget/widget-paths.ts";
import type { WidgetReview, WidgetReviews, WidgetSummary } from "../domain/widget/widget-schema.ts";
import type { Settings } from "./attributes.ts";

type Child = Node | string | false | undefined;

function h(tag: string, props: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) el.setAttribute(name, value);
  for (const c of children) if (c !== false && c !== undefined) el.append(c);
  return el;
}

/** A link from the data only if it is http(s): a tampered file cannot make a `javascript:` link. */
function link(url: string, ...children: Child[]): HTMLElement {
  let safe = "#";
  try {
    if (/^https?:$/.test(new URL(url).protocol)) safe = url;
  } catch {
    // not a URL: the link goes nowhere
  }
  return h("a", { href: safe }, ...children);
}

/** Text for screen readers only; the stars beside it are hidden from them. */
const srOnly = (text: string) => h("span", { class: "sr" }, text);

function stars(rating: number): HTMLElement {
  const full = h("span", { class: "on" }, "★★★★★");
  // A CSSOM property, not a style attribute: a strict CSP allows it.
  full.style.setProperty("width", `${(rating / 5) * 100}%`);
  return h("span", { class: "stars", "aria-hidden": "true" }, h("span", { class: "off" }, "★★★★★"), full);
}

export interface Formats {
  number: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  date: Intl.DateTimeFormat;
}

const formats = new Map<string, Formats>();

/** Made once per language and page: an Intl formatter costs about a millisecond to make. */
export function formatsFor(lang: string): Formats {
  let f = formats.get(lang);
  if (!f) {
    f = {
      number: new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }),
      percent: new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }),
      date: new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }),
    };
    formats.set(lang, f);
  }
  return f;
}

const reviewsWord = (n: number, f: Formats) => `${f.number.format(n)} ${n === 1 ? "review" : "reviews"}`;

/** The frame every variant and state shares; `busy` while the data is on its way. */
export function frame(settings: Settings, busy: boolean, ...children: Child[]): HTMLElement {
  // The widget's own words are English whatever `lang` says (it sets only the dates' and numbers' language).
  const el = h(
    "div",
    { class: `frame ${settings.variant} theme-${settings.theme}`, part: "frame", lang: "en" },
    ...children,
  );
  if (busy) el.setAttribute("aria-busy", "true");
  // CSSOM properties, not a style attribute: a strict CSP allows them. The height is the one a host page may reserve.
  el.style.setProperty("height", widgetHeight(settings.variant, settings.count));
  el.style.setProperty("--rows", String(settings.variant === "list" ? settings.count : WIDGET_ASPECT_ROWS));
  return el;
}

export function loading(settings: Settings): HTMLElement {
  return frame(settings, true, h("p", { class: "status" }, "Loading reviews…"));
}

/** The service could not be reached: a link to the reviews, in the box the widget reserved. */
export function unreachable(settings: Settings, reviewsUrl: string): HTMLElement {
  return frame(settings, false, h("p", { class: "status" }, h("a", { href: reviewsUrl }, "Read our customer reviews")));
}

function ratingLine(data: WidgetSummary, f: Formats): HTMLElement {
  const { rating_value: value, review_count: count } = data.rating;
  return h(
    "span",
    { class: "rating" },
    stars(value),
    h("span", { "aria-hidden": "true" }, ` ${f.number.format(value)} · ${reviewsWord(count, f)}`),
    srOnly(`Rated ${f.number.format(value)} out of 5 from ${reviewsWord(count, f)}`),
  );
}

export function badge(settings: Settings, data: WidgetSummary, f: Formats): HTMLElement {
  const whole = link(data.slice.url, h("span", { class: "name" }, data.slice.name), ratingLine(data, f));
  whole.classList.add("whole");
  return frame(settings, false, whole);
}

function reviewItem(r: WidgetReview, f: Formats): HTMLElement {
  const heading = r.title || `Review by ${r.author}`;
  const text = h("p", { class: "text" }, r.text);
  if (r.language && r.language !== "und") text.setAttribute("lang", r.language);
  return h(
    "li",
    {},
    h(
      "article",
      {},
      h("h3", {}, link(r.url, heading)),
      h(
        "p",
        { class: "meta" },
        stars(r.rating),
        srOnly(`Rated ${r.rating} out of 5.`),
        ` ${r.author} · `,
        h("time", { datetime: r.date }, f.date.format(new Date(`${r.date}T00:00:00Z`))),
      ),
      text,
    ),
  );
}

/** The reviews a list shows: at or above the minimum rating, newest or best (higher rating, then newer) first. */
export function chosenReviews(data: WidgetReviews, settings: Settings): WidgetReview[] {
  const matching = data.reviews.filter((r) => r.rating >= settings.minRating);
  if (settings.sort === "best") matching.sort((a, b) => b.rating - a.rating); // stable: newer first within a rating
  return matching.slice(0, settings.count);
}

export function list(settings: Settings, data: WidgetReviews, f: Formats): HTMLElement {
  const shown = chosenReviews(data, settings);
  const title = data.slice.kind === "all" ? `Reviews of ${data.slice.name}` : `Reviews mentioning ${data.slice.name}`;
  return frame(
    settings,
    false,
    h(
      "div",
      {},
      h("h2", {}, title),
      shown.length > 0
        ? h("ul", { class: "items" }, ...shown.map((r) => reviewItem(r, f)))
        : h("p", { class: "items status" }, "No reviews to show yet."),
      h(
        "p",
        { class: "more" },
        link(data.slice.url, `All ${reviewsWord(data.rating.review_count, f)}`),
        " ",
        ratingLine(data, f),
      ),
    ),
  );
}

export function aspects(settings: Settings, data: WidgetSummary, f: Formats): HTMLElement {
  const rows = data.aspects.filter((a) => a.reviews > 0).slice(0, WIDGET_ASPECT_ROWS);
  return frame(
    settings,
    false,
    h(
      "div",
      {},
      h("h2", {}, `What customers say about ${data.slice.name}`),
      rows.length > 0
        ? h(
            "ul",
            { class: "items" },
            ...rows.map((a) => {
              const clauses = a.positive + a.negative + a.neutral;
              const share = clauses === 0 ? 0 : a.positive / clauses;
              const bar = h("span", { class: "fill" });
              bar.style.setProperty("width", `${share * 100}%`);
              return h(
                "li",
                {},
                h("span", { class: "label" }, a.label),
                h("span", { class: "bar", "aria-hidden": "true" }, bar),
                h("span", { class: "share" }, `${f.percent.format(share)} positive, ${reviewsWord(a.reviews, f)}`),
              );
            }),
          )
        : h("p", { class: "items status" }, "Not enough reviews yet."),
      h("p", { class: "more" }, link(data.slice.url, `Read the ${reviewsWord(data.rating.review_count, f)}`)),
    ),
  );
}
