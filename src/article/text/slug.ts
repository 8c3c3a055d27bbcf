import { createHash } from "node:crypto";
import slugifyLatin from "@sindresorhus/slugify";

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

/** An article's slug: the primary keyword first, then the rest of the title. */
export function articleSlug(title: string, primary: string): string {
  const keyword = slugify(primary);
  const rest = slugify(title)
    .split("-")
    .filter((w) => !keyword.split("-").includes(w));
  return cutSlug([keyword, ...rest].filter(Boolean).join("-"));
}
