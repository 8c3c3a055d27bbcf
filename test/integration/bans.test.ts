import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bannedIn, expectNoEmptyText, nonWords, readerText } from "../helpers/bans.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, storiesServer } from "../helpers/server.js";

const HAS_WORDS = existsSync("/usr/share/dict/american-english");
if (!HAS_STORIES_MODEL || !HAS_WORDS) console.warn(`SKIPPED: the bans suite needs ${STORIES_MODEL} and Debian's wamerican word list.`);

/** stories260K's favourites, and a name it likes. */
const FAVOURITES = ["Once upon a time", "Lily", "so happy", "very happy", "Tom"];
/** Fifty of the commonest English words. */
const FIFTY =
  "the be to of and a in that have I it for not on with he as you do at this but his by from they we say her she or an will my one all would there their what so up out if about who get which go me".split(
    " ",
  );
/**
 * Articles a side: about 19,000 words each. At that size the ratio moved 3.5 % between three
 * disjoint sets of seeds (0.993, 0.959, 0.984); at six 400-word articles a side (2,400 words) it
 * moved 12.9 % (0.956, 1.072, 1.090), more than the 5 % the figure may move.
 */
const SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
/** Words a side at least, so that the figure holds still between runs. */
const WORDS = 18_000;
const REQUEST = { topic: "Snow games", length: 800, seo: { keywords: "snow games" } };

// Bans with no way round, through a real `inkpress serve` on stories260K: none of the phrases
// appears, not even with letters glued on, and the words the model writes instead are words
// about as often as when it writes freely.
describe.skipIf(!HAS_STORIES_MODEL || !HAS_WORDS)("banned phrases at length", () => {
  const server = storiesServer();

  it("24 articles banning stories260K's favourites hold none of them, and misspell at most 1.2 times as often as the model writing freely", async () => {
    const banned = { words: 0, odd: 0 };
    const free = { words: 0, odd: 0 };
    for (const seed of SEEDS) {
      const body = await (await server().generate({ ...REQUEST, seed, style: { avoid: FAVOURITES } })).json();
      expectNoEmptyText(body);
      expect(bannedIn(readerText(body), FAVOURITES), `seed ${seed}`).toEqual([]);
      expect(body.seo.checks.find((c: { id: string }) => c.id === "avoid")).toMatchObject({ passed: true });
      const counted = nonWords(body.article.markdown);
      banned.words += counted.words;
      banned.odd += counted.odd.length;
      // The same model from the same title (and so the same outline where no ban changed it), banning nothing.
      const unbanned = await (await server().generate({ ...REQUEST, seed, seo: { ...REQUEST.seo, title: body.article.title } })).json();
      const freely = nonWords(unbanned.article.markdown);
      free.words += freely.words;
      free.odd += freely.odd.length;
    }
    const [bannedShare, freeShare] = [banned.odd / banned.words, free.odd / free.words];
    console.log(
      `non-words: banned ${banned.odd}/${banned.words} (${(bannedShare * 100).toFixed(2)} %), free ${free.odd}/${free.words} (${(freeShare * 100).toFixed(2)} %), ratio ${(bannedShare / freeShare).toFixed(3)}`,
    );
    expect(banned.words).toBeGreaterThanOrEqual(WORDS);
    expect(free.words).toBeGreaterThanOrEqual(WORDS);
    expect(bannedShare / freeShare).toBeLessThanOrEqual(1.2);
    // 48 articles of 800 words: about 2 to 3.5 minutes on two shared cores.
  }, 600_000);

  it("fifty common words banned: the length within ±10 % at no more than 3 times the completion tokens", async () => {
    const request = { topic: "Snow games", length: 800, seed: 7, seo: { keywords: "snow games" } };
    const response = await server().generate({ ...request, style: { avoid: FIFTY } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expectNoEmptyText(body);
    expect(bannedIn(readerText(body), FIFTY)).toEqual([]);
    expect(Math.abs(body.article.wordCount - 800)).toBeLessThanOrEqual(80);
    const unbanned = await (await server().generate(request)).json();
    console.log(
      `fifty words banned: ${body.article.wordCount} words, ${body.usage.completionTokens} completion tokens against ${unbanned.usage.completionTokens} (${(body.usage.completionTokens / unbanned.usage.completionTokens).toFixed(2)}x)`,
    );
    expect(body.usage.completionTokens).toBeLessThanOrEqual(3 * unbanned.usage.completionTokens);
  });
});
