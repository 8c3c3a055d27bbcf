/**
 * British and American spellings: the pairs of the `american-british-english-translator`
 * package (MIT; about 1,700 pairs: colour/color, -ise/-ize, centre/center, -ogue/-og …), less
 * the spellings British English also uses in another sense ("practice" the noun, "license" the
 * verb, "program" in computing, "tire" to weary), which tell nothing.
 */
import { createRequire } from "node:module";

/** One of the two spelling variants. */
export type Variant = "en-GB" | "en-US";

/** Spellings both variants write (in one sense or another): neither side's evidence. */
const SHARED = new Set(
  (
    "practice practices license licenses licensed licensing tire tires tired tiring meter meters draft drafts drafted drafting " +
    "disk disks program programs programmed programming programmer programmers ton tons tonne tonnes install installs installed " +
    "installing dialog dialogs analog gram grams kilogram kilograms milligram milligrams centigram"
  ).split(" "),
);

const require = createRequire(import.meta.url);
/** British spelling → American spelling, as the package lists them. */
const PAIRS = Object.entries(require("american-british-english-translator/data/british_spellings.json") as Record<string, string>).filter(
  ([british, american]) => !SHARED.has(british) && !SHARED.has(american) && british !== american,
);

/** Each variant's spellings, mapped to the other variant's. */
const SPELLINGS: Record<Variant, ReadonlyMap<string, string>> = {
  "en-GB": new Map(PAIRS),
  "en-US": new Map(PAIRS.map(([british, american]) => [american, british])),
};

/** The other variant. */
export const otherVariant = (variant: Variant): Variant => (variant === "en-GB" ? "en-US" : "en-GB");

/** The variant a lower-case word is spelt in, if it is one of a pair. */
export function variantOf(word: string): Variant | undefined {
  if (SPELLINGS["en-GB"].has(word)) return "en-GB";
  if (SPELLINGS["en-US"].has(word)) return "en-US";
  return undefined;
}

/**
 * A variant's spellings that can be refused while the model samples without breaking a word of
 * the other variant: a banned word also refuses any word it begins ("program" would refuse
 * "programme"), so such words are left out.
 */
export function refusableSpellings(variant: Variant): string[] {
  const others = [...SPELLINGS[otherVariant(variant)].keys()];
  return [...SPELLINGS[variant].keys()].filter((word) => !others.some((other) => other !== word && other.startsWith(word)));
}
