/** The structures an article can take; any requested structure maps to one of them. */
export const PRESETS = ["paragraphs", "sections", "detailed", "listicle", "how-to"] as const;

/** One of {@link PRESETS}. */
export type Preset = (typeof PRESETS)[number];

/** Words that point to a preset, checked in order; the first match wins. */
const RULES: ReadonlyArray<readonly [Preset, RegExp]> = [
  ["how-to", /\b(how-?to|steps?|step-by-step|tutorial|instructions?|recipe|walkthrough)\b/i],
  ["listicle", /\b(listicle|list|top ?\d*|\d+ (?:ways|tips|ideas|reasons|things)|tips|ideas|ranking)\b/i],
  ["paragraphs", /\b(paragraphs?|prose|essay|story|narrative|blog ?post|plain|short|simple)\b/i],
  ["detailed", /\b(detailed|faq|q ?& ?a|questions?|guide|ultimate|complete|comprehensive|in-?depth|pillar|whitepaper|long-?form)\b/i],
  ["sections", /\b(sections?|outline|comparison|review|news|report|article)\b/i],
];

/**
 * Map a free-text structure to the nearest preset by simple word rules.
 * Unknown words fall back to "sections", the most common article shape.
 */
export function resolvePreset(structure: string): Preset {
  for (const [preset, pattern] of RULES) if (pattern.test(structure)) return preset;
  return "sections";
}
