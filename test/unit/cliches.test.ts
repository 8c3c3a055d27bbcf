import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLICHES, clichesFor } from "../../src/article/plan/cliches.js";
import { countPhrase } from "../../src/article/text/text.js";

describe("clichesFor", () => {
  it("holds the issue's English examples", () => {
    const english = clichesFor("en");
    for (const phrase of [
      "delve",
      "tapestry",
      "in today's fast-paced world",
      "it's important to note",
      "a testament to",
      "unlock the potential",
      "in the ever-evolving landscape",
      "game-changer",
      "embark on a journey",
    ]) {
      expect(english).toContain(phrase);
    }
    expect(english.length).toBeGreaterThanOrEqual(60);
  });

  it("gives a language its own list first, then the English one", () => {
    const german = clichesFor("de");
    expect(german[0]).toBe(CLICHES.de![0]);
    expect(german).toContain("es ist wichtig zu beachten");
    expect(german).toContain("delve");
    // "Game-Changer" is in both lists: listed once.
    expect(german.filter((p) => p.toLowerCase() === "game-changer")).toHaveLength(1);
  });

  it("falls back to the English list for a language without one", () => {
    expect(clichesFor("ja")).toEqual(clichesFor("en"));
  });

  it("lists no phrase twice in any language", () => {
    for (const language of [...Object.keys(CLICHES), "ja"]) {
      const lower = clichesFor(language).map((p) => p.toLocaleLowerCase());
      expect(new Set(lower).size, language).toBe(lower.length);
    }
  });

  it("holds no phrase inside another, so the report counts each use once", () => {
    for (const language of Object.keys(CLICHES)) {
      const list = clichesFor(language);
      for (const outer of list) {
        const inner = list.filter((p) => p !== outer && countPhrase(outer, p, language) > 0);
        expect(inner, `${language}: “${outer}”`).toEqual([]);
      }
    }
  });

  it("is listed in docs/guarantees.md, phrase by phrase", () => {
    const page = readFileSync(new URL("../../docs/guarantees.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("## Built-in clichés"));
    for (const phrase of Object.values(CLICHES).flat()) expect(section).toContain(`\`${phrase}\``);
  });
});
