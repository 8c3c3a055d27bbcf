import { createHash } from "node:crypto";
import * as v from "valibot";
import { REQUEST_FIELDS, requestFromFields, type RequestField } from "../article/fields.js";
import { GenerateRequestSchema, type GenerateRequest } from "../article/request.js";

/** A valid row, ready to write. */
export interface BatchRow {
  /** Where the row starts in the input (1-based). */
  line: number;
  /** The row's identity across runs: a hash of its normalised request. */
  key: string;
  request: GenerateRequest;
  /** The request as a server takes it: the same for every row with the same key. */
  body: Record<string, unknown>;
}

/** A row that cannot be written: `error` names the field and says why, in the API's words. */
export interface BadRow {
  line: number;
  error: string;
}

/** Why a field name is not one of the request's, or undefined when it is. */
export function unknownField(name: string): string | undefined {
  if ((REQUEST_FIELDS as readonly string[]).includes(name)) return undefined;
  return `${name}: unknown field (the fields are ${REQUEST_FIELDS.join(", ")})`;
}

/** Validate a row's flat fields with the API's schema. */
export function parseRow(line: number, fields: Record<string, unknown>): BatchRow | BadRow {
  const unknown = Object.keys(fields).map(unknownField).filter(Boolean);
  if (unknown.length) return { line, error: unknown.join("; ") };
  const result = v.safeParse(GenerateRequestSchema, requestFromFields(fields as Record<RequestField, unknown>));
  if (!result.success) {
    // One message per field, as the API's 422 lists them.
    const messages = new Map<string, string>();
    for (const issue of result.issues) {
      const path = v.getDotPath(issue) ?? "row";
      if (!messages.has(path)) messages.set(path, `${path}: ${issue.message}`);
    }
    return { line, error: [...messages.values()].join("; ") };
  }
  const { stream: _stream, ...request } = result.output;
  // A seed the row did not give is drawn anew on every run: it is no part of the row's identity.
  const seed = fields.seed === undefined ? undefined : request.seed;
  const { seo } = request;
  const body = {
    topic: request.topic,
    length: request.length,
    tone: request.tone,
    language: request.language,
    structure: request.structureRequested,
    ...(seed === undefined ? {} : { seed }),
    seo: { keywords: seo.keywords.join(", "), title: seo.title, description: seo.description, headingTags: seo.headingTags },
  };
  const key = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 32);
  return { line, key, request, body };
}
