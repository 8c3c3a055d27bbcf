/**
 * Requests that contradict themselves: a phrase the request bans that a keyword it asks for
 * holds (or that holds the keyword), or that leaves its topic no word to be written about.
 * The article could keep one promise only by breaking the other (an empty title, a keyword
 * written nowhere), so the request is refused with every field involved named.
 */
import { countBanned } from "./avoid.js";
import { focusKeyword } from "./focus.js";
import { stopWords } from "../text/terms.js";
import { wordSpans } from "../text/text.js";

/**
 * Share of a language's commonest words (its stop-word list) that banned single words may
 * refuse, by the words they begin: past it, too little is left to write with. Measured on
 * stories260K: 89 % refused (twelve single letters) still wrote 800 words at 2.2 times the
 * completion tokens of the same request without bans, 95 % took 3.3 times.
 */
const MOST_REFUSED = 0.9;

/** One field a conflict involves, as a validation error names it. */
export interface ConflictingField {
  /** The field's path: `style.avoid[2]`, `seo.keywords`, `links[0].keywords`, `topic`. */
  path: string;
  message: string;
}

/** What {@link requestConflicts} reads of a request. */
export interface ConflictInput {
  topic: string;
  language: string;
  seo: { keywords: readonly string[] };
  style?: { avoid?: readonly string[] | undefined } | undefined;
  links?: ReadonlyArray<{ keywords: readonly string[] }> | undefined;
  outline?: { headings: ReadonlyArray<{ text: string }> } | undefined;
}

/** Whether a banned phrase and a phrase the request asks for overlap: either holds the other, as the writer matches bans. */
const overlaps = (ban: string, phrase: string) => countBanned([phrase], [ban]).size > 0 || countBanned([ban], [phrase]).size > 0;

/**
 * Every field of the request that a ban contradicts, each ban with the fields it meets: a
 * keyword (the topic's own focus keyword when none is given) or a link keyword that holds the
 * ban or is held by it, and a topic whose content words are all banned. Empty when none.
 */
export function requestConflicts(request: ConflictInput): ConflictingField[] {
  const bans = request.style?.avoid ?? [];
  if (bans.length === 0) return [];
  const given = request.seo.keywords;
  const keywords = given.length
    ? given.map((k) => ({ phrase: k, path: "seo.keywords" }))
    : [{ phrase: focusKeyword(request.topic, request.language), path: "topic" }];
  const links = (request.links ?? []).flatMap((link, i) => link.keywords.map((k) => ({ phrase: k, path: `links[${i}].keywords` })));
  const found = new Map<string, string[]>();
  const note = (path: string, message: string) => found.set(path, [...(found.get(path) ?? []), message]);
  bans.forEach((ban, i) => {
    for (const wanted of [...keywords, ...links]) {
      if (!overlaps(ban, wanted.phrase)) continue;
      note(`style.avoid[${i}]`, `bans “${ban}”, which overlaps the keyword “${wanted.phrase}” of ${wanted.path}`);
      note(wanted.path, `the keyword “${wanted.phrase}” overlaps the banned phrase “${ban}” of style.avoid[${i}]`);
    }
  });
  // A heading the user wrote is written verbatim: one holding a ban could keep neither promise.
  for (const [j, heading] of (request.outline?.headings ?? []).entries()) {
    for (const [i, ban] of bans.entries()) {
      if (countBanned([heading.text], [ban]).size === 0) continue;
      note(`outline.headings[${j}]`, `the heading “${heading.text}” holds the banned phrase “${ban}” of style.avoid[${i}]`);
      note(`style.avoid[${i}]`, `bans “${ban}”, which the heading of outline.headings[${j}] holds`);
    }
  }
  const stop = stopWords(request.language);
  const topicWords = wordSpans(request.topic, request.language)
    .map((w) => w.word)
    .filter((w) => !stop.has(w.toLocaleLowerCase(request.language)));
  const banning = (word: string) => bans.findIndex((ban) => countBanned([word], [ban]).size > 0);
  if (topicWords.length && topicWords.every((word) => banning(word) >= 0)) {
    const indices = [...new Set(topicWords.map(banning))];
    for (const i of indices) note(`style.avoid[${i}]`, `bans “${bans[i]}”, and the topic has no word left that is not banned`);
    note("topic", `every word of the topic is banned by style.avoid (${indices.map((i) => `“${bans[i]}”`).join(", ")})`);
  }
  const starving = tooFewWords(bans, request.language);
  if (starving.share >= MOST_REFUSED) {
    const share = `${Math.round(starving.share * 100)} %`;
    for (const i of starving.bans)
      note(
        `style.avoid[${i}]`,
        `with the other banned single words, refuses ${share} of the language's commonest words (every word that begins with one): too little is left to ` +
          `write with`,
      );
  }
  return [...found].map(([path, messages]) => ({ path, message: [...new Set(messages)].join("; ") }));
}

/** The share of the language's stop words that the banned single words refuse, and the bans that refuse any, most first. */
function tooFewWords(bans: readonly string[], language: string): { share: number; bans: number[] } {
  const common = [...stopWords(language)];
  const single = bans.map((ban, i) => ({ word: ban.trim().toLocaleLowerCase(language), i })).filter(({ word }) => !/\s/u.test(word));
  if (common.length === 0 || single.length === 0) return { share: 0, bans: [] };
  const refusing = new Map<number, number>();
  let refused = 0;
  for (const word of common) {
    const by = single.filter((ban) => word.startsWith(ban.word));
    if (by.length) refused++;
    for (const { i } of by) refusing.set(i, (refusing.get(i) ?? 0) + 1);
  }
  return { share: refused / common.length, bans: [...refusing.keys()].sort((a, b) => refusing.get(b)! - refusing.get(a)! || a - b) };
}
