// Which catalog entries a text mentions. Technicians by full name, nickname, first name (+ initial) and
// one-edit misspellings; services and service areas by name or alias (longest first) or postal code.

import { cueVocabulary } from "./aspects.ts";
import names from "./lexicon/names.json" with { type: "json" };
import spanish from "./lexicon/spanish.json" with { type: "json" };
import stopwordList from "./lexicon/stopwords.json" with { type: "json" };
import { sentences } from "./segment.ts";
import { sentimentVocabulary } from "./sentiment-lexicon.ts";
import { normalizeWord, PhraseTable, phraseTokens, type Token, tokenize } from "./tokenize.ts";
import { englishWords } from "./typos.ts";
import type { Catalog } from "./vocabulary.ts";

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
  /**
   * Misspelling index of the catalog's own name words (first names, surnames, one-word aliases; not the usual
   * nicknames, not names that are words): each name of TYPO_FLOOR+ letters and its one-letter deletions, and each
   * shorter name with its doubled letters folded ("tes" for Tess), to the names they may stand for.
   */
  technicianTypos: Map<string, { name: string; id: string }[]>;
  /** misspeltName's answers so far (null: none), each word's worked out once (bounded, MISSPELT_LIMIT). */
  misspelt: Map<string, string | null>;
  /** The distinctive words of the business's own name ("summit", "comfort"; not "home", "services"). */
  ownName: Set<string>;
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

/**
 * A misspelt name is one edit (Damerau) from a name of TYPO_FLOOR or more letters and has that many letters
 * itself: at four letters one edit reaches too many other words and names ("Tess": "Less", "Test", "Jess"; "Marc":
 * "Mark", "Mary"). A name one letter shorter only tolerates a doubled letter written once or a letter doubled
 * ("Tes", "Jakke"); shorter names ("Pri") none.
 */
export const TYPO_FLOOR = 5;
/** Words that are never a misspelt name: English words (SCOWL to size 60), the lexicons' words and stopwords. */
const knownWords: ReadonlySet<string> = new Set([
  ...englishWords,
  ...sentimentVocabulary,
  ...cueVocabulary,
  ...stopwordList.words,
]);
const foldDoubles = (w: string) => w.replace(/(.)\1+/g, "$1");
const FOLDED = "="; // prefix of the folded-form keys in technicianTypos, apart from the deletion keys

/** The word and its one-letter deletions. */
function deletions(w: string): string[] {
  const out = [w];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

/** Tokens of technicians' and service areas' names and aliases: names, not opinions ("Grant", "Joy", "Eagle"). */
export function nameWords(business: Pick<Catalog, "technicians" | "service_areas">): Set<string> {
  const out = new Set<string>();
  for (const e of [...business.technicians, ...business.service_areas]) {
    for (const n of [e.name, ...(e.aliases ?? [])]) for (const t of tokenize(n)) out.add(t.norm);
  }
  return out;
}

export function buildMatcher(business: Catalog): CatalogMatcher {
  const techPhrases: [string, string][] = [];
  const words = new Map<string, { id: string; initial: string }>();
  const ambiguous = new Set<string>();
  const typos = new Map<string, { name: string; id: string }[]>();
  const addTypo = (key: string, name: string, id: string) => typos.set(key, [...(typos.get(key) ?? []), { name, id }]);
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
    const own = [nameTokens[0], nameTokens.length > 1 ? nameTokens.at(-1) : undefined, ...(t.aliases ?? [])];
    for (const n of own) {
      const w = normalizeWord(n ?? "");
      if (!/^\p{L}+$/u.test(w) || commonWordNames.has(w)) continue;
      if (w.length >= TYPO_FLOOR) for (const d of new Set(deletions(w))) addTypo(d, w, t.id);
      else if (w.length === TYPO_FLOOR - 1) addTypo(FOLDED + foldDoubles(w), w, t.id);
    }
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
    technicianTypos: typos,
    misspelt: new Map(),
    ownName: new Set(
      tokenize(business.name)
        .map((x) => x.norm)
        .filter((w) => !companyWords.has(w) && !familyCompanyWords.has(w)),
    ),
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

/** Capitalised as a name is: "Will", not "WILL" (shouting), not "will". */
function isCapitalised(raw: string): boolean {
  return /^\p{Lu}/u.test(raw) && !/^\p{Lu}{2,}/u.test(raw);
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
const stopwords = new Set(stopwordList.words);
const officeStaff = new Set(names.office_staff_nouns);
const neighbourPlaces = PhraseTable.of(names.neighbour_places);
const officePlaces = PhraseTable.of(names.office_places);
const OFFICE_PREPOSITIONS = new Set(["from", "at", "in", "on"]);
const officeNouns = new Set(names.office_places.map((p) => p.split(" ").at(-1) ?? p));
const BUSINESS_PREPOSITIONS = new Set(["from", "at", "of", "with"]);
const byTheNameOf = PhraseTable.of(["by the name of"]);
const companyWords = new Set(names.company_words);
const familyCompanyWords = new Set(names.family_company_words);
const nameAdverbs = new Set(names.name_adverbs);
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

/**
 * "my power bill went down", "a federal grant paid": a noun-like name right after a content word (not a function
 * word, not a person noun) is the second half of a compound noun, not a person. Modal and adjective names are no
 * nouns ("today frank came").
 */
function compoundNoun(tokens: Token[], i: number, key: string): boolean {
  const prev = tokens[i - 1];
  if (prev === undefined || nameBeforeWas.has(key) || tokens[i].start - prev.end > 1) return false;
  return /^\p{L}+$/u.test(prev.norm) && !stopwords.has(prev.norm) && !personNouns.has(prev.norm);
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
    // "Will never called back" is Will; "Will never use again" is not: after a modal name, an adverb needs a verb.
    const verbCue =
      next !== undefined &&
      nameVerbs.has(next.norm) &&
      (!AMBIGUOUS_VERBS.has(next.norm) || nameBeforeWas.has(key)) &&
      (!modalNames.has(key) ||
        !nameAdverbs.has(next.norm) ||
        (i + 2 < tokens.length && actionVerbs.match(tokens, i + 2) !== undefined));
    if (!sentenceStart || followedByName || verbCue || personAdjectiveAfter(tokens, i + 1)) return true;
  }
  if (prev !== undefined && determiners.has(prev.norm)) return false;
  if (next !== undefined && actionVerbs.match(tokens, i + 1) && !compoundNoun(tokens, i, key)) return true;
  if (next !== undefined && nameBeforeWas.has(key) && AMBIGUOUS_VERBS.has(next.norm)) return true;
  // "grant was thorough": without a determiner, a noun-like name said to be what people are is a person.
  if (personAdjectiveAfter(tokens, i + 1)) return true;
  if (addressedAt(tokens, i)) return true;
  // "technician Grant", "Will, the tech, was great": a person noun beside the name.
  if (prev !== undefined && personNouns.has(prev.norm) && !modalNames.has(key)) return true;
  // "Will, the (lead) tech, ...": one word may come between.
  const person = (t: Token | undefined) => t !== undefined && personNouns.has(t.norm);
  if (next !== undefined && APPOSITION_OPENERS.has(next.norm) && (person(tokens[i + 2]) || person(tokens[i + 3])))
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

/** "my husband Jake", "a neighbour called Bill", "receptionist Tess": someone else of that name. */
function afterRelation(tokens: Token[], i: number): boolean {
  const at = (k: number) => tokens[k]?.norm ?? "";
  const isRelation = (k: number) => relationNouns.has(at(k)) || officeStaff.has(at(k));
  if (isRelation(i - 1)) return true;
  // "the office manager Priya", "the front desk lady, Tess".
  if (personNouns.has(at(i - 1)) && officeNouns.has(at(i - 2))) return true;
  if (at(i - 1) === "named") return isRelation(i - 2);
  if (i >= 4 && byTheNameOf.match(tokens, i - 4)?.length === 4) return isRelation(i - 5);
  // "a neighbour called Bill" names him; "my neighbour called Bill" is more likely a phone call.
  return at(i - 1) === "called" && isRelation(i - 2) && (at(i - 3) === "a" || at(i - 3) === "an");
}

/** "Bill, our neighbour, ...", "Bill, the office clerk,": an apposition (one word may come between) of another. */
function relationApposition(tokens: Token[], i: number): boolean {
  const next = tokens[i + 1];
  if (next === undefined || next.start - tokens[i].end < 2) return false;
  if (!APPOSITION_OPENERS.has(next.norm) && next.norm !== "a") return false;
  const other = (t: Token | undefined) => t !== undefined && (relationNouns.has(t.norm) || officeStaff.has(t.norm));
  return other(tokens[i + 2]) || other(tokens[i + 3]);
}

/** "Bill from the office", "Tess at the front desk": someone on the office's staff, not a technician. */
function inTheOffice(tokens: Token[], i: number): boolean {
  const prep = tokens[i + 1]?.norm ?? "";
  if (!OFFICE_PREPOSITIONS.has(prep)) return false;
  const k = tokens[i + 2] !== undefined && APPOSITION_OPENERS.has(tokens[i + 2].norm) ? i + 3 : i + 2;
  return k < tokens.length && officePlaces.match(tokens, k) !== undefined;
}

/**
 * "Russo Brothers Plumbing", "Grant & Sons", "Jake's Towing": the name of another business. A family word
 * (brothers, sons) after the name in any case, a trade or company word only capitalised, as business names are.
 */
function companyAfter(text: string, tokens: Token[], i: number): boolean {
  let k = i + 1;
  if (tokens[k]?.norm === "and" && !isPossessive(tokens[i])) k++;
  const next = tokens[k];
  // "We hired Marcus, Air Pro quoted more": only spaces or "&" may come between.
  if (next === undefined || !/^\s*(?:&\s*)?$/.test(text.slice(tokens[k - 1].end, next.start))) return false;
  if (familyCompanyWords.has(next.norm)) return !isPossessive(tokens[i]) || /^\p{Lu}/u.test(next.raw);
  return k === i + 1 && companyWords.has(next.norm) && /^\p{Lu}/u.test(next.raw);
}

/**
 * "Frank from Russo Brothers", "Bill at Home Depot": someone at another business, a capitalised name with a
 * company word after from/at/of/with, unless it starts with a word of the business's own name ("Summit Comfort").
 */
function atOtherBusiness(m: CatalogMatcher, tokens: Token[], i: number): boolean {
  if (!BUSINESS_PREPOSITIONS.has(tokens[i + 1]?.norm ?? "")) return false;
  let k = i + 2;
  if (tokens[k] !== undefined && tokens[k].norm === "the") k++;
  if (tokens[k] === undefined || m.ownName.has(tokens[k].norm)) return false;
  for (let j = k; j < Math.min(tokens.length, k + 4) && /^\p{Lu}/u.test(tokens[j].raw); j++)
    if (companyWords.has(tokens[j].norm) || familyCompanyWords.has(tokens[j].norm)) return true;
  return false;
}

/** The name ending at token i belongs to another business, or to someone at one. */
function otherBusiness(m: CatalogMatcher, text: string, tokens: Token[], i: number): boolean {
  return companyAfter(text, tokens, i) || atOtherBusiness(m, tokens, i);
}

/** "my husband Jake", "Holloway Road", "Russo Brothers": someone else of that name, a place or a business. */
function namesSomethingElse(m: CatalogMatcher, text: string, tokens: Token[], i: number): boolean {
  const next = tokens[i + 1];
  if (afterRelation(tokens, i) || relationApposition(tokens, i) || inTheOffice(tokens, i)) return true;
  // "Will's brother-in-law recommended them": a name whose relative is spoken of is someone the reviewer knows.
  if (
    otherBusiness(m, text, tokens, i) ||
    (isPossessive(tokens[i]) && next !== undefined && relationNouns.has(next.norm))
  )
    return true;
  // "Bill next door": a neighbour.
  if (next !== undefined && neighbourPlaces.match(tokens, i + 1)) return true;
  return next !== undefined && !isPossessive(tokens[i]) && placeNouns.has(next.norm);
}

/**
 * The technician a word not in the catalog may be a misspelling of ("Sorenson", "Holoway", "Pryia", "Tes"): one
 * edit from exactly one technician's name words (see TYPO_FLOOR), and not a word in its own right.
 */
function misspeltName(m: CatalogMatcher, key: string): string | undefined {
  const known = m.misspelt.get(key);
  if (known !== undefined) return known ?? undefined;
  const id = misspeltNameOf(m, key);
  if (m.misspelt.size < MISSPELT_LIMIT) m.misspelt.set(key, id ?? null);
  return id;
}
const MISSPELT_LIMIT = 50_000;

function misspeltNameOf(m: CatalogMatcher, key: string): string | undefined {
  if (key.length < TYPO_FLOOR - 2 || knownWords.has(key) || !/^\p{L}+$/u.test(key)) return undefined;
  const ids = new Set<string>();
  if (key.length >= TYPO_FLOOR)
    for (const d of deletions(key))
      for (const e of m.technicianTypos.get(d) ?? []) if (withinOneEdit(key, e.name)) ids.add(e.id);
  for (const e of m.technicianTypos.get(FOLDED + foldDoubles(key)) ?? []) if (e.name !== key) ids.add(e.id);
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** Lowercase, a word is in a name's place before a verb or a word said of people, after "thanks" or "technician". */
function nameSlot(tokens: Token[], i: number): boolean {
  const next = tokens[i + 1];
  const prev = tokens[i - 1];
  // "delgados great": a dropped apostrophe ("delgado's great") before a word said of people.
  if (next !== undefined && (nameVerbs.has(next.norm) || personAdjectives.has(next.norm))) return true;
  if (next !== undefined && actionVerbs.match(tokens, i + 1)) return true;
  return addressedAt(tokens, i) || (prev !== undefined && personNouns.has(prev.norm));
}

function technicianAt(
  m: CatalogMatcher,
  text: string,
  tokens: Token[],
  i: number,
  sentenceStart: boolean,
): string | undefined {
  const tok = tokens[i];
  const key = nameKey(tok);
  const entry = m.technicianWords.get(key);
  let id: string | undefined;
  if (entry) {
    if (commonWordNames.has(key) && !personContext(m, tokens, i, sentenceStart, entry.id)) return undefined;
    id = entry.id;
  } else {
    // Not a word, so capitalised even at the start of a sentence it is a name.
    id = misspeltName(m, key);
    if (id === undefined || !(isCapitalised(tok.raw) || nameSlot(tokens, i))) return undefined;
  }
  return namesSomethingElse(m, text, tokens, i) ? undefined : id;
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
        if (!otherBusiness(m, text, tokens, i + phrase.length - 1)) technicians.add(phrase.value);
        i += phrase.length - 1;
        continue;
      }
      const tech = technicianAt(m, text, tokens, i, i === 0);
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
