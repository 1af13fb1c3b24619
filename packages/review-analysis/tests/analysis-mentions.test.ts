// Misspelt technician names and the traps around names (one test per rule, each fails
// without it), through findMentions on the sample catalog with Frank Russo added as in eval/extra-technicians.json.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadEvalBusiness } from "../scripts/eval/eval-files.ts";
import { buildMatcher, findMentions, TYPO_FLOOR, withinOneEdit } from "../src/mentions.ts";
import { englishWords } from "../src/typos.ts";

const business = await loadEvalBusiness();
const m = buildMatcher(business);
const techs = (t: string) => findMentions(m, t).technicians.sort();

describe("misspelt technician names", () => {
  test("one edit from a name of 5+ letters: substitution, insertion, deletion, transposition", () => {
    assert.equal(TYPO_FLOOR, 5);
    assert.deepEqual(techs("Marcos fixed the furnace."), ["marcus-delgado"]);
    assert.deepEqual(techs("We had Sorenson out twice."), ["jake-sorensen"]);
    assert.deepEqual(techs("Ask for Holoway, he knows heat pumps."), ["grant-holloway"]);
    assert.deepEqual(techs("Willam replaced the breaker."), ["will-okafor"]);
    assert.deepEqual(techs("Thanks to Okafur for the quick fix."), ["will-okafor"]);
  });
  test("a matcher that has met a misspelling answers it the same way later, in its own context each time", () => {
    const fresh = buildMatcher(business);
    const seen = (t: string) => findMentions(fresh, t).technicians;
    assert.deepEqual(seen("We had Sorenson out twice."), ["jake-sorensen"]);
    // Lowercase and in no name's place: the word is remembered as a misspelling, the place still decides.
    assert.deepEqual(seen("the sorenson brand of filter"), []);
    assert.deepEqual(seen("Sorenson came back the next day."), ["jake-sorensen"]);
    assert.deepEqual(seen("Thanks to Okafur for the quick fix."), ["will-okafor"]);
    assert.deepEqual(seen("Okafur again: quick fix."), ["will-okafor"]);
  });
  test("capitalised at the start of a sentence, before any word: it is no English word", () => {
    assert.deepEqual(techs("Pryia (sorry if I'm spelling it wrong) was wonderful."), ["priya-raman"]);
    assert.deepEqual(techs("Delgadoo, if that is how you spell it, did great."), ["marcus-delgado"]);
  });
  test("lowercase only in a name's place: before a verb said of people, after thanks or a person noun", () => {
    assert.deepEqual(techs("wiliam was really patient"), ["will-okafor"]);
    assert.deepEqual(techs("delgados great. ask for him"), ["marcus-delgado"]);
    assert.deepEqual(techs("thanks priyaa"), ["priya-raman"]);
    assert.deepEqual(techs("the tech sorenson"), ["jake-sorensen"]);
    assert.deepEqual(techs("we paid sorenson money"), []);
  });
  test("a 4-letter name tolerates only a doubled letter written once", () => {
    assert.deepEqual(techs("Tes was on time and polite."), ["tess-nguyen"]);
    assert.deepEqual(techs("Thanks Tes!"), ["tess-nguyen"]);
    assert.deepEqual(techs("We met Jess and Test and Mark."), []);
    assert.deepEqual(techs("Jak came out."), []);
  });
  test("English words one edit from a name are never names, capitalised or not", () => {
    const targets = ["marcus", "delgado", "priya", "raman", "william", "billy", "okafor", "teresa", "nguyen"];
    targets.push("holloway", "jacob", "sorensen", "russo");
    const near = englishWords.filter(
      (w) => !m.technicianWords.has(w) && targets.some((t) => t !== w && withinOneEdit(w, t)),
    );
    for (const w of ["roman", "silly", "hollowly"]) assert.ok(near.includes(w), w);
    for (const w of near) assert.deepEqual(techs(`We met ${w[0].toUpperCase()}${w.slice(1)} today.`), [], w);
    assert.deepEqual(techs("The Roman shades were hung."), []);
  });
  test("a word near two technicians' names is neither", () => {
    const two = {
      ...business,
      technicians: [
        { id: "a", name: "Anna Marlow" },
        { id: "b", name: "Dan Marlon" },
      ],
    };
    assert.deepEqual(findMentions(buildMatcher(two), "Marlo fixed it.").technicians, []);
    assert.deepEqual(findMentions(buildMatcher(two), "Marlw fixed it.").technicians, ["a"]);
  });
  test("the usual nicknames are not typo targets, only the catalog's own names", () => {
    // "terry" is a usual short form of Teresa (names.json), not in the catalog: "Kerry" is someone else.
    assert.deepEqual(techs("Terry came out."), ["tess-nguyen"]);
    assert.deepEqual(techs("Kerry came out."), []);
  });
});

describe("traps: the name of someone else or of another business", () => {
  test("a name followed by a family or a capitalised company word is another business", () => {
    assert.deepEqual(techs("We first called Russo Brothers Plumbing, who never showed."), []);
    assert.deepEqual(techs("Grant & Sons quoted double."), []);
    assert.deepEqual(techs("Jake's Towing hauled the old unit."), []);
    assert.deepEqual(techs("Frank Russo Plumbing was booked for weeks."), []);
    assert.deepEqual(techs("Holloway Heating did our last furnace."), []);
    // Not a business: a lowercase word after a possessive, a name before a verb.
    assert.deepEqual(techs("Jake's service was great."), ["jake-sorensen"]);
    assert.deepEqual(techs("Russo plumbed the new line."), ["frank-russo"]);
    assert.deepEqual(techs("We hired Marcus, Air Pro quoted more."), ["marcus-delgado"]);
  });
  test("a name at another business is someone else; at this one (Summit Comfort Home Services) a technician", () => {
    assert.deepEqual(techs("Frank from Russo Brothers quoted $900."), []);
    assert.deepEqual(techs("Frank Russo at Valley Air Conditioning quoted more."), []);
    assert.deepEqual(techs("Marcus from Summit Comfort was great."), ["marcus-delgado"]);
    assert.deepEqual(techs("Marcus from the supply house brought the part."), ["marcus-delgado"]);
  });
  test("a name after a relation or office noun, directly or through named / a ... called, is someone else", () => {
    assert.deepEqual(techs("A neighbour called Bill recommended them."), []);
    assert.deepEqual(techs("Our neighbor named Marcus told us about them."), []);
    assert.deepEqual(techs("A friend by the name of Priya uses them."), []);
    assert.deepEqual(techs("Receptionist Tess booked us in."), []);
    assert.deepEqual(techs("The office manager Priya refunded the fee."), []);
    assert.deepEqual(techs("The front desk lady, Tess, was sweet."), []);
    assert.deepEqual(techs("The lady Tess was sweet."), ["tess-nguyen"]);
    assert.deepEqual(techs("Bill, our neighbour, swears by them."), []);
    assert.deepEqual(techs("Bill, the office clerk, took my card."), []);
    assert.deepEqual(techs("Will, the lead tech, was great."), ["will-okafor"]);
    assert.deepEqual(techs("Bill next door swears by them."), []);
    // "my son called Marcus" is a phone call: Marcus is still the technician.
    assert.deepEqual(techs("My son called Marcus and he came the same day."), ["marcus-delgado"]);
  });
  test("a possessive name before a relation noun is someone the reviewer knows", () => {
    assert.deepEqual(techs("Will's brother-in-law recommended them."), []);
    assert.deepEqual(techs("Marcus's helper carried the unit."), ["marcus-delgado"]);
  });
  test("a noun-like name after a content word is a compound noun, even before an action verb", () => {
    assert.deepEqual(techs("my power bill went down lol"), []);
    assert.deepEqual(techs("the state's energy grant paid for half"), []);
    assert.deepEqual(techs("then bill came out and fixed it"), ["will-okafor"]);
    assert.deepEqual(techs("yesterday frank came out"), ["frank-russo"]);
    assert.deepEqual(techs("thx grant came out fast"), ["grant-holloway"]);
  });
  test("a name from / at / in the office is the office's staff", () => {
    assert.deepEqual(techs("Bill from the office called to confirm the appointment."), []);
    assert.deepEqual(techs("Tess at the front desk was lovely."), []);
    assert.deepEqual(techs("Priya in billing sorted the refund."), []);
    assert.deepEqual(techs("Priya came from the shop with the part."), ["priya-raman"]);
  });
  test("a modal name before an adverb is a person only if a verb follows; shouting is not capitalising", () => {
    assert.deepEqual(techs("Will never use again."), []);
    assert.deepEqual(techs("Will never called back."), ["will-okafor"]);
    assert.deepEqual(techs("THEY WILL RIP YOU OFF."), []);
  });
});
