import { describe, expect, it } from "vitest";
import { bannedIn, expectNoEmptyText, readerText } from "../helpers/bans.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";
import { sharedStoriesServer } from "../helpers/stories.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the bans suite needs ${STORIES_MODEL}, which is not there.`);

/** Characters GBNF's syntax reads, each in a phrase of its own. */
const GRAMMAR_CHARACTERS = ["x^y", "a-z", "[b]", "c\\d", 'say "e"', "f|g", "(h)", "i{2}", "j*", "k+?", "l ::= m", "n\\x41", "o.p", "q#r"];

// Requests that used to break the article, through a real `inkpress serve` on stories260K.
describe.skipIf(!HAS_STORIES_MODEL)("banned phrases over HTTP", () => {
  const server = sharedStoriesServer();

  it("answers phrases and keywords made of grammar characters without a 500, streamed or not, and logs no grammar", async () => {
    const links = [{ url: "/math", title: "Math tables", keywords: ["x^2 tables", "a-b|c"] }];
    // Keywords and link keywords of grammar characters besides bans of them (none overlapping: that is a 422).
    const avoid = GRAMMAR_CHARACTERS.filter((p) => p !== "x^y" && p !== "f|g");
    const plain = await server().generate({
      topic: "Math tricks",
      length: 150,
      seed: 1,
      seo: { keywords: "x^y tricks, f|g plans" },
      style: { avoid },
      links,
    });
    expect(plain.status, await plain.clone().text()).toBe(200);
    const body = await plain.json();
    expectNoEmptyText(body);
    expect(bannedIn(readerText(body), avoid)).toEqual([]);
    const streamed = await server().generate({
      topic: "Math tricks",
      length: 150,
      seed: 2,
      stream: true,
      style: { avoid: GRAMMAR_CHARACTERS },
    });
    const events = await streamed.text();
    expect(events).toMatch(/event: done\n/u);
    expect(events).not.toMatch(/event: error\n/u);
    expect(server().output()).not.toMatch(/::=|parse grammar|error parsing/u);
  });

  it("a ban equal to the keyword, or to a link keyword, is a 422 naming both fields", async () => {
    const keyword = await server().generate({ topic: "Math tricks", seo: { keywords: "x^y" }, style: { avoid: ["dragon", "x^y"] } });
    expect(keyword.status).toBe(422);
    expect((await keyword.json()).errors.map((e: { path: string }) => e.path)).toEqual(["style.avoid[1]", "seo.keywords"]);
    const link = await server().generate({
      topic: "Math tricks",
      style: { avoid: ["x^y"] },
      links: [{ url: "/p", title: "Powers", keywords: ["x^y"] }],
    });
    expect(link.status).toBe(422);
    expect((await link.json()).errors.map((e: { path: string }) => e.path)).toEqual(["style.avoid[0]", "links[0].keywords"]);
    const topic = await server().generate({ topic: "A day at the park", style: { avoid: ["day"] } });
    expect((await topic.json()).errors.map((e: { path: string }) => e.path)).toEqual(["style.avoid[0]", "topic"]);
  });

  it("replaces banned labels by headings the model writes, and leaves no text empty", async () => {
    const avoid = ["Conclusion", "Key takeaways", "Frequently asked questions", "Lily"];
    const response = await server().generate({
      topic: "Snow games",
      length: 900,
      seed: 4,
      structure: "detailed",
      seo: { keywords: "snow games" },
      style: { avoid },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expectNoEmptyText(body);
    const headings = [...(body.article.markdown as string).matchAll(/^##\s*(.*)$/gmu)].map((m) => m[1]!);
    // Introduction, takeaways, bodies, conclusion and FAQ: each shows a heading, none a banned label.
    expect(headings.length).toBeGreaterThanOrEqual(4);
    expect(bannedIn(readerText(body), avoid)).toEqual([]);
    expect(body.seo.checks.find((c: { id: string }) => c.id === "avoid")).toMatchObject({ passed: true });
  });

  it("the avoid check is honest both ways with phrases that end or begin with symbols", async () => {
    const avoid = ["happy 🙂", "so -", "- Lily", "Lily"];
    const response = await server().generate({
      topic: "Snow games",
      length: 150,
      seed: 5,
      seo: {
        keywords: "snow games",
        title: "Snow games make us happy 🙂",
        description: "Snow games for Lilych and friends, and why they make everyone so happy on a cold day in the park - all winter long.",
      },
      style: { avoid },
    });
    const body = await response.json();
    const check = body.seo.checks.find((c: { id: string }) => c.id === "avoid");
    // The given title and description are used verbatim: the check finds what they hold, glued letters included, nothing more.
    expect(check.passed).toBe(false);
    expect(check.message).toMatch(/^Found 2 banned phrases: “happy 🙂” \(1\), “Lily” \(1\)/u);
    // What the model wrote (the body below the given title) holds no banned phrase, though "happy" and "so" are allowed.
    const written = body.article.markdown.replace(/^# .*$/mu, "");
    expect(bannedIn(written, avoid)).toEqual([]);
    expect(written).toMatch(/(?<!\p{L})(happy|so|Lil)(?!\p{L})/iu);
  });
});
