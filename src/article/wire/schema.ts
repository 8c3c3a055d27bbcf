import * as v from "valibot";
import { unknownFieldReason } from "../../did-you-mean.js";
import { cleanText } from "../text/clean.js";

/** A string cleaned as the engine takes text ({@link cleanText}), then trimmed. */
export const text = (message: string) => v.pipe(v.string(message), v.transform(cleanText), v.trim());

/** A schema with its OpenAPI description. */
export const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/** Cleaned, trimmed text of at most `max` characters. */
export const trimmed = (max: number, what: string) =>
  v.pipe(text(`${what} must be a string`), v.maxLength(max, `${what} must be at most ${max} characters`));

/** Optional cleaned text; an empty string counts as absent. */
export const optionalText = (max: number, what: string) =>
  v.optional(
    v.pipe(
      trimmed(max, what),
      v.transform((s) => s || undefined),
    ),
  );

/** Phrases trimmed, inner spaces collapsed, empties and case-insensitive duplicates dropped, in order. */
export function uniquePhrases(phrases: string[]): string[] {
  const seen = new Set<string>();
  return phrases
    .map((p) => p.trim().replace(/\s+/g, " "))
    .filter((p) => {
      const key = p.toLocaleLowerCase();
      if (!p || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * A JSON object whose fields are exactly `entries`: an unknown one (a typo such as `lenght`)
 * is refused by name, with the field it was likely meant to be, as the CLI refuses a flag;
 * the strict object is also what gives the OpenAPI schema `additionalProperties: false`.
 * valibot's object alone would also take an array (whose `length` then looks like a field),
 * hence the guard, typed as the object's input so `InferInput` of a request schema is the
 * shape clients send, not any record.
 */
export function jsonObject<const TEntries extends v.ObjectEntries>(entries: TEntries, message: string) {
  const isObject = (input: unknown) => typeof input === "object" && input !== null && !Array.isArray(input);
  // The guard says "not an object"; what the object itself reports is a missing or an unknown key.
  const keyIssue = (issue: v.StrictObjectIssue) => {
    const key = String(issue.path?.at(-1)?.key ?? "a field");
    return issue.expected === "never" ? unknownFieldReason(key, Object.keys(entries)) : `${key} is required`;
  };
  return v.pipe(v.custom<v.InferInput<v.StrictObjectSchema<TEntries, undefined>>>(isObject, message), v.strictObject(entries, keyIssue));
}

/** Cleaned, trimmed text that must not be empty. */
export const requiredText = (max: number, what: string) => v.pipe(trimmed(max, what), v.minLength(1, `${what} must not be empty`));
