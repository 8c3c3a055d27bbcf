import { closest, distance } from "fastest-levenshtein";

/**
 * The valid name a mistyped one was meant to be (`--lenght` → `--length`, a CSV column
 * `lenght` → `length`): the nearest, when it is close enough to be a typo (up to a third of
 * the word, and at least two edits); undefined otherwise.
 */
export function meantName(given: string, valid: readonly string[]): string | undefined {
  if (valid.length === 0) return undefined;
  const nearest = closest(given, valid as string[]);
  return distance(given, nearest) <= Math.max(2, Math.floor(given.length / 3)) ? nearest : undefined;
}

/**
 * Why a field name is not one of `valid`, without the name: "unknown field (did you mean
 * length?)", or the valid names when none is close. The API's 422 and a batch row's error
 * say it in the same words.
 */
export function unknownFieldReason(given: string, valid: readonly string[]): string {
  const meant = meantName(given, valid);
  return `unknown field (${meant ? `did you mean ${meant}?` : `the fields are ${valid.join(", ")}`})`;
}
