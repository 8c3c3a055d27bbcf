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

/** Where an unknown field was given in a nested body, for a suggestion that may lie at another level. */
export interface FieldPlace {
  /** The path of the object that holds the unknown field (`seo`, `links[0]`); empty at the top. */
  at: string;
  /** The paths of the body's fields at every other level (`seo.keywords`, `links[i].url`). */
  elsewhere: readonly string[];
}

/** The shortest of `paths` whose last name is one of `names` (the first such, on a tie). */
function shortestNamed(paths: readonly string[], names: ReadonlySet<string>): string | undefined {
  const depth = (path: string) => path.split(/[.[]/).length;
  const named = paths.filter((path) => names.has(path.slice(path.lastIndexOf(".") + 1).toLowerCase()));
  return named.reduce<string | undefined>((best, path) => (best === undefined || depth(path) < depth(best) ? path : best), undefined);
}

/** The field a name given at the wrong level belongs to: one named exactly so first, else one a typo away. */
function misplaced(given: string, elsewhere: readonly string[]): { path: string; exact: boolean } | undefined {
  const exact = shortestNamed(elsewhere, new Set([given.toLowerCase()]));
  if (exact) return { path: exact, exact: true };
  const names = [...new Set(elsewhere.map((path) => path.slice(path.lastIndexOf(".") + 1)))];
  const meant = meantName(given, names);
  const near = meant === undefined ? undefined : shortestNamed(elsewhere, new Set([meant.toLowerCase()]));
  return near === undefined ? undefined : { path: near, exact: false };
}

/**
 * Why a field name is not one of `valid`, without the name: "unknown field (did you mean
 * length?)", or the valid names when none is close. Given its `place` in a nested body, the
 * suggestion is a whole path, and a field of another level counts too: a sibling one edit away
 * (`keyword` → `keywords`) first, then a field named exactly so at another level (`keywords` at
 * the top → `seo.keywords`), then a sibling a typo away, then another level's field a typo away. The API's 422 and a batch row's error say it in the same
 * words.
 */
export function unknownFieldReason(given: string, valid: readonly string[], place?: FieldPlace): string {
  const inside = (name: string) => (place?.at ? `${place.at}.${name}` : name);
  const sibling = meantName(given, valid);
  const moved = place ? misplaced(given, place.elsewhere) : undefined;
  const sameLevel = sibling !== undefined && (distance(given, sibling) <= 1 || !moved?.exact);
  const meant = sameLevel ? inside(sibling) : moved?.path;
  return `unknown field (${meant ? `did you mean ${meant}?` : `the fields are ${valid.join(", ")}`})`;
}
