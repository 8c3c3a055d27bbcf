/**
 * Words a steered keyword may come right after: an article, a preposition, a possessive
 * ("went to the compost bin", "A guide to the compost bin"). The body steers an owed keyword
 * into a sentence after one; the outline steers the keyword into a title or heading the same way.
 */
const SLOT_WORDS: Record<string, ReadonlySet<string>> = {
  en: new Set(
    "the a an his her their my your our its this that some every each of in on at to for with from about into near by under over and or like without through".split(
      " ",
    ),
  ),
  de: new Set("der die das den dem des ein eine einen einem einer mit für von zu zum zur im in auf und über".split(" ")),
  fr: new Set("le la les un une des du de au aux avec pour dans et sur".split(" ")),
  es: new Set("el la los las un una de del con para en y sobre".split(" ")),
  it: new Set("il lo la i gli le un una di del della con per in e su".split(" ")),
  pt: new Set("o a os as um uma de do da com para em e sobre".split(" ")),
  nl: new Set("de het een van met voor in op en over".split(" ")),
};

/** Whether a steered keyword may follow `word` in `language` (no word of a language without a list). */
export const isSlotWord = (word: string | undefined, language: string): boolean =>
  word !== undefined && (SLOT_WORDS[language]?.has(word.toLocaleLowerCase(language)) ?? false);
