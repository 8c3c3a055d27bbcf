/**
 * The keyword steered into an outline field, as the body steers it into a sentence: the model
 * writes the field's first words under a grammar without the keyword, and at the keyword's spot
 * (after a slot word, or after the most words the field allows before it) code places the
 * keyword and the model writes on after it. A grammar that only waited for the keyword left a
 * model that did not offer it nothing but letters glued onto its last word ("R sewjezcawJ5O
 * compost bin"), each token sampled over the whole vocabulary.
 */
import type { FieldShape } from "../gbnf/grammar.js";
import { isSlotWord, slotWords } from "../text/slot-words.js";
import { hasPhrase, wordSpans } from "../text/text.js";

/** A field's lead: its words before the keyword's spot, under a grammar without the keyword; undefined when the keyword is not steered. */
export function leadShape(shape: FieldShape, spaced: boolean): FieldShape | undefined {
  const { keyword, words, continues } = shape;
  // Scripts without spaces keep the keyword in their grammar: their word starts cannot be read from a piece.
  if (!spaced || !keyword || continues) return undefined;
  const before = shape.before ?? 2;
  const [min, max] = words;
  if (keywordWords(keyword) + before + 1 > max) return undefined;
  // The field cannot end before the spot after its most lead words: the keyword always gets its place.
  return { ...withoutKeyword(shape), words: [Math.max(min, before + 1), max] };
}

/** The field after its steered keyword: the words left, perhaps none, and at least `least` while they fit. */
export function tailShape(shape: FieldShape, written: number, least = 0): FieldShape {
  const [min, max] = shape.words;
  const most = Math.max(0, max - written);
  return { ...withoutKeyword(shape), words: [Math.min(most, Math.max(least, min - written)), most], continues: true };
}

/** Words of a keyword, as the grammar counts them. */
export const keywordWords = (keyword: string): number => keyword.split(/\s+/u).length;

const withoutKeyword = ({ keyword: _, before: __, ...rest }: FieldShape): FieldShape => rest;

/**
 * Where the keyword goes, read at each piece of the lead (`lead` is the field up to the piece):
 * after the piece when it is a whole slot word at most one past the lead's words, before it when it starts a word
 * past a slot word or past the most lead words (the piece is cut). Undefined while the model
 * writes on, and once the field holds the keyword of the model's own accord.
 */
export function keywordSpot(lead: string, piece: string, shape: FieldShape, language: string): "after" | "before" | undefined {
  const keyword = shape.keyword!;
  if (hasPhrase(lead + piece, keyword, language)) return undefined;
  const spans = wordSpans(lead, language);
  const before = shape.before ?? 2;
  if ((!lead || piece.startsWith(" ")) && /^ ?\S+$/u.test(piece) && isSlotWord(piece.trim(), language) && spans.length <= before)
    return "after";
  if (!piece.startsWith(" ") || spans.length === 0) return undefined;
  return spans.length >= before || isSlotWord(spans.at(-1)?.word, language) ? "before" : undefined;
}

/**
 * Where the keyword goes in `lead` (the field's text before its spot): before the words that already
 * begin it ("Best compost" with "compost bin" goes on from "Best"), so no word of the keyword is
 * written twice; the lead's end otherwise.
 */
export function keywordStart(lead: string, keyword: string, language: string): number {
  const spans = wordSpans(lead, language);
  const wanted = keyword.toLocaleLowerCase(language).split(/\s+/u);
  for (let k = Math.min(wanted.length - 1, spans.length); k > 0; k--) {
    const tail = spans.slice(-k).map((s) => s.word.toLocaleLowerCase(language));
    if (tail.every((word, i) => word === wanted[i])) return spans.at(-k)!.index;
  }
  return lead.length;
}

/**
 * The one-word field the model writes between a lead that ended on no slot word (its most words
 * reached: "George was gone and") and the keyword: a slot word of the language, the model's choice
 * among them under a grammar ("… and with indoor plants"), none banned; undefined where the lead
 * ends on one, the field has no room for it, or the language has no slot words.
 */
export function slotBefore(lead: string, shape: FieldShape, refused: readonly string[], language: string): FieldShape | undefined {
  const spans = wordSpans(lead, language);
  const last = spans.at(-1)?.word;
  if (last === undefined || isSlotWord(last, language)) return undefined;
  if (spans.length + 1 + keywordWords(shape.keyword!) > shape.words[1]) return undefined;
  const banned = new Set(refused.map((word) => word.toLocaleLowerCase(language)));
  const oneOf = slotWords(language).filter((word) => !banned.has(word));
  return oneOf.length ? { words: [1, 1], continues: true, oneOf } : undefined;
}
