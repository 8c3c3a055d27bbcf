import { capitalise, countWords, endsSentence, splitSentences, wordSpans } from "./text.js";

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
    .trim();
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

/**
 * Turns a stream of model text into whole sentences. Text is buffered until a sentence
 * ends; a line break also ends one (a short line without a terminator is a stray
 * heading and is dropped). Whatever is left when the stream ends is never a whole
 * sentence, so it is discarded: no sentence is ever cut in half.
 */
export class SentenceChunker {
  private pending = "";

  constructor(private readonly language: string) {}

  /** Feed model text; returns the sentences it completed. */
  push(text: string): string[] {
    const lines = (this.pending + text).split(/\n+/);
    this.pending = lines.pop() ?? "";
    const out = lines.flatMap((line) => this.closeLine(line));
    for (;;) {
      const parts = splitSentences(this.pending, this.language);
      const first = parts[0];
      if (first === undefined) break;
      if (parts.length > 1) {
        // The segmenter's last segment may still grow; the ones before it are final.
        out.push(...this.accept(first));
        this.pending = this.pending.slice(this.pending.indexOf(first) + first.length);
      } else if (this.isRunaway(first)) {
        const pieces = splitLongSentence(cleanProse(first), this.language);
        this.pending = pieces.pop() ?? "";
        out.push(...pieces.map((s) => this.finish(s)));
      } else break;
    }
    return out.filter((s) => countWords(s, this.language) >= MIN_SENTENCE_WORDS);
  }

  /** A sentence without a terminator that is already too long to be one: models without punctuation. */
  private isRunaway(text: string): boolean {
    return !endsSentence(text) && countWords(text, this.language) > MAX_SENTENCE_WORDS + 10;
  }

  private closeLine(line: string): string[] {
    const clean = cleanProse(line);
    if (!endsSentence(clean) && countWords(clean, this.language) < 6) return [];
    return splitSentences(clean, this.language).flatMap((s) => this.accept(s));
  }

  private accept(sentence: string): string[] {
    const clean = cleanProse(sentence);
    if (!clean) return [];
    return splitLongSentence(clean, this.language).map((s) => this.finish(s));
  }

  private finish(sentence: string): string {
    const s = capitalise(sentence.trim(), this.language);
    return endsSentence(s) ? s : s.replace(/[\s,;:–—-]+$/u, "") + terminator(this.language);
  }
}
