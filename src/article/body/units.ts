import { MIN_SENTENCE_WORDS, balanced, cleanProse, finishSentence, quotes, splitLongSentence } from "../text/sentences.js";
import { countWords, endsSentence, firstWords, splitSentences } from "../text/text.js";
import { sentenceWords } from "../plan/limits.js";

/** One whole unit of model text, read from the start of what the pass has not consumed yet. */
export type Unit =
  | { kind: "sentence"; text: string; length: number }
  | { kind: "skip"; length: number }
  | { kind: "heading"; length: number };

/** A run-on without an end is split once it is this long (models that write no punctuation). */
const RUN_ON_WORDS = 30;

/**
 * The next whole unit of model text: a sentence (its quotations closed inside it), a heading
 * line, or a line too short to be prose (skipped). Undefined while the text may still grow
 * into a longer unit; `final` says it will not (the model stopped). A run-on is cut at `longest`
 * words, never inside one of the `steered` phrases (keywords and anchors the step placed).
 */
export function nextUnit(
  pending: string,
  language: string,
  final: boolean,
  longest = sentenceWords(language),
  steered: readonly string[] = [],
): Unit | undefined {
  const lead = pending.length - pending.trimStart().length;
  const body = pending.slice(lead);
  if (!body) return undefined;
  if (/^#{1,6}(\s|$)/.test(body)) return { kind: "heading", length: lead };
  const newline = body.indexOf("\n");
  const line = newline >= 0 ? body.slice(0, newline) : body;
  const lineDone = newline >= 0 || final;
  const segments = splitSentencesRaw(line, language);
  // A quotation the segmenter split ("Stop. Now!" she said.) is one sentence: segments join until it closes.
  let count = 1;
  while (count < segments.length && quotes(segments.slice(0, count).join("")) === "open") count++;
  const first = segments.slice(0, count).join("");
  const whole = first !== "" && (count < segments.length || lineDone);
  if (!whole) {
    // Each word takes a character at least: a shorter text is no run-on, and needs no count.
    const runOnWords = Math.max(RUN_ON_WORDS, longest);
    if (first.length > runOnWords && countWords(first, language) > runOnWords && balanced(first))
      return runOnHead(first, lead, language, longest, steered);
    return undefined;
  }
  const clean = cleanProse(first);
  const length = lead + first.length;
  // A short line without an end is a stray heading or label.
  if (
    countWords(clean, language) < MIN_SENTENCE_WORDS ||
    (!endsSentence(clean) && newline >= 0 && segments.length === 1 && countWords(clean, language) < 6)
  ) {
    return { kind: "skip", length };
  }
  return { kind: "sentence", text: finishSentence(clean, language), length };
}

/** The head of a run-on sentence, at most `longest` words, as a sentence of its own. */
function runOnHead(first: string, lead: number, language: string, longest: number, steered: readonly string[]): Unit {
  const clean = cleanProse(first);
  const head = splitLongSentence(clean, language, longest, steered)[0]!;
  const words = firstWords(first, countWords(head, language), language);
  const at = first.indexOf(words);
  return { kind: "sentence", text: finishSentence(head, language), length: lead + (at < 0 ? first.length : at + words.length) };
}

/** The sentence segments of a line, untrimmed at their ends except the last, so offsets add up. */
function splitSentencesRaw(line: string, language: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (const part of splitSentences(line, language)) {
    const index = line.indexOf(part, at);
    out.push(line.slice(at, index + part.length));
    at = index + part.length;
  }
  return out;
}
