/** Scripts whose spelling needs ZWJ and ZWNJ between their letters (Indic conjuncts, Persian and Arabic joining). */
const JOINING =
  "Arabic Syriac Nko Mongolian Devanagari Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Myanmar Khmer Tibetan"
    .split(" ")
    .map((script) => `\\p{sc=${script}}`)
    .join("");

/**
 * Invisible characters: every format character (Unicode category Cf), and the Hangul fillers
 * that show as nothing. A joiner is kept (the first group) between two letters of a script that
 * needs it, and ZWJ inside an emoji sequence.
 */
const INVISIBLE = new RegExp(
  `((?<=[${JOINING}])[\\u200c\\u200d](?=[${JOINING}])|(?<=\\p{Extended_Pictographic}[\\u{1f3fb}-\\u{1f3ff}\\ufe0f]?)\\u200d(?=\\p{Extended_Pictographic}))|` +
    `[\\p{Cf}\\u3164\\uffa0]`,
  "gu",
);

/**
 * Text as the engine takes it: well-formed Unicode in NFC, without control characters
 * (line breaks become spaces) or invisible format characters (bidirectional overrides,
 * zero-width marks, soft hyphens, tags), which would hide text from a reader or break
 * keyword matching.
 */
export function cleanText(text: string): string {
  return text
    .toWellFormed()
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f-\u009f]+/gu, " ")
    .replace(INVISIBLE, (_, joiner: string | undefined) => joiner ?? "");
}

/** Text whose lines matter (a source's Markdown): cleaned line by line like {@link cleanText}, the line breaks kept. */
export function cleanBlock(text: string): string {
  return text.replace(/\r\n?/g, "\n").split("\n").map(cleanText).join("\n");
}
