// Opinions read from two figures set against each other: the price quoted and the price paid ("quoted 400,
// paid 650"; "i was quoted 180 and paid 180"), the time a job was said to take and the time it took ("took 5
// hours for what I was told would take 2"; "they quoted 2 days, it took 1"). Neither figure is an opinion; the
// gap between them is.
import lexicon from "./lexicon/sentiment.json" with { type: "json" };
import { type Hit, makeHit } from "./sentiment-lexicon.ts";
import { PhraseTable, type Token } from "./tokenize.ts";

const figures = lexicon.stated_figures;
const quoteWords = new Set(figures.quote_words);
const paidWords = PhraseTable.of(figures.paid_words);
const statedMarkers = new Set(figures.stated_markers);
const tookWords = new Set(figures.took_words);
const amountFillers = new Set(figures.amount_fillers);
// "quoted one price, then charged another", "charged almost double": a price other than the quote, no figure given.
const otherPrice = new Set(figures.other_price);
const billedWords = PhraseTable.of(figures.billed_words);
const durationFillers = new Set(figures.duration_fillers);
const numberWords = new Map(Object.entries(figures.number_words));
const minutesIn = new Map(Object.entries(figures.minutes_in));
/** Every word either rule can start from (one look-up for a text that has none). */
const starts = new Set([
  ...quoteWords,
  ...tookWords,
  ...figures.paid_words.map((p) => p.split(" ")[0]),
  ...figures.billed_words.map((p) => p.split(" ")[0]),
]);

// A part any rule may apply to has a digit, a number word or a unit of time ("a day"), or a price other than
// the quote ("another"): a test on the text before any token is looked at.
const MAY_COUNT = new RegExp(
  `\\d|\\b(?:${[
    ...Object.keys(figures.number_words).filter((w) => w.length > 2 && w !== "half"),
    ...Object.keys(figures.minutes_in),
    ...figures.other_price,
  ].join("|")})\\b`,
  "i",
);

// Paid more than quoted; paid what was quoted or less; took longer than said; took less.
const OVER_QUOTE = -2.5;
const AS_QUOTED = 2;
const OVERRAN = -2.5;
const AHEAD = 1.5;
// Figures within this share of each other are the same ("$1,200" against "1180").
const SAME = 0.02;
// How far after a quote word its amount may stand, and how far after it the paid figure.
const AMOUNT_REACH = 3;
const PAID_REACH = 16;
const DURATION_REACH = 18;

/** An amount of money at token k ("$1,850", "1850", "9k", "1,200" written as two tokens), or undefined. */
function amountAt(tokens: readonly Token[], k: number): number | undefined {
  const t = tokens[k];
  if (t === undefined) return undefined;
  const m = /^\p{Sc}?(\d+(?:,\d{3})*(?:\.\d+)?)(k)?$/u.exec(t.norm);
  if (!m) return undefined;
  let value = Number(m[1].replace(/,/g, "")) * (m[2] ? 1000 : 1);
  const next = tokens[k + 1];
  if (next && !m[2] && /^\d{3}$/.test(next.norm) && next.start === t.end + 1) value = value * 1000 + Number(next.norm);
  return value;
}

/** The first amount within `reach` tokens after `from` (fillers such as "us", "at", "was" skipped). */
function amountAfter(tokens: readonly Token[], from: number, reach: number): number | undefined {
  for (let k = from; k < Math.min(tokens.length, from + reach); k++) {
    const a = amountAt(tokens, k);
    if (a !== undefined) return a;
    if (!amountFillers.has(tokens[k].norm)) return undefined;
  }
  return undefined;
}

interface Duration {
  index: number;
  count: number;
  /** Minutes per unit; 0 when the figure has no unit of its own ("it took 1"). */
  unit: number;
}

/** A count of time at token k ("5 hours", "one-hour", "a day", "2"), or undefined. */
function durationAt(tokens: readonly Token[], k: number): Duration | undefined {
  const t = tokens[k];
  if (t === undefined) return undefined;
  const [word, hyphenUnit] = t.norm.split("-");
  const count = /^\d+(\.\d+)?$/.test(word) ? Number(word) : numberWords.get(word);
  if (count === undefined) return undefined;
  const unit = minutesIn.get(hyphenUnit ?? tokens[k + 1]?.norm ?? "") ?? 0;
  // "a", "an" and "half" count only with a unit ("a day"); a bare number ("would take 2", "took three") may
  // borrow the other figure's unit.
  if (unit === 0 && (word === "a" || word === "an" || word === "half")) return undefined;
  return { index: k, count, unit };
}

const priceWords = new Set(["price", "figure", "number", "amount", "rate"]);
/** Whether a price noun follows within a few words ("quoted one price", "quoted us a number"). */
function priceAfter(tokens: readonly Token[], from: number): boolean {
  for (let k = from; k < Math.min(tokens.length, from + AMOUNT_REACH + 1); k++)
    if (priceWords.has(tokens[k].norm)) return true;
  return false;
}

/** Price hits: a paid figure after a quoted one in the same stretch of text. */
function quotedAgainstPaid(tokens: readonly Token[], i: number): Hit | undefined {
  const quoted = amountAfter(tokens, i + 1, AMOUNT_REACH);
  if (quoted === 0) return undefined;
  // "quoted one price", "quoted us a price": the quote without its figure ("said" needs a figure).
  const unquoted =
    quoted === undefined && (tokens[i].norm === "quoted" || tokens[i].norm === "quote") && priceAfter(tokens, i + 1);
  if (quoted === undefined && !unquoted) return undefined;
  for (let k = i + 2; k < Math.min(tokens.length, i + PAID_REACH); k++) {
    const paid = paidWords.match(tokens, k);
    if (!paid) continue;
    const amount = amountAfter(tokens, k + paid.length, AMOUNT_REACH + 1);
    if (amount === undefined) {
      if (!unquoted) continue;
      for (let j = k + paid.length; j < Math.min(tokens.length, k + paid.length + AMOUNT_REACH); j++)
        if (otherPrice.has(tokens[j].norm)) return makeHit(k, paid.length, OVER_QUOTE, "price_value");
      continue;
    }
    if (quoted === undefined) continue;
    const valence = amount > quoted * (1 + SAME) ? OVER_QUOTE : AS_QUOTED;
    return makeHit(k, paid.length, valence, "price_value");
  }
  return undefined;
}

/** Speed hits: the time taken against the time said ("took 5 hours for what I was told would take 2"). */
function tookAgainstSaid(tokens: readonly Token[], i: number): Hit | undefined {
  // The figure the work took: right after "took" (pronouns skipped: "took him 5 hours").
  let took: Duration | undefined;
  for (let k = i + 1; k <= i + 3 && !took; k++) took = durationAt(tokens, k);
  if (!took) return undefined;
  const lo = Math.max(0, i - DURATION_REACH);
  const hi = Math.min(tokens.length - 1, i + DURATION_REACH);
  for (let k = lo; k <= hi; k++) {
    if (k >= i && k <= took.index + 1) continue;
    const said = durationAt(tokens, k);
    if (!said) continue;
    // Said: after a word of saying or expecting ("told", "quoted", "would take"), or "a one hour job".
    const stated =
      [1, 2, 3].some((d) => statedMarkers.has(tokens[k - d]?.norm ?? "")) ||
      tokens[k + (said.unit && !tokens[k].norm.includes("-") ? 2 : 1)]?.norm === "job";
    if (!stated) continue;
    const unitTook = took.unit || said.unit;
    const unitSaid = said.unit || took.unit;
    if (unitTook === 0) return undefined;
    const a = took.count * unitTook;
    const b = said.count * unitSaid;
    if (Math.abs(a - b) <= b * SAME) return undefined;
    return makeHit(took.index, 1, a > b ? OVERRAN : AHEAD, "speed");
  }
  return undefined;
}

/** A duration within a few words after `from` ("for a full hour", "two hours"), fillers skipped. */
function durationAfter(tokens: readonly Token[], from: number): Duration | undefined {
  for (let k = from; k < Math.min(tokens.length, from + AMOUNT_REACH + 1); k++) {
    const d = durationAt(tokens, k);
    if (d && d.unit > 0) return d;
    // "a full hour": "a" counts with the unit after its filler.
    if ((tokens[k].norm === "a" || tokens[k].norm === "an") && durationFillers.has(tokens[k + 1]?.norm ?? "")) {
      const unit = minutesIn.get(tokens[k + 2]?.norm ?? "");
      if (unit) return { index: k, count: 1, unit };
    }
    if (!durationFillers.has(tokens[k].norm)) return undefined;
  }
  return undefined;
}

/** "Fixed it in 10 minutes and charged a full hour": time billed beyond the time worked is a price complaint. */
function billedAgainstWorked(tokens: readonly Token[], i: number): Hit | undefined {
  const billed = billedWords.match(tokens, i);
  if (!billed) return undefined;
  const charged = durationAfter(tokens, i + billed.length);
  if (!charged) return undefined;
  const lo = Math.max(0, i - DURATION_REACH);
  const hi = Math.min(tokens.length - 1, i + DURATION_REACH);
  for (let k = lo; k <= hi; k++) {
    if (k >= i && k <= charged.index + 2) continue;
    const worked = durationAt(tokens, k);
    if (!worked || worked.unit === 0) continue;
    if (charged.count * charged.unit > worked.count * worked.unit * (1 + SAME))
      return makeHit(i, billed.length, OVER_QUOTE, "price_value");
    return undefined;
  }
  return undefined;
}

/** The hits the three rules find in a part's tokens, in token order. */
export function statedFigureHits(tokens: readonly Token[], part: string): Hit[] {
  // Every rule needs a figure: a digit or a number word ("two", "a day").
  if (!MAY_COUNT.test(part)) return [];
  const out: Hit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i].norm;
    if (!starts.has(w)) continue;
    const hit = quoteWords.has(w)
      ? quotedAgainstPaid(tokens, i)
      : tookWords.has(w)
        ? tookAgainstSaid(tokens, i)
        : billedAgainstWorked(tokens, i);
    if (hit && !out.some((h) => h.index === hit.index)) out.push(hit);
  }
  return out;
}
