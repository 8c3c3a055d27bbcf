import type { InputRow } from "./row.js";

/**
 * The rows of a JSON Lines file: one object per line, its members the request's fields
 * (flat, or with the API's nested `seo` and `style` objects). Blank lines are skipped.
 */
export function jsonlRows(text: string): InputRow[] {
  const rows: InputRow[] = [];
  for (const [index, source] of text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .entries()) {
    const line = index + 1;
    if (source.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      rows.push({ line, error: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    if (!isObject(value)) {
      rows.push({ line, error: "the line must be a JSON object" });
      continue;
    }
    const { seo, style, ...fields } = value;
    if (seo !== undefined && !isObject(seo)) rows.push({ line, error: "seo: seo must be an object" });
    else if (style !== undefined && !isObject(style)) rows.push({ line, error: "style: style must be an object" });
    else rows.push({ line, fields: { ...fields, ...seo, ...style } });
  }
  return rows;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
