// One test per class of rule added to the analysis (each fails without its rule).
// Since engine 2.7.0 the published labels come from the model: these tests assert the rules' own result
// (analyzeByRules), what each rule decides.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadEvalBusiness } from "../scripts/eval/eval-files.ts";
import { analyzeByRules, aspectCues } from "../src/analyze-text.ts";
import { buildMatcher, findMentions } from "../src/mentions.ts";
import { tokenize } from "../src/tokenize.ts";

const aspectsOf = (t: string) =>
  analyzeByRules([t], new Set(["priya"])).aspects.map((a) => `${a.aspect} ${a.polarity}`);

describe("mentions of names that are words", async () => {
  const business = await loadEvalBusiness();
  const m = buildMatcher(business);
  const techs = (t: string) => findMentions(m, t).technicians.sort();
  test("a possessive is the name, unless a determiner shows it is a thing", () => {
    assert.deepEqual(techs("Sorensen's crew did the ductwork."), ["jake-sorensen"]);
    assert.deepEqual(techs("Frank's estimate was spot on."), ["frank-russo"]);
    assert.deepEqual(techs("The grant's deadline was close."), []);
  });
  test("lowercase, a name that is a word is a person only where the context shows one", () => {
    assert.deepEqual(techs("frank came out the same day"), ["frank-russo"]);
    assert.deepEqual(techs("thanks frank"), ["frank-russo"]);
    assert.deepEqual(techs("ask for grant"), ["grant-holloway"]);
    assert.deepEqual(techs("frank and marcus did the install"), ["frank-russo", "marcus-delgado"]);
    assert.deepEqual(techs("will and tess were great"), ["tess-nguyen", "will-okafor"]);
    assert.deepEqual(techs("to be frank it took too long"), []);
    assert.deepEqual(techs("i will call them again"), []);
    assert.deepEqual(techs("we got a grant for the insulation"), []);
  });
  test("a person noun beside the name ('technician Grant', 'Will, the tech,') shows a person", () => {
    assert.deepEqual(techs("Technician Grant was on time."), ["grant-holloway"]);
    assert.deepEqual(techs("Will, the tech, was great."), ["will-okafor"]);
    assert.deepEqual(techs("tech named frank"), ["frank-russo"]);
    assert.deepEqual(techs("The tech will call tomorrow."), []);
  });
  test("at the start of a sentence, 'Grant was' + a word said of people is a person", () => {
    assert.deepEqual(techs("Grant was thorough and careful."), ["grant-holloway"]);
    assert.deepEqual(techs("Grant was very patient."), ["grant-holloway"]);
    assert.deepEqual(techs("Grant was approved in May."), []);
    assert.deepEqual(techs("grant was professional but quiet"), ["grant-holloway"]);
    assert.deepEqual(techs("the grant was generous"), []);
  });
  test("the usual short forms of a first name ('Bill' for William); 'had it' is something a person does", () => {
    assert.deepEqual(techs("Bill came out on a Saturday and fixed it."), ["will-okafor"]);
    assert.deepEqual(techs("The bill was higher than I thought."), []);
    assert.deepEqual(techs("grant had it going again by 9"), ["grant-holloway"]);
    assert.deepEqual(techs("the grant had it covered"), []);
  });
  test("a relative of the reviewer's is someone else; a name before a street word is a place", () => {
    assert.deepEqual(techs("my husband Jake called them after the flood"), []);
    assert.deepEqual(techs("Our neighbor Frank recommended them."), []);
    assert.deepEqual(techs("Their office on Holloway Road was hard to find."), []);
    assert.deepEqual(techs("Jake called us back within the hour."), ["jake-sorensen"]);
    assert.deepEqual(techs("Holloway's crew was tidy."), ["grant-holloway"]);
  });
});

describe("opinion rules", () => {
  const names = new Set(["priya", "marcus"]);
  const label = (t: string) => analyzeByRules([t], names).overall;
  const has = (t: string, aspect: string) => aspectsOf(t).includes(aspect);
  test("a problem that persists ('still isn't cooling') is a failed job about the work", () => {
    assert.equal(label("Our AC still isn't cooling."), "negative");
    assert.ok(has("Our AC still isn't cooling.", "workmanship negative"));
    assert.equal(label("Still no complaints."), "positive");
  });
  test("a fix that did not happen is a failure; a problem found is praise", () => {
    assert.equal(label("They couldn't find the leak."), "negative");
    assert.equal(label("Found the leak behind the wall in ten minutes."), "positive");
    assert.equal(label("The smell from the drain is gone."), "positive");
  });
  test("damage the crew caused counts against the work", () => {
    assert.equal(label("On time, but they cracked our tile."), "negative");
    assert.notEqual(label("They found a cracked igniter."), "negative");
  });
  test("a failed job outweighs courtesy and is not 'mixed'", () => {
    assert.equal(label("Polite, though the repair failed a week later."), "negative");
    assert.equal(label("They were fast and cheap, and it broke again in a month."), "negative");
    assert.equal(label("Great work, awful cleanup."), "mixed");
  });
  test("neither/nor and 'not X, not Y' of opposite sign are the middle", () => {
    assert.equal(label("Neither great nor terrible."), "neutral");
    assert.equal(label("Not bad, not great."), "neutral");
    assert.equal(label("Not late, not rude."), "positive");
  });
  test("opinions about a foil are not about this business; comparisons with one are", () => {
    assert.equal(label("After two other companies failed, they fixed it on the first try."), "positive");
    assert.equal(label("The new panel is neat, the old one was a disaster."), "positive");
    assert.equal(label("Way better than the last company we used."), "positive");
  });
  test("comparatives against what was expected, price-scale words about a price", () => {
    assert.ok(has("The bill was higher than I hoped.", "price_value negative"));
    assert.ok(has("It cost less than I feared.", "price_value positive"));
    assert.ok(has("Their quote was the lowest of three.", "price_value positive"));
    assert.equal(label("The water pressure was low."), "neutral");
  });
  test("a short time span is speed; 'ask for' a named person is a recommendation", () => {
    assert.ok(has("He fixed the breaker in like 15 min.", "speed positive"));
    assert.ok(has("In and out in under an hour.", "speed positive"));
    assert.equal(label("Ask for Priya!"), "positive");
  });
  test("dismissed and minor complaints weigh little; an explicit verdict or 'mixed feelings' decides", () => {
    assert.equal(label("A few minutes late, no big deal, the furnace works great."), "positive");
    assert.equal(label("Overall happy, despite a slow start."), "positive");
    assert.equal(label("Mixed feelings about this one."), "mixed");
  });
  test("a sentence-opening concession ends at its comma; adverbial 'though' is 'however'", () => {
    assert.equal(label("Even though it cost more than expected, it was worth it."), "positive");
    assert.equal(label("The price was steep; the work, though, is excellent."), "positive");
    assert.equal(label("Showed up on the dot; the diagnosis was wrong though."), "negative");
  });
  test("a problem that comes with the new work is a failure; a state restored is praise", () => {
    assert.equal(label("Friendly enough, but the new faucet drips."), "negative");
    assert.ok(has("The house is warm again.", "workmanship positive"));
  });
  test("casual spellings read as the word ('quik', 'tho')", () => {
    assert.ok(has("reasonable price and quik work", "speed positive"));
  });
  test("one clause may say opposite things of one aspect", () => {
    const got = aspectsOf("Quick to answer, slow to actually fix anything.");
    assert.ok(got.includes("speed positive") && got.includes("speed negative"), got.join());
  });
  test("missing messages a customer wanted count against communication", () => {
    assert.ok(has("Nobody returned my emails.", "communication negative"));
  });
  test("a problem that came after the work ('leaks now') is a failure", () => {
    assert.equal(label("The kitchen faucet leaks now."), "negative");
    assert.equal(label("No leaks now."), "positive");
  });
  test("dirt heaped up counts against cleanliness, unless negated", () => {
    assert.ok(has("They not clean after the work, much dust in my kitchen.", "cleanliness negative"));
    assert.notEqual(label("Found the leak without tearing up much drywall."), "negative");
  });
  test("non-native 'not + base verb' and a wider Spanish vocabulary", () => {
    assert.equal(label("The technician not come and not call me."), "negative");
    assert.equal(label("No funciona el aire, no los recomiendo."), "negative");
    assert.equal(label("Muy atentos y el precio justo."), "positive");
  });
  test("negation shifts toward neutral: 'nothing amazing' is lukewarm, 'not good' is bad", () => {
    assert.equal(label("Honestly it was fine, nothing amazing."), "neutral");
    assert.equal(label("The work was not good."), "negative");
  });
  test("'can't believe how fast' is emphasis, not negation; 'don't waste your money' is a warning", () => {
    assert.equal(label("i cant believe how fast they came"), "positive");
    assert.equal(label("Dont waste your money."), "negative");
  });
  test("a phrase that contains a cue word but names no aspect ('service call')", () => {
    assert.ok(!aspectsOf("The service call was overpriced.").some((a) => a.startsWith("communication")));
  });
  test("a comparison with a competitor ('less than the last guy charged') is about this business", () => {
    assert.equal(label("Our bill was less than the last guy charged."), "positive");
    assert.equal(label("Took longer than the others."), "negative");
  });
  test("casual 'tho' is a contrast; loyalty and 'took the time' are praise", () => {
    const tho = analyzeByRules(["polite tho they left sawdust everywhere"]);
    const though = analyzeByRules(["polite though they left sawdust everywhere"]);
    assert.deepEqual(
      [tho.sentiment, tho.overall, tho.aspects.map((a) => [a.aspect, a.polarity, a.quote.split(" ").length])],
      [though.sentiment, though.overall, though.aspects.map((a) => [a.aspect, a.polarity, a.quote.split(" ").length])],
    );
    assert.equal(tho.overall, "mixed");
    assert.equal(label("Been using them for years."), "positive");
    assert.ok(has("He took the time to show me how to change the filter.", "professionalism positive"));
  });
  test("idioms of a job handled, and of one that was not", () => {
    assert.equal(label("They took care of everything."), "positive");
    assert.equal(label("We had to call someone else to finish it."), "negative");
    assert.ok(has("They refused to honor the warranty.", "professionalism negative"));
  });
  test("implicit communication: messages missing, things shown, kept posted", () => {
    assert.ok(has("The appointment got moved twice without anyone telling me.", "communication negative"));
    assert.ok(has("Management never responded to my emails.", "communication negative"));
    assert.ok(has("Nobody told us the part was on backorder.", "communication negative"));
    assert.ok(has("He showed me the old part and explained the fix, great guy", "communication positive"));
    assert.equal(label("he was running late"), "negative");
  });
  test("implicit scheduling, and words of two aspects ('prompt', 'courteous')", () => {
    assert.ok(has("what a hassle, 3 reschedules before anyone showed", "scheduling negative"));
    assert.ok(has("They squeezed us in the same week, awesome.", "scheduling positive"));
    assert.ok(has("Booked up for weeks, we had to go elsewhere.", "scheduling negative"));
    for (const a of ["punctuality positive", "speed positive", "professionalism positive", "friendliness positive"])
      assert.ok(has("Prompt and courteous.", a), a);
    assert.ok(has("They put down runners and drop cloths, very careful.", "cleanliness positive"));
    assert.ok(has("Paid $250 for nothing.", "price_value negative"));
  });
  test("plain praise answered by 'but' is not conceded away unless the answer faults the job: mixed", () => {
    assert.equal(label("Great work, but it cost a fortune."), "mixed");
    assert.equal(label("Good job but took way too long"), "mixed");
    assert.equal(label("Very polite, but it cost a fortune."), "mixed");
    assert.equal(label("Great plumber but the office took four days to call us back."), "mixed");
    assert.equal(label("Friendly tech, but the repair didn't hold."), "negative");
    assert.equal(label("Polite crew, but the work was sloppy and we had to call someone else."), "negative");
    assert.equal(label("Service was okay but the price was too high."), "negative");
  });
  test("days and weeks taken are slow; a word that is also an intensifier intensifies ('super fast')", () => {
    assert.deepEqual(aspectsOf("we waited two weeks for the part"), ["speed negative"]);
    assert.ok(aspectsOf("took them over a week to call back").includes("speed negative"));
    assert.ok(aspectsOf("It took them 5 days to even send someone out.").includes("speed negative"));
    assert.equal(label("The install took 3 days."), "neutral");
    assert.equal(label("super fast response but the bill was higher than I expected"), "mixed");
  });
  test("an opinion of the problem ('a horrible smell') is not an opinion of the work", () => {
    assert.equal(label("Horrible smell in the basement and they found a broken vent pipe within minutes."), "positive");
    assert.equal(label("We had a horrible smell in the basement."), "neutral");
    assert.equal(label("The faucet has a terrible leak again."), "negative");
  });
  test("verbs of finished work and the state it leaves are about the work", () => {
    assert.ok(has("They unclogged the drain, great guys.", "workmanship positive"));
    assert.ok(has("He swapped the igniter and it was perfect.", "workmanship positive"));
    assert.ok(has("The basement stayed dry, so happy.", "workmanship positive"));
    assert.ok(has("Surge protector installed, done before lunch.", "speed positive"));
  });
  test("a rating in the text ('5/5', '2/10', 'A+++') is an opinion; other fractions and '24/7' are not", () => {
    assert.deepEqual(
      tokenize("5/5, A+++ and 4.5/5; a+b").map((t) => t.norm),
      ["5/5", "a+++", "and", "4.5/5", "a", "b"],
    );
    assert.equal(label("5/5 will do business again"), "positive");
    assert.equal(label("A+++ service"), "positive");
    assert.equal(label("2/10, the tech came on tuesday"), "negative");
    assert.equal(label("3/5, the tech came on tuesday"), "neutral");
    assert.equal(label("open 24/7"), "neutral");
    assert.equal(label("half the pipe, 1/2 inch"), "neutral");
    assert.equal(label("no strong feelings either way"), "neutral");
  });
  test("an amount of money ('$189', '€1,200.50') is one token and about the price", () => {
    assert.deepEqual(
      tokenize("paid $189, then €1,200.50").map((t) => t.norm),
      ["paid", "$189", "then", "€1,200.50"],
    );
    assert.deepEqual(aspectCues("it was $189"), [{ aspect: "price_value", cue: "$189" }]);
    assert.ok(has("$300 for a ten minute visit, a total ripoff", "price_value negative"));
  });
  test("a hedge weighs its clause half ('decent job I guess'); idioms of thanks and of money well spent", () => {
    assert.equal(label("decent job i guess, nothing special"), "neutral");
    assert.equal(label("decent job, nothing special"), "positive");
    assert.equal(label("Teresa was here by 10. Can't thank her enough."), "positive");
    assert.equal(label("money well spent"), "positive");
  });
  test("praise in scare quotes is ironic ('a 'quick' job'); words quoted after a verb of speech are not", () => {
    assert.equal(label("Such a 'quick' job: three visits and two weeks."), "negative");
    assert.equal(label("Sure, 'fixed.' That's why I'm typing this in a coat."), "negative");
    assert.deepEqual(aspectsOf("Their 'professional' crew smoked on our porch."), ["professionalism negative"]);
    assert.equal(label('The tech said "no problem" and had it fixed in ten minutes.'), "positive");
  });
  test("units that set the scene with a problem before anyone acts are not criticism of the business", () => {
    assert.equal(
      label("Sewer line backed up into the basement. Horrible mess. Their crew had it flowing by noon."),
      "positive",
    );
    assert.equal(
      label("No heat, frozen pipes, panicking. Marcus had the furnace running within the hour."),
      "positive",
    );
    assert.equal(label("Furnace broken again after their repair. Terrible. They never came back."), "negative");
    assert.equal(label("Awful experience. The tech was rude and the leak is still there."), "negative");
  });
  test("'quiet' praises a machine, not a person; a noise that is gone is work done", () => {
    assert.deepEqual(aspectsOf("the new furnace is quiet"), ["workmanship positive"]);
    assert.equal(label("the tech was quiet"), "neutral");
    assert.equal(label("The furnace doesn't make that noise anymore."), "positive");
  });
  test("competence of a person is about the work ('good tech'); job names, states and know-how are cues", () => {
    assert.deepEqual(aspectsOf("Good tech, terrible scheduling."), ["workmanship positive", "scheduling negative"]);
    assert.ok(aspectsOf("the duct cleaning made a huge difference").includes("workmanship positive"));
    assert.ok(aspectsOf("The guy clearly didn't know what he was doing.").includes("professionalism negative"));
    assert.ok(aspectsOf("Another no-show.").includes("scheduling negative"));
    assert.ok(aspectsOf("He never listened to a word I said.").includes("communication negative"));
    assert.ok(aspectsOf("$$$ for a ten minute fix").includes("price_value negative"));
    assert.equal(label("friendly guys but way too pricey for a simple tune up"), "mixed");
  });
  test("lukewarm words with nothing stronger beside them say neither ('ok service ok price')", () => {
    assert.equal(label("ok service ok price"), "neutral");
    assert.equal(label("Came, fixed, left. Fine."), "neutral");
    assert.equal(label("Average. Nothing to write home about."), "neutral");
    assert.equal(label("The install was okay but the crew was fantastic."), "positive");
    assert.equal(label("Service was ok but price was way too high."), "negative");
  });
  test("a question that opens with an auxiliary asks and does not praise; its complaints stay", () => {
    assert.equal(label("Anyone know if the Comfort Club covers filters? Asking before I renew."), "neutral");
    assert.equal(label("Will they ever answer the phone? Three voicemails now."), "negative");
  });
  test("a part marked ironic ('oh great', praise in scare quotes) has no sincere praise", () => {
    assert.equal(label("Oh great, another $200 to be told to change my filter. Thanks a lot."), "negative");
    assert.equal(label("Yeah right, 'same day service'. We waited a week. Super helpful."), "negative");
  });
  test("idioms of loyalty and of decline", () => {
    assert.equal(label("We switched to them last year and haven't looked back."), "positive");
    assert.equal(label("Not as good as they used to be. Prices up, quality down."), "negative");
    assert.equal(label("Never using them again, period."), "negative");
  });
  test("Spanish: 'pero' is a contrast, 'nunca contestan', 'no avisó', 'sigue sin', 'dejó polvo', 'más alta que'", () => {
    assert.equal(label("Buen trabajo pero nunca contestan el teléfono."), "mixed");
    assert.ok(aspectsOf("El técnico llegó tres horas tarde y no avisó.").includes("communication negative"));
    assert.ok(aspectsOf("La calefacción sigue sin calentar.").includes("workmanship negative"));
    assert.equal(label("La limpieza de ductos dejó polvo por toda la casa."), "negative");
    assert.equal(label("Muy rápidos, pero la factura fue más alta que el presupuesto."), "mixed");
  });
  test("praise that is only 'enough' is lukewarm; 'could have been' and 'should have been' negate", () => {
    assert.equal(label("Nice enough guy, though he didn't fix anything."), "negative");
    assert.equal(label("good enough i guess"), "neutral");
    assert.equal(label("Could've been a bit faster, honestly."), "negative");
    assert.equal(label("It could have been a disaster, but they caught the gas leak in time."), "positive");
  });
  test("a relative clause after a foil is about the foil ('the last outfit we used, who never cleaned up')", () => {
    assert.equal(label("Much better than the last outfit we used, who never cleaned up."), "positive");
    assert.equal(label("Way better than the plumber we had before, who left a mess every time."), "positive");
  });
  test("the same problem after a visit is a failure of the work", () => {
    assert.ok(aspectsOf("Third visit and it's the same problem.").includes("workmanship negative"));
    assert.equal(label("Friendly guy, but the problem is the same."), "negative");
  });
  test("criticism in a sentence of thanks says what the thanks are for; 'I'm torn' says mixed", () => {
    assert.equal(label("thank you marcus for coming out so late on a friday!!"), "positive");
    assert.equal(
      label("I'm torn. Teresa was wonderful, but this is the second time the same part has failed."),
      "mixed",
    );
    assert.equal(label("tech was great, dispatch is a mess"), "mixed");
    assert.equal(label("The kitchen drain is still blocked after their visit."), "negative");
  });
  test("harsh criticism answered by praise is mixed; mild criticism or a price answered by praise is not", () => {
    assert.equal(label("The receptionist was downright rude, but the plumber she sent was fantastic."), "mixed");
    assert.equal(label("A little late, but the repair was perfect."), "positive");
    assert.equal(label("The quote was higher than the others, but the work was excellent."), "positive");
  });
  test("a verdict put off ('too early to tell', 'not sure yet') weighs little; adverbial 'yet' is no contrast", () => {
    assert.equal(label("Not sure yet if the new heat pump was worth the money. Ask me after winter."), "neutral");
    assert.equal(label("The new heat pump seems good so far, but it's too early to tell."), "neutral");
    assert.equal(label("Pretty happy with the install, I guess."), "positive");
  });
  test("a verb done wrong ('mis-', 'over-' + an English word) is a fault; words that only look prefixed are not", () => {
    assert.equal(label("They misquoted the job and miswired the thermostat."), "negative");
    assert.ok(has("They misquoted the job and miswired the thermostat.", "workmanship negative"));
    assert.equal(label("He overtightened the fitting."), "negative");
    assert.equal(label("They overhauled the furnace."), "neutral");
    assert.equal(label("Mister Delgado came by."), "neutral");
  });
  test("a negated modal before a comparative is its superlative ('couldn't have been cleaner', 'couldn't be worse')", () => {
    assert.equal(label("The crew couldn't have been nicer."), "positive");
    assert.ok(has("The basement couldn't have been cleaner.", "cleanliness positive"));
    assert.equal(label("The service couldn't be worse."), "negative");
    assert.equal(label("I couldn't get anyone on the phone."), "neutral");
  });
  test("a fix that lasted only a short time failed ('worked for exactly one week')", () => {
    assert.ok(has("They replaced the igniter, worked for exactly one week.", "workmanship negative"));
    assert.equal(label("The repair lasted only two days."), "negative");
    assert.equal(label("The new pump has worked for two years."), "neutral");
  });
  test("'late' before a relative is no lateness; a price word of degree ('eye-watering') judges a price", () => {
    assert.ok(!aspectsOf("My late husband always handled the furnace.").some((a) => a.startsWith("punctuality")));
    assert.ok(has("The price he gave us was eye-watering.", "price_value negative"));
    assert.ok(has("The bill was astronomical.", "price_value negative"));
  });
  test("a negated liking, no difference made, and 'not what I'd call' are criticism", () => {
    assert.ok(has("Liked the tech, didn't like the price.", "price_value negative"));
    assert.equal(label("Honestly I couldn't tell any difference after the duct cleaning."), "negative");
    assert.equal(label("Not what I'd call honest."), "negative");
  });
  test("no dirt anywhere is a clean job", () => {
    assert.ok(has("There was zero dust anywhere after.", "cleanliness positive"));
  });
});
