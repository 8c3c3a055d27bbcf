/** The structures the template builds; any requested structure maps to one of them. */
export type Preset = "paragraphs" | "sections" | "detailed";

/** Words that point to a preset, checked in order; the first match wins. */
const RULES: ReadonlyArray<readonly [Preset, RegExp]> = [
  ["paragraphs", /\b(paragraphs?|prose|essay|story|narrative|blog ?post|plain|short|simple)\b/i],
  ["detailed", /\b(detailed|faq|q ?& ?a|questions?|guide|ultimate|complete|comprehensive|in-?depth|pillar|tutorial|how-?to|whitepaper|long-?form)\b/i],
  ["sections", /\b(sections?|listicle|list|top ?\d*|outline|steps?|comparison|review|news|report|article)\b/i],
];

/**
 * Map a free-text structure to the nearest preset by simple word rules.
 * Unknown words fall back to "sections", the most common article shape.
 */
export function resolvePreset(structure: string): Preset {
  for (const [preset, pattern] of RULES) if (pattern.test(structure)) return preset;
  return "sections";
}
