import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { variantOf } from "../../src/article/text/spelling.js";
import { API_KEY, HAS_STORIES_MODEL, ROOT, STORIES_MODEL } from "../helpers/server.js";
import { sharedStoriesServer } from "../helpers/stories.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the voice suite needs ${STORIES_MODEL}, which is not there.`);

/** The two voice sets written for this suite: three articles each, in clearly different voices. */
const SETS = ["short-you", "long-we"] as const;
const articles = (set: string) => {
  const dir = path.join(ROOT, "test/fixtures/voices", set);
  return readdirSync(dir)
    .sort()
    .map((file) => readFileSync(path.join(dir, file), "utf8"));
};

/**
 * Words of each sentence of the prose, counted here apart from the engine: the lines that are no
 * heading, list item or front matter, cut after each ".", "!" or "?" (and the quotes that close on
 * it), spaces between words.
 */
function ownSentenceLengths(markdown: string): number[] {
  const prose = markdown
    .replace(/^---[\s\S]*?---\n/u, "")
    .split("\n")
    .filter((line) => line.trim() && !/^\s*(#|-\s)/u.test(line))
    .join(" ");
  return prose
    .split(/(?<=[.!?]["\u201d\u2019)]*)\s+/u)
    .filter((s) => s.trim())
    .map((s) => s.trim().split(/\s+/u).length);
}

const mean = (ns: number[]) => ns.reduce((a, b) => a + b, 0) / ns.length;
const ownSentenceMean = (markdown: string) => mean(ownSentenceLengths(markdown));

/** The features the articles were written with. */
const WRITTEN = {
  "short-you": { person: "second", spelling: "en-GB", headingCase: "sentence", contractions: true },
  "long-we": { person: "first-plural", spelling: "en-US", headingCase: "title", contractions: false },
} as const;

describe.skipIf(!HAS_STORIES_MODEL)("a house voice over HTTP", () => {
  const server = sharedStoriesServer();
  const post = (route: string, body: unknown) =>
    fetch(`${server().url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify(body),
    });
  const learn = async (texts: string[], name = "house") => {
    const response = await post("/api/v1/voice", { articles: texts, name });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as { object: string; name: string; profile: any; examples: any[] };
  };
  const voiceChecks = async (markdown: string, voice: unknown) => {
    const response = await post("/api/v1/analyse", { markdown, language: "en", style: { voice } });
    expect(response.status, await response.clone().text()).toBe(200);
    const { seo } = await response.json();
    return seo.checks.filter((c: { id: string }) => c.id.startsWith("voice-")) as { id: string; passed: boolean | null; message: string }[];
  };

  it.each(SETS)("learns the %s set's features as they were written", async (set) => {
    const texts = articles(set);
    const voice = await learn(texts, set);
    expect(voice).toMatchObject({ object: "voice", name: set });
    const own = texts.map(ownSentenceMean);
    const ownMean = mean(own);
    expect(Math.abs(voice.profile.sentenceWords.mean - ownMean) / ownMean).toBeLessThanOrEqual(0.2);
    expect(voice.profile.person.value).toBe(WRITTEN[set].person);
    expect(voice.profile.spelling.value).toBe(WRITTEN[set].spelling);
    expect(voice.profile.headingCase.value).toBe(WRITTEN[set].headingCase);
    expect(voice.profile.contractions.value > 2).toBe(WRITTEN[set].contractions);
    expect(voice.profile.language).toBe("en");
    expect(voice.examples).toHaveLength(3);
    expect(voice.profile.excerpts.length).toBeGreaterThan(0);
    for (const excerpt of voice.profile.excerpts) expect(texts.join("\n")).toContain(excerpt);
  });

  it.each(SETS)("leave one out: a %s voice of two articles passes the third and fails the other set's", async (set) => {
    const [a, b, c] = articles(set);
    const { profile } = await learn([a!, b!]);
    const own = await voiceChecks(c!, profile);
    expect(own.filter((check) => check.passed === false)).toEqual([]);
    expect(own.filter((check) => check.passed === true).length).toBeGreaterThanOrEqual(6);
    const other = await voiceChecks(articles(SETS.find((s) => s !== set)!)[0]!, profile);
    const failed = other.filter((check) => check.passed === false);
    expect(failed.map((check) => check.id)).toEqual(expect.arrayContaining(["voice-sentence-length", "voice-person", "voice-spelling"]));
    expect(failed.find((check) => check.id === "voice-sentence-length")!.message).toMatch(
      /^Sentences average [\d.]+ words; the house voice [\d.]+–[\d.]+\.$/u,
    );
  });

  it("refuses too few words of prose, and a profile with an unknown field or a wrong type, naming the field", async () => {
    const twenty =
      "# Short\n\nYou can write twenty words here. It's not much. You'll need more than this to learn a voice from, won't you?";
    for (const body of [{ articles: [twenty] }, { articles: [] }]) {
      const response = await post("/api/v1/voice", body);
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/u);
      expect((await response.json()).errors.map((e: { path: string }) => e.path)).toEqual(["articles"]);
    }
    const { profile } = await learn(articles("short-you"));
    for (const [voice, named] of [
      [{ ...profile, colour: "red" }, "colour"],
      [{ ...profile, sentenceWords: { ...profile.sentenceWords, mean: "short" } }, "sentenceWords.mean"],
    ] as const) {
      const response = await post("/api/v1/analyse", { markdown: articles("short-you")[0], style: { voice } });
      expect(response.status).toBe(422);
      const problem = await response.json();
      expect(problem.errors[0].path).toBe("style.voice");
      expect(problem.errors[0].message).toContain(named);
    }
  });

  it("steers sentence length on stories260K: a short-sentence voice's sentences are shorter than a long-sentence voice's, within their spans", async () => {
    const means: Record<string, number> = {};
    for (const set of SETS) {
      const { profile } = await learn(articles(set));
      const lengths: number[] = [];
      for (const seed of [1, 2]) {
        const response = await server().generate({ topic: "A walk in the park", length: 200, seed, style: { voice: profile } });
        expect(response.status, await response.clone().text()).toBe(200);
        const { article } = await response.json();
        lengths.push(...ownSentenceLengths(article.markdown));
      }
      means[set] = mean(lengths);
      // Most sentences lie within the voice's own 10th–90th percentile words (a run-on's head may end short).
      const { p10, p90 } = profile.sentenceWords;
      const inside = lengths.filter((n) => n >= Math.round(p10) && n <= Math.round(p90)).length;
      expect(inside / lengths.length, `${set}: ${lengths.join(" ")}`).toBeGreaterThanOrEqual(0.8);
    }
    // Measured: 6.2 against 22.4 words (without the span both voices wrote the same articles, 9.6 words a sentence).
    expect(means["short-you"]! * 2).toBeLessThan(means["long-we"]!);
  });

  it("writes stories260K articles in an en-GB sentence-case voice: no American spelling, no Title Case heading, voice checks that tell the truth", async () => {
    const { profile } = await learn(articles("short-you"));
    for (const seed of [1, 2, 3]) {
      const response = await server().generate({ topic: "A walk in the park", length: 150, seed, style: { voice: profile } });
      expect(response.status, await response.clone().text()).toBe(200);
      const { article, seo } = await response.json();
      const words = article.markdown.toLowerCase().match(/[\p{L}']+/gu) ?? [];
      expect(words.filter((word: string) => variantOf(word) === "en-US")).toEqual([]);
      const headings = (article.markdown.match(/^#{2,6} .+$/gmu) ?? []).map((h: string) => h.replace(/^#+ /u, ""));
      for (const heading of headings) {
        const rest = heading.split(/\s+/u).slice(1);
        expect(
          rest.filter((word: string) => /^\p{Lu}/u.test(word)),
          heading,
        ).toEqual([]);
      }
      const checks = seo.checks.filter((c: { id: string }) => c.id.startsWith("voice-"));
      const byId = Object.fromEntries(checks.map((c: { id: string }) => [c.id, c]));
      expect(byId["voice-spelling"].passed).toBe(true);
      if (headings.length) expect(byId["voice-heading-case"].passed).toBe(true);
      // The report measures what was written: the same article analysed as it is gets the same voice verdicts.
      expect(await voiceChecks(article.markdown, profile)).toEqual(checks);
    }
  });
});
