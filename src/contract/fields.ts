import type { StandardSchemaV1 } from "@standard-schema/spec";

/**
 * The request's fields as one flat list, the way a command line or a spreadsheet row gives
 * them: the `seo` and `style` members sit beside the others.
 */
export const REQUEST_FIELDS = [
  "topic",
  "length",
  "tone",
  "language",
  "structure",
  "keywords",
  "title",
  "description",
  "headingTags",
  "seed",
  "avoid",
  "voice",
  "cliches",
  "sources",
  "links",
  "outline",
] as const;

/** One of {@link REQUEST_FIELDS}. */
export type RequestField = (typeof REQUEST_FIELDS)[number];

const GROUPS: Partial<Record<RequestField, "seo" | "style">> = {
  keywords: "seo",
  title: "seo",
  description: "seo",
  headingTags: "seo",
  avoid: "style",
  voice: "style",
  cliches: "style",
};

/** What separates phrases when a list of them is written as one text (a CSV cell, a flag): `;`, since a phrase may hold a comma. */
const LIST_SEPARATOR = ";";

/**
 * The request body the API takes, from flat fields that may be text: numbers and booleans
 * written as text become numbers and booleans, `avoid` written as text is split on `;`,
 * anything else stays as given so validation names it in the API's words. Absent
 * (undefined) fields stay absent; `style` is there only when one of its members is.
 */
export function requestFromFields(fields: Partial<Record<RequestField, unknown>>): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  const groups: Record<"seo" | "style", Record<string, unknown>> = { seo: {}, style: {} };
  for (const name of REQUEST_FIELDS) {
    const value = fields[name];
    if (value === undefined) continue;
    const group = GROUPS[name];
    (group ? groups[group] : top)[name] = typed(name, value);
  }
  return { ...top, seo: groups.seo, ...(Object.keys(groups.style).length ? { style: groups.style } : {}) };
}

function typed(name: RequestField, value: unknown): unknown {
  switch (name) {
    case "length":
    case "seed":
      return numberOrText(value);
    case "headingTags":
    case "cliches":
      return booleanOrText(value);
    case "avoid":
      return typeof value === "string" ? splitList(value) : value;
    default:
      return value;
  }
}

/** A list written as one text: split on `;`, each part trimmed, empty parts dropped. */
export function splitList(text: string): string[] {
  return text
    .split(LIST_SEPARATOR)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * A field's path as errors name it: `seo.keywords`, `links[2].url`; undefined for the
 * request as a whole. The HTTP 422, the CLI and batch rows all name fields this way.
 */
export function fieldPath(keys: readonly unknown[]): string | undefined {
  let path = "";
  for (const key of keys) path += typeof key === "number" ? `[${key}]` : `${path ? "." : ""}${String(key)}`;
  return path || undefined;
}

function numberOrText(value: unknown): unknown {
  return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
}

function booleanOrText(value: unknown): unknown {
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return text === "true" ? true : text === "false" ? false : value;
}

/** One invalid field of a request. */
export interface FieldError {
  /** Path of the field, such as `seo.keywords` or `links[2].url`; `body` for the request as a whole. */
  path: string;
  message: string;
}

/** The field errors of a failed validation, one per field, in the order found. */
export function fieldErrors(result: StandardSchemaV1.FailureResult): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of result.issues) {
    const path = fieldPath((issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))) ?? "body";
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, message: issue.message });
  }
  return errors;
}
