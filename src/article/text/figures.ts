/**
 * Figures written in digits (a number, percentage, year or amount): the report lists those
 * no one supplied, and a citation may rest on one that a source's excerpt gives.
 */

/**
 * A figure: digits with inner separators ("1,000", "2.5", "10:30"), not glued to a word
 * before it ("mp3", "COVID-19"), with a currency sign or a percent sign kept for the message.
 */
const FIGURE = /(?<![\p{L}\p{N}]|\p{L}[-‑])[$€£¥₹]?\d+(?:[.,:]\d+)*(?:\s?%)?/gu;

/**
 * A version, not a figure: three or more dotted numbers ("1.2.7", "v2.0.0-beta.1"), or numbers
 * with a wildcard part ("1.x", "1.2.*"), with the range operators written before it ("^1.2.3", ">=1.2.7").
 * A German thousand ("1.000.000") groups digits in threes and stays a figure.
 */
export const VERSION =
  /(?<![\p{L}\p{N}.])(?:[~^]|[<>]=?|=)?v?(?!\d{1,3}(?:\.\d{3})+(?![.\d]))\d+(?:\.\d+){2,}(?:-[\w.]+)?(?:\+[\w.]+)?|(?<![\p{L}\p{N}.])(?:[~^]|[<>]=?|=)?v?\d+(?:\.\d+)*\.[xX*](?:\.[xX*\d]+)*/gu;

/** Citation markers: "[1]", "[2, 3]", "[1–3]". */
const CITATION = /\[\d+(?:\s*[,–-]\s*\d+)*\]/gu;

/** The figures of a text as written, structure removed. */
export function figuresIn(text: string): string[] {
  return [...text.replace(CITATION, " ").replace(VERSION, " ").matchAll(FIGURE)].map((match) => match[0]);
}

/**
 * A figure as a number, so "1,000", "1.000" and "1000" agree and "2,5" is "2.5": a
 * separator followed by exactly three digits groups thousands, any other is a decimal
 * point (a colon stays, as in a time). Signs and trailing decimal zeros are dropped.
 */
export function figureKey(figure: string): string {
  const parts = figure.match(/\d+|[.,:]/gu) ?? [];
  let key = "";
  parts.forEach((part, i) => {
    if (part === ":") key += ":";
    else if (part === "." || part === ",") key += parts[i + 1]?.length === 3 && parts[i + 2] !== ":" ? "" : ".";
    else key += part;
  });
  return key.includes(".") ? key.replace(/\.?0+$/u, "") : key;
}
