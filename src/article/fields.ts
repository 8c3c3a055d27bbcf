/**
 * The request's fields as one flat list, the way a command line or a spreadsheet row gives
 * them: the `seo` members sit beside the others.
 */
export const REQUEST_FIELDS = ["topic", "length", "tone", "language", "structure", "keywords", "title", "description", "headingTags", "seed"] as const;

export type RequestField = (typeof REQUEST_FIELDS)[number];

const SEO_FIELDS = new Set<string>(["keywords", "title", "description", "headingTags"]);

/**
 * The request body the API takes, from flat fields that may be text: numbers and booleans
 * written as text become numbers and booleans, anything else stays as given so validation
 * names it in the API's words. Absent (undefined) fields stay absent.
 */
export function requestFromFields(fields: Partial<Record<RequestField, unknown>>): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  const seo: Record<string, unknown> = {};
  for (const name of REQUEST_FIELDS) {
    const value = fields[name];
    if (value === undefined) continue;
    const typed = name === "length" || name === "seed" ? numberOrText(value) : name === "headingTags" ? booleanOrText(value) : value;
    (SEO_FIELDS.has(name) ? seo : top)[name] = typed;
  }
  return { ...top, seo };
}

function numberOrText(value: unknown): unknown {
  return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
}

function booleanOrText(value: unknown): unknown {
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return text === "true" ? true : text === "false" ? false : value;
}
