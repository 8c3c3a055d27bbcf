import { classOf, fullStopFor, PAUSES, QUOTATION_PAIRS, TERMINATORS } from "./scripts.js";
import { capitalise, endsSentence, wordSpans } from "./text.js";

/** Shortest run of words we accept as a sentence. */
export const MIN_SENTENCE_WORDS = 3;

/** Letters of any script, to find a text's last letter. */
const LETTERS = /\p{L}/gu;
/** A clause break a long sentence is cut after, and the same with the spaces before it. */
const PAUSE_AFTER = new RegExp(`^\\s*[${classOf(PAUSES)}]`);
const PAUSES_AT_END = new RegExp(`[\\s${classOf(PAUSES)}]+$`);
/** What the model left at a cut (". . data"): it goes with the head's end. */
const LEFT_AT_CUT = new RegExp(`^[\\s${classOf(PAUSES + TERMINATORS)}]+`, "u");

/**
 * The terminator of a sentence: it follows the script the sentence is written in, not the
 * requested language: an English sentence in a Japanese article ends with ".".
 */
function terminatorFor(sentence: string, language: string): string {
  return fullStopFor(sentence.match(LETTERS)?.at(-1), language);
}

/**
 * Clean one line of model output into plain prose: Markdown marks, list bullets,
 * leftover special tokens and stray quotes go; code owns the structure.
 */
export function cleanProse(text: string): string {
  return (
    text
      .replace(/<\|[^|>]*\|>|<\/?s>/g, " ")
      .replace(/^\s*(?:#{1,6}\s|[-*+>]\s|\d+[.)]\s)/, "")
      .replace(/[*_`#|<>[\]{}\\]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      // A sentence never opens with the punctuation of the one before (". , he said").
      .replace(/^[,;:.!?)\]}…–—-]+\s*/u, "")
  );
}

/**
 * Split a sentence longer than `maxWords` into whole sentences, at commas where it can,
 * never inside a quotation or brackets, nor inside one of the `whole` phrases (a steered
 * keyword or anchor, which a cut would break: "a compost. Bin"); a sentence that has no such
 * cut stays whole.
 */
export function splitLongSentence(sentence: string, language: string, maxWords: number, whole: readonly string[] = []): string[] {
  const spans = wordSpans(sentence, language);
  if (spans.length <= maxWords) return [sentence];
  const inside = insidePhrases(sentence, language, whole);
  // Prefer the comma closest to the middle, then the word closest to it; only where both halves stand alone.
  const middle = Math.floor(spans.length / 2);
  let cut: { at: number; cost: number } | undefined;
  spans.forEach((span, i) => {
    const end = span.index + span.word.length;
    if (i + 1 < MIN_SENTENCE_WORDS || spans.length - i - 1 < MIN_SENTENCE_WORDS || inside(end) || !balanced(sentence.slice(0, end))) return;
    const comma = PAUSE_AFTER.test(sentence.slice(end));
    const cost = Math.abs(i + 1 - middle) + (comma ? 0 : spans.length);
    if (!cut || cost < cut.cost) cut = { at: end, cost };
  });
  if (!cut) return [sentence];
  const head = sentence.slice(0, cut.at).replace(PAUSES_AT_END, "") + terminatorFor(sentence, language);
  // The tail opens on its first word: punctuation the model left at the cut (". . data") goes with the head's end.
  const tail = capitalise(sentence.slice(cut.at).replace(LEFT_AT_CUT, ""), language);
  return [...splitLongSentence(head, language, maxWords, whole), ...splitLongSentence(tail, language, maxWords, whole)];
}

/** Whether an offset of `sentence` falls inside an occurrence of one of the phrases (compared lower-cased). */
function insidePhrases(sentence: string, language: string, phrases: readonly string[]): (at: number) => boolean {
  const text = sentence.toLocaleLowerCase(language);
  const ranges: [number, number][] = [];
  for (const phrase of phrases) {
    const needle = phrase.trim().toLocaleLowerCase(language);
    for (let at = needle ? text.indexOf(needle) : -1; at >= 0; at = text.indexOf(needle, at + 1)) ranges.push([at, at + needle.length]);
  }
  return (at) => ranges.some(([start, end]) => start < at && at < end);
}

/** A whole sentence: capitalised, ending with a terminator of its language. */
export function finishSentence(sentence: string, language: string): string {
  const whole = capitalise(sentence.trim(), language);
  return endsSentence(whole) ? whole : `${whole.replace(/[\s,;:–—-]+$/u, "")}${terminatorFor(whole, language)}`;
}

/** Each opening character and the one that closes it; the straight double quote, which does both, apart. */
const CLOSER: ReadonlyMap<string, string> = new Map(QUOTATION_PAIRS.filter((p) => p.open !== p.close).map((p) => [p.open, p.close]));
const CLOSERS = new Set(CLOSER.values());
/** Any character {@link quotes} reads: a text without one has nothing open or broken. */
const HAS_QUOTATION = new RegExp(`["${[...CLOSER.keys(), ...CLOSERS].join("")}]`, "u");

/**
 * Whether every quote and bracket a text opens is closed in it, in order. Curly
 * and angle quotes and brackets close what they open. A straight double quote opens where
 * an opening quote stands (at the start or after a space, before a word) and closes
 * otherwise, so `?" A cat"` is a close without an open. Single quotes are left alone
 * (they are also apostrophes).
 */
export function balanced(text: string): boolean {
  return quotes(text) === "closed";
}

/**
 * The state of a text's quotations and brackets: all closed, some still open (more text
 * may close them), or broken (a quote or bracket closes what was never opened: no more text mends it).
 */
export function quotes(text: string): "closed" | "open" | "broken" {
  const open = openedIn(text);
  return open === undefined ? "broken" : open.length === 0 ? "closed" : "open";
}

/** The closing characters `text` still owes, innermost first ("" when all are closed); undefined when it is broken. */
export function stillOpen(text: string): string | undefined {
  return openedIn(text)
    ?.map((c) => (c === '"' ? c : CLOSER.get(c)!))
    .reverse()
    .join("");
}

/** The quotes and brackets `text` leaves open, outermost first; undefined when one closes what was never opened. */
function openedIn(text: string): string[] | undefined {
  if (!HAS_QUOTATION.test(text)) return [];
  const open: string[] = [];
  const chars = [...text];
  for (const [i, c] of chars.entries()) {
    if (c === '"') {
      if (open.at(-1) === '"') open.pop();
      else if (/^[\s([{\u201c\u00ab]?$/u.test(chars[i - 1] ?? "") && /\S/u.test(chars[i + 1] ?? "")) open.push('"');
      else return undefined;
    } else if (open.length && CLOSER.get(open.at(-1)!) === c) open.pop();
    else if (CLOSER.has(c)) open.push(c);
    else if (CLOSERS.has(c)) return undefined;
  }
  return open;
}
