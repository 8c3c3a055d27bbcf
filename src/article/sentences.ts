import { capitalise, endsSentence, wordSpans } from "./text.js";

/** Longest sentence we let through; longer model sentences are split (readability rule: prefer ≤ 20 words). */
export const MAX_SENTENCE_WORDS = 20;
/** Shortest run of words we accept as a sentence. */
export const MIN_SENTENCE_WORDS = 3;

/** The sentence terminator of a language. */
export function terminator(language: string): string {
  if (language === "ja" || language === "zh") return "。";
  if (language === "hi") return "।";
  return ".";
}

/**
 * Clean one line of model output into plain prose: Markdown marks, list bullets,
 * leftover special tokens and stray quotes go; code owns the structure.
 */
export function cleanProse(text: string): string {
  return text
    .replace(/<\|[^|>]*\|>|<\/?s>/g, " ")
    .replace(/^\s*(?:#{1,6}\s|[-*+>]\s|\d+[.)]\s)/, "")
    .replace(/[*_`#|<>[\]{}\\]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    // A sentence never opens with the punctuation of the one before (". , he said").
    .replace(/^[,;:.!?)\]}…–—-]+\s*/u, "");
}

/** Split a sentence longer than {@link MAX_SENTENCE_WORDS} into whole sentences, at commas where it can. */
export function splitLongSentence(sentence: string, language: string): string[] {
  const spans = wordSpans(sentence, language);
  if (spans.length <= MAX_SENTENCE_WORDS) return [sentence];
  const end = terminator(language);
  // Prefer the comma closest to the middle; else cut after the middle word.
  const middle = Math.floor(spans.length / 2);
  let cutWord = middle;
  let best = Infinity;
  spans.forEach((span, i) => {
    const after = sentence.slice(span.index + span.word.length).match(/^\s*[,;:，、]/);
    if (after && i >= MIN_SENTENCE_WORDS && spans.length - i > MIN_SENTENCE_WORDS && Math.abs(i - middle) < best) {
      best = Math.abs(i - middle);
      cutWord = i + 1;
    }
  });
  const last = spans[cutWord - 1]!;
  const head = sentence.slice(0, last.index + last.word.length).replace(/[\s,;:，、]+$/, "") + end;
  const tail = capitalise(sentence.slice(last.index + last.word.length).replace(/^[\s,;:，、]+/, ""), language);
  return [...splitLongSentence(head, language), ...splitLongSentence(tail, language)];
}

/** A whole sentence: capitalised, ending with a terminator of its language. */
export function finishSentence(sentence: string, language: string): string {
  const s = capitalise(sentence.trim(), language);
  return endsSentence(s) ? s : `${s.replace(/[\s,;:–—-]+$/u, "")}${terminator(language)}`;
}
