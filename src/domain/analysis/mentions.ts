// Which catalog entries a text mentions. Technicians by full name, nickname, first name (+ initial) and
// one-letter misspellings; services and service areas by name or alias (longest first) or postal code.
import type { BusinessContent } from "../schemas/content.ts";
import names from "./lexicon/names.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import { sentences } from "./segment.ts";
import { normalizeWord, PhraseTable, phraseTokens, type Token, tokenize } from "./tokenize.ts";

const commonWordNames = new Set(names.common_word_names);
const nicknames: Readonly<Record<string, readonly string[]>> = names.nicknames;
// "was"/"is"/"has"/"had" after a noun-like name are ambiguous ("Bill was high"); after a modal one they are not.
const AMBIGUOUS_VERBS = new Set(["was", "is", "has", "had"]);
const nameVerbs = new Set(names.name_verbs);
const otherSystem = new Set(names.other_system_qualifiers);
// Modal verbs (will, may) and adjectives (frank) never come before was/is/has/had; nouns (bill, grant) can.
const nameBeforeWas = new Set([...names.modal_names, ...names.adjective_names]);

export interface Mentions {
  technicians: string[];
  services: string[];
  service_areas: string[];
}

export interface CatalogMatcher {
  technicianPhrases: PhraseTable<string>;
  /** Single-token names (first names, one-word nicknames, surnames) to technician id; ambiguous keys removed. */
  technicianWords: Map<string, { id: string; initial: string }>;
  services: PhraseTable<string>;
  areas: PhraseTable<string>;
}

/**
 * Is the Damerau (optimal string alignment) distance of a and b at most 1? Equal, or one substitution, one
 * insertion or deletion, or one swap of neighbours: past the first difference, the rest must then line up.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (l.length - s.length > 1) return false;
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  if (s.length < l.length) return s.slice(i) === l.slice(i + 1);
  if (s.slice(i + 1) === l.slice(i + 1)) return true;
  return s[i] === l[i + 1] && s[i + 1] === l[i] && s.slice(i + 2) === l.slice(i + 2);
}

/** Tokens of technicians' and service areas' names and aliases: names, not opinions ("Grant", "Joy", "Eagle"). */
export function nameWords(business: Pick<BusinessContent, "technicians" | "service_areas">): Set<string> {
  const out = new Set<string>();
  for (const e of [...business.technicians, ...business.service_areas]) {
    for (const n of [e.name, ...(e.aliases ?? [])]) for (const t of tokenize(n)) out.add(t.norm);
  }
  return out;
}

export function buildMatcher(business: BusinessContent): CatalogMatcher {
  const techPhrases: [string, string][] = [];
  const words = new Map<string, { id: string; initial: string }>();
  const ambiguous = new Set<string>();
  for (const t of business.technicians) {
    const nameTokens = tokenize(t.name).map((x) => x.norm);
    const initial = nameTokens.at(-1)?.[0] ?? "";
    for (const n of [t.name, ...(t.aliases ?? [])]) {
      const toks = tokenize(n).map((x) => x.norm);
      if (toks.length > 1) techPhrases.push([n, t.id]);
    }
    const singles = new Set([
      nameTokens[0],
      ...(t.aliases ?? []).map(normalizeWord).filter((a) => !/\s/.test(a)),
      // "Bill" for William, "Jake" for Jacob: the usual short forms of the first name.
      ...(nicknames[nameTokens[0]] ?? []),
    ]);
    if (nameTokens.length > 1) singles.add(nameTokens[nameTokens.length - 1]);
    for (const w of singles) {
      const prev = words.get(w);
      if (prev && prev.id !== t.id) ambiguous.add(w);
      else words.set(w, { id: t.id, initial });
    }
  }
  for (const w of ambiguous) words.delete(w);
  const catalog = (entries: { id: string; name: string; aliases?: string[]; postal_codes?: string[] }[]) =>
    new PhraseTable<string>(
      entries.flatMap((e) =>
        [e.name, ...(e.aliases ?? []), ...(e.postal_codes ?? [])].map((n) => [n, e.id] as [string, string]),
      ),
    );
  return {
    technicianPhrases: new PhraseTable(techPhrases),
    technicianWords: words,
    services: catalog(business.services.map(withSpanishTerms)),
    areas: catalog(business.service_areas),
  };
}

const phraseKey = (s: string) => phraseTokens(s).join(" ");

/** A service with the Spanish names of its job as extra aliases ("calentador de agua" for "water heater"). */
function withSpanishTerms<E extends { name: string; aliases?: string[] }>(e: E): E {
  const own = new Set([e.name, ...(e.aliases ?? [])].map(phraseKey));
  const extra = Object.entries(spanish.services)
    .filter(([, english]) => own.has(phraseKey(english)))
    .map(([es]) => es);
  return extra.length ? { ...e, aliases: [...(e.aliases ?? []), ...extra] } : e;
}

function isCapitalised(raw: string): boolean {
  return /^\p{Lu}/u.test(raw);
}

const actionVerbs = PhraseTable.of(names.action_verbs);
const addressOpeners = PhraseTable.of(names.address_openers);
const determiners = new Set(names.determiners);
const personAdjectives = new Set(names.person_adjectives);
const adjectiveIntensifiers = new Set(names.adjective_intensifiers);
const personNouns = new Set(names.person_nouns);
const modalNames = new Set(names.modal_names);
const relationNouns = new Set(names.relation_nouns);
const placeNouns = new Set(names.place_nouns);
const APPOSITION_OPENERS = new Set(["the", "our", "my", "their"]);
const POSSESSIVE = /'s$/;

/** The token's name key: "Sorensen's" is Sorensen. */
const nameKey = (t: Token) => t.norm.replace(POSSESSIVE, "");
const isPossessive = (t: Token) => POSSESSIVE.test(t.norm);

/** "was/is (very) thorough": a copula and a word said of people, not of bills or grants. */
function personAdjectiveAfter(tokens: Token[], i: number): boolean {
  if (!AMBIGUOUS_VERBS.has(tokens[i]?.norm ?? "")) return false;
  let k = i + 1;
  while (k < tokens.length && adjectiveIntensifiers.has(tokens[k].norm)) k++;
  return k < tokens.length && personAdjectives.has(tokens[k].norm);
}

/** An address ("thanks frank", "ask for grant") ending just before token i. */
function addressedAt(tokens: Token[], i: number): boolean {
  for (let from = Math.max(0, i - 3); from < i; from++) {
    const m = addressOpeners.match(tokens, from);
    if (m && from + m.length === i) return true;
  }
  return false;
}

/** Whether a name that is also a word stands for a person here (see names.json). */
function personContext(m: CatalogMatcher, tokens: Token[], i: number, sentenceStart: boolean, id: string): boolean {
  const tok = tokens[i];
  const next = tokens[i + 1];
  const key = nameKey(tok);
  const prev = tokens[i - 1];
  if (isPossessive(tok)) return prev === undefined || !determiners.has(prev.norm);
  if (isCapitalised(tok.raw)) {
    const followedByName =
      next !== undefined && isCapitalised(next.raw) && next.norm[0] === m.technicianWords.get(key)?.initial;
    const verbCue =
      next !== undefined && nameVerbs.has(next.norm) && (!AMBIGUOUS_VERBS.has(next.norm) || nameBeforeWas.has(key));
    if (!sentenceStart || followedByName || verbCue || personAdjectiveAfter(tokens, i + 1)) return true;
  }
  if (prev !== undefined && determiners.has(prev.norm)) return false;
  if (next !== undefined && actionVerbs.match(tokens, i + 1)) return true;
  if (next !== undefined && nameBeforeWas.has(key) && AMBIGUOUS_VERBS.has(next.norm)) return true;
  // "grant was thorough": without a determiner, a noun-like name said to be what people are is a person.
  if (personAdjectiveAfter(tokens, i + 1)) return true;
  if (addressedAt(tokens, i)) return true;
  // "technician Grant", "Will, the tech, was great": a person noun beside the name.
  if (prev !== undefined && personNouns.has(prev.norm) && !modalNames.has(key)) return true;
  const after = tokens[i + 2];
  if (next !== undefined && after !== undefined && APPOSITION_OPENERS.has(next.norm) && personNouns.has(after.norm))
    return next.start - tok.end >= 2;
  // "frank and marcus", "marcus and frank": joined to another technician's name.
  const other = (k: number) => {
    const t = tokens[k];
    if (t === undefined) return false;
    const e = m.technicianWords.get(nameKey(t));
    return e !== undefined && e.id !== id && !commonWordNames.has(nameKey(t));
  };
  return (next?.norm === "and" && other(i + 2)) || (prev?.norm === "and" && other(i - 2));
}

/** "my husband Jake", "Holloway Road": someone else of that name, or a place. */
function namesSomethingElse(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (prev !== undefined && relationNouns.has(prev.norm)) return true;
  return next !== undefined && !isPossessive(tokens[i]) && placeNouns.has(next.norm);
}

function technicianAt(m: CatalogMatcher, tokens: Token[], i: number, sentenceStart: boolean): string | undefined {
  const tok = tokens[i];
  const next = tokens[i + 1];
  const key = nameKey(tok);
  if (namesSomethingElse(tokens, i)) return undefined;
  const entry = m.technicianWords.get(key);
  if (entry) {
    if (!commonWordNames.has(key)) return entry.id;
    return personContext(m, tokens, i, sentenceStart, entry.id) ? entry.id : undefined;
  }
  if (key.length < 5 || !isCapitalised(tok.raw)) return undefined;
  // At the start of a sentence any word is capitalised: a near-miss counts only before a verb.
  if (sentenceStart && !(next !== undefined && nameVerbs.has(next.norm))) return undefined;
  let found: string | undefined;
  for (const [name, e] of m.technicianWords) {
    if (name.length >= 5 && !commonWordNames.has(name) && withinOneEdit(key, name)) {
      if (found && found !== e.id) return undefined;
      found = e.id;
    }
  }
  return found;
}

export function findMentions(m: CatalogMatcher, text: string): Mentions {
  const technicians = new Set<string>();
  const services = new Set<string>();
  const areas = new Set<string>();
  for (const sentence of sentences(text)) {
    const tokens = tokenize(sentence.text, sentence.start);
    for (let i = 0; i < tokens.length; i++) {
      const phrase = m.technicianPhrases.match(tokens, i);
      if (phrase) {
        technicians.add(phrase.value);
        i += phrase.length - 1;
        continue;
      }
      const tech = technicianAt(m, tokens, i, i === 0);
      if (tech) technicians.add(tech);
    }
    for (let i = 0; i < tokens.length; i++) {
      const s = m.services.match(tokens, i);
      // "refrigerant leak" is not the leak-repair service.
      if (s && !(s.length === 1 && i > 0 && otherSystem.has(tokens[i - 1].norm))) services.add(s.value);
      const a = m.areas.match(tokens, i);
      if (a) areas.add(a.value);
      const skip = Math.max(s?.length ?? 1, a?.length ?? 1);
      i += skip - 1;
    }
  }
  return { technicians: [...technicians], services: [...services], service_areas: [...areas] };
}
