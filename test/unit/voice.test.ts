import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fieldGrammar, headingShape } from "../../src/article/gbnf/grammar.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { voiceNote, voiceSpellings } from "../../src/article/plan/voice.js";
import { analyse } from "../../src/article/report/analyse.js";
import { refusableSpellings, variantOf } from "../../src/article/text/spelling.js";
import { learnVoice } from "../../src/article/answer.js";
import { blocksOf } from "../helpers/blocks.js";
import { accepts, grammarLlama } from "../helpers/grammar.js";
import { ROOT } from "../helpers/server.js";

const fixture = (set: string, file: string) => readFileSync(path.join(ROOT, "test/fixtures/voices", set, file), "utf8");
const SHORT = ["bread.md", "compost.md", "cycling.md"].map((f) => fixture("short-you", f));
const LONG = ["gardens.md", "library.md", "orchestra.md"].map((f) => fixture("long-we", f));

/** The voice checks of an article analysed with `voice`. */
function voiceChecks(markdown: string, voice: ReturnType<typeof learnVoice>["profile"]) {
  const { blocks, hasTitle } = blocksOf(markdown);
  const input = { blocks, hasTitle, title: "", metaDescription: "", slug: "", keywords: [], language: "en", headingTags: true };
  const report = analyse({ ...input, preset: "sections", targetLength: 0, voice });
  return report;
}

describe("the spelling pairs", () => {
  it("hold at least 100 pairs, each spelling on one side, and leave out the spellings both variants write", () => {
    const pairs = ["colour", "organise", "centre", "favourite", "analyse", "catalogue", "defence", "grey"];
    for (const word of pairs) expect(variantOf(word), word).toBe("en-GB");
    for (const word of ["color", "organize", "center", "favorite", "analyze", "catalog", "defense", "gray"])
      expect(variantOf(word), word).toBe("en-US");
    for (const word of ["practice", "program", "license", "tire", "meter"]) expect(variantOf(word), word).toBeUndefined();
    expect(refusableSpellings("en-US").length).toBeGreaterThanOrEqual(100);
    // A refused American spelling never begins a British one ("program" would refuse "programme").
    expect(refusableSpellings("en-US")).not.toContain("ax");
  });
});

describe("refusing the other variant's spellings", () => {
  const voice = learnVoice({ articles: SHORT, name: "house" }).profile;
  const avoid = new AvoidList({ style: { avoid: [], cliches: false }, language: "en", spellings: voiceSpellings(voice) });

  it("refuses an American word as a whole word only, once the next character shows it ended", () => {
    expect(voiceSpellings(voice)).toEqual(expect.arrayContaining(["color", "center", "favorite"]));
    expect(avoid.holds("The color was red.")).toBe(true);
    expect(avoid.holds("The colour was red.")).toBe(false);
    // "humor" is refused; "humorous", which British English writes too, is not.
    expect(avoid.holds("A humorous story.")).toBe(false);
    expect(avoid.completedIn("The color", 4)).toBeUndefined();
    expect(avoid.completedIn("The color ", 4)).toMatchObject({ phrase: "color", cut: 3, word: "color" });
  });

  it("says nothing for a voice without a spelling, and the prompt's note stays within its budget", () => {
    expect(voiceSpellings({ ...voice, spelling: { value: "mixed" } })).toEqual([]);
    const note = voiceNote(voice);
    expect(note).toMatch(/^Voice: second person \("you"\), contractions, sentences of about 6 words, British spelling\./u);
    expect(note.length).toBeLessThanOrEqual(480);
    expect(SHORT.join(" ")).toContain(note.split("Like this: ")[1]!.split(". ")[0]!);
  });
});

describe("a heading in sentence case", () => {
  const llama = grammarLlama();

  it("lets no word past the first open with a capital, the keyword keeping the request's case", async () => {
    const grammar = async (keyword: boolean) =>
      llama().createGrammar({ grammar: fieldGrammar(headingShape("Kew Gardens", keyword, true), "\n", true, { refused: ["delve"] }) });
    const plain = await grammar(false);
    expect(accepts(plain, "Turn the heap often\n")).toBe(true);
    expect(accepts(plain, "Turn The Heap Often\n")).toBe(false);
    expect(accepts(plain, "Turn the Heap often\n")).toBe(false);
    expect(accepts(plain, "Delve into it\n")).toBe(false);
    const keyed = await grammar(true);
    expect(accepts(keyed, "Visit Kew Gardens in spring\n")).toBe(true);
    expect(accepts(keyed, "Visit Kew Gardens In Spring\n")).toBe(false);
  });
});

describe("the voice checks", () => {
  it("are not applicable without a voice, and weigh in without capping the score", () => {
    const { blocks, hasTitle } = blocksOf(LONG[0]!);
    const input = { blocks, hasTitle, title: "", metaDescription: "", slug: "", keywords: [], language: "en", headingTags: true };
    const without = analyse({ ...input, preset: "sections", targetLength: 0 });
    expect(without.checks.filter((c) => c.id.startsWith("voice-")).every((c) => c.passed === null)).toBe(true);
    const voice = learnVoice({ articles: SHORT, name: "house" }).profile;
    const withVoice = voiceChecks(LONG[0]!, voice);
    const failed = withVoice.checks.filter((c) => c.id.startsWith("voice-") && c.passed === false);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    // Each failed voice check weighs 1: the score drops by their weight's share, no cap.
    expect(withVoice.score).toBeGreaterThan(without.score - 20);
    expect(withVoice.checks.find((c) => c.id === "voice-spelling")!.message).toMatch(/^Found en-US spellings \(“neighborhood”/u);
    expect(withVoice.checks.find((c) => c.id === "voice-heading-case")!.message).toBe(
      "4 headings of 4 in Title Case; the house voice writes headings in sentence case.",
    );
  });

  it("say a voice of another language does not apply", () => {
    const voice = { ...learnVoice({ articles: SHORT, name: "house" }).profile, language: "de" };
    const checks = voiceChecks(SHORT[0]!, voice).checks.filter((c) => c.id.startsWith("voice-"));
    for (const check of checks) expect(check.message).toContain("learnt from articles in de; this article is in en");
  });
});
