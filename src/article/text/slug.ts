import { createHash } from "node:crypto";
import slugifyLatin from "@sindresorhus/slugify";
import { stem } from "./stem.js";
import { stopWords } from "./terms.js";
import { wordSpans } from "./text.js";

/** Longest slug we produce, in characters. */
const MAX_SLUG_LENGTH = 75;

/**
 * An ASCII, lower-case, hyphenated slug of at most `max` characters, cut on a hyphen.
 * Scripts that do not transliterate (Japanese, Chinese, Korean…) leave nothing, so the
 * slug then falls back to a short stable hash of the text: never empty.
 */
export function slugify(text: string, max = MAX_SLUG_LENGTH): string {
  const slug = cutSlug(slugifyLatin(text, { lowercase: true, decamelize: false }), max);
  return slug || createHash("sha256").update(text).digest("hex").slice(0, 10);
}

/** Cut a slug to at most `max` characters without leaving half a word. */
function cutSlug(slug: string, max = MAX_SLUG_LENGTH): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const end = cut.lastIndexOf("-");
  return (end > 0 ? cut.slice(0, end) : slug.slice(0, max)).replace(/-+$/, "");
}

/** Most words of an article's slug: the keyword's, then the title's content words while they fit. */
const SLUG_WORDS = 6;

/**
 * An article's slug as a person picks one: the primary keyword's slug first (whole, so the
 * keyword check finds it), then the title's content words, at most {@link SLUG_WORDS} words in
 * all: no stop word of the language (`stopword`'s list), no word of the keyword again (by stem),
 * no fragment (a lone letter left of "beginner's"). Without a keyword, the title's content words
 * alone; with none of those (a Japanese title), the title's slug.
 */
export function articleSlug(title: string, primary: string | undefined, language: string): string {
  const keyword = primary ? slugify(primary) : "";
  const taken = new Set(primary ? wordSpans(primary, language).map((span) => stemOf(span.word, language)) : []);
  const stop = stopWords(language);
  const words: string[] = keyword ? keyword.split("-") : [];
  for (const { word } of wordSpans(title, language)) {
    if (words.length >= SLUG_WORDS) break;
    const lower = word.toLocaleLowerCase(language);
    if (stop.has(lower) || taken.has(stemOf(word, language))) continue;
    taken.add(stemOf(word, language));
    const parts = slugifyLatin(word, { lowercase: true, decamelize: false })
      .split("-")
      .filter((part) => part.length > 1 || /\d/u.test(part));
    for (const part of parts) if (!words.includes(part) && words.length < SLUG_WORDS) words.push(part);
  }
  return words.length ? cutSlug(words.join("-")) : slugify(title);
}

const stemOf = (word: string, language: string) => stem(word.toLocaleLowerCase(language), language);
