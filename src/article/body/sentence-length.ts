/**
 * A house voice's sentence length, kept while the model samples: a sentence that reaches the
 * voice's longest words ends there, before any word it would hang on (the next call's grammar
 * asks for its terminator, which the model picks), and one the model ends short of the voice's shortest goes on (the terminator is
 * cut and the next call's grammar refuses an end for the words still missing). Code cuts and
 * constrains; the model writes every word and every mark.
 */
import { classOf, TERMINATORS } from "../text/scripts.js";
import { quotes } from "../text/sentences.js";
import { wordSpans } from "../text/text.js";
import { isSlotWord } from "../text/slot-words.js";
import type { SentenceSpan } from "../plan/voice.js";

/** What the span asks of the next call: end the sentence at `at`, or cut at `at` and write `words` more first. */
export type LengthInterrupt = { kind: "close"; at: number } | { kind: "lengthen"; at: number; words: number };

/** A sentence's end: a terminator not inside a figure ("3.5" ends nothing). */
const END = new RegExp(`(?<![\\p{N}])[${classOf(TERMINATORS)}]`, "u");
/**
 * Words a sentence does not end on, besides the slot words (determiners, prepositions): a sentence
 * ended at its most words ends before them ("She helped her mom and" ends "She helped her mom.").
 */
const HANGING: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(
    "and or but so because to that which who whose when while as than if then is are was were be been very not she he they we i".split(" "),
  ),
};
/** Pauses a forced end may not follow ("happy,." reads wrong): they go with the cut. */
const TRAILING_PAUSE = /[\s,;:\u2013\u2014-]+$/u;

/**
 * What the span asks after the model wrote `piece` at `pieceAt` of `text`, the pending sentence
 * starting at `cursor`: undefined while the sentence is within it or not prose (a line of its
 * own, a heading). An end inside a quotation is no sentence's end; a sentence that reaches the most
 * inside one ends it and closes it.
 */
export function lengthInterrupt(
  text: string,
  cursor: number,
  pieceAt: number,
  piece: string,
  span: SentenceSpan,
  language: string,
): LengthInterrupt | undefined {
  const pending = text.slice(cursor);
  if (/^\s*#/u.test(pending) || /\n\s*\S/u.test(pending.trimStart())) return undefined;
  const end = END.exec(text.slice(Math.max(cursor, pieceAt)));
  if (end) {
    const at = Math.max(cursor, pieceAt) + end.index;
    const sentence = text.slice(cursor, at);
    // An earlier end the step has not read yet, or a quotation still open: the sentence is not this one.
    if (END.test(sentence) || quotes(sentence) === "open") return undefined;
    const words = wordSpans(sentence, language).length;
    return words > 0 && words < span.least ? { kind: "lengthen", at, words: span.least - words } : undefined;
  }
  // A piece that starts a word past the most: the sentence ends before it.
  if (!/^\s+\S/u.test(piece) || pieceAt < cursor) return undefined;
  const sentence = text.slice(cursor, pieceAt);
  const spans = wordSpans(sentence, language);
  if (END.test(sentence) || spans.length < span.most) return undefined;
  let keep = spans.length;
  // Words after the last quote only: a quotation the sentence opened keeps its first word.
  const quoted = Math.max(...[...'"\u201c\u201d'].map((q) => sentence.lastIndexOf(q)));
  while (keep > span.least && spans[keep - 2]!.index > quoted && hangs(spans[keep - 1]!.word, language)) keep--;
  const kept = keep < spans.length ? sentence.slice(0, spans[keep]!.index) : sentence;
  return { kind: "close", at: cursor + kept.length - (TRAILING_PAUSE.exec(kept)?.[0].length ?? 0) };
}

/** Whether a sentence would hang on `word`, its last. */
function hangs(word: string, language: string): boolean {
  return isSlotWord(word, language) || (HANGING[language]?.has(word.toLocaleLowerCase(language)) ?? false);
}
