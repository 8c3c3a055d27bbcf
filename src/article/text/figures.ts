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
  return [...figureMatches(text)].map((match) => match[0]);
}

/** The figure matches of a text, citation markers and versions left out. */
const figureMatches = (text: string) => cleanFigures(text).matchAll(FIGURE);
const cleanFigures = (text: string) => text.replace(CITATION, " ").replace(VERSION, " ");

/**
 * Units a measurement in instructions is given in: temperatures, durations up to months, sizes,
 * weights, volumes and kitchen measures, power and speed (en, de, fr, es words; symbols in any language).
 * Years are left out: "10 years" is as often a claim ("10 years of experience") as a duration.
 */
const UNITS = [
  "°\\s?[CFK]?|º\\s?[CF]?|degrees?|grad|degrés?|grados?",
  "s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|sekunden|minuten|stunden|tage[n]?|wochen|monate[n]?|secondes?|heures?|jours?|" +
    "semaines?|mois|segundos?|minutos?|horas?|días?|semanas?|meses",
  "mm|cm|m|km|inch(?:es)?|ft|feet|foot|yards?|yd|metres?|meters?|centimetres?|centimeters?|millimetres?|millimeters?|zoll|mètres?|metros?",
  "mg|g|kg|lbs?|pounds?|oz|ounces?|grams?|grammes?|gramm|gramos?|kilos?|tonnes?",
  "ml|cl|dl|l|litres?|liters?|liter|cups?|tbsp|tsp|tablespoons?|teaspoons?|pints?|quarts?|gallons?|tassen?|el|tl|cuillères?|tazas?|cucharadas?|cucharaditas?",
  "w|kw|kwh|v|hz|rpm|psi|bar|kpa|kcal|cal|mph|km/h",
].join("|");

/** What follows a figure that makes it a measurement: perhaps a range's other end, then a unit (no letter glued on after it). */
const MEASURE_AFTER = new RegExp(`^(?:\\s?[-–]\\s?\\d+(?:[.,]\\d+)?)?\\s?(?:${UNITS})(?![\\p{L}\\p{N}])`, "iu");
/** What makes the first number of a range a measurement: "20–25 minutes", "20 to 25 minutes". */
const RANGE_AFTER = new RegExp(`^\\s?(?:[-–]|to|bis|à|a)\\s?\\d+(?:[.,]\\d+)?\\s?(?:${UNITS})(?![\\p{L}\\p{N}])`, "iu");

/** What stands before an oven setting: "gas mark 6", "Gasstufe 3", "thermostat 7". */
const SETTING_BEFORE = /(?:gas mark|gasstufe|stufe|thermostat)\s?$/iu;

/**
 * The figures of a text that state something as a fact: every figure ({@link figuresIn}) but a
 * measurement, a number with a unit after it ("230 °C", "450°F", "20–25 minutes", "2 cm", "500 g"),
 * an oven setting ("gas mark 6") and a time of day ("10:30"). Shares, money and counts of people or things stay claims.
 */
export function claimsIn(text: string): string[] {
  const claims: string[] = [];
  const cleaned = cleanFigures(text);
  for (const match of cleaned.matchAll(FIGURE)) {
    const figure = match[0];
    const after = cleaned.slice(match.index + figure.length);
    const money = /^[$€£¥₹]/u.test(figure);
    const before = cleaned.slice(Math.max(0, match.index - 12), match.index);
    const unit = MEASURE_AFTER.test(after) || RANGE_AFTER.test(after) || SETTING_BEFORE.test(before);
    const measured = !money && !figure.includes("%") && (unit || /^\d{1,2}:\d{2}$/u.test(figure));
    if (!measured) claims.push(figure);
  }
  return claims;
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
