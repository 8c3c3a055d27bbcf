import type { StandardSchemaV1 } from "@standard-schema/spec";
import * as v from "valibot";
import { unknownFieldReason } from "../did-you-mean.js";
import { cleanText } from "./clean.js";
import { fieldPath } from "./fields.js";

/** A string cleaned as the engine takes text ({@link cleanText}), then trimmed. */
export const text = (message: string) => v.pipe(v.string(message), v.transform(cleanText), v.trim());

/** JSON Schema keywords that say what a custom check of the wire contract checks ({@link stated}). */
export const STATED_CHECKS = new WeakMap<object, Readonly<Record<string, unknown>>>();

/**
 * A custom check (`v.check`) that JSON Schema can state too: the OpenAPI document carries
 * `keywords` (a `pattern`, an `if`/`then`) in its place, instead of the check's message in
 * prose. The keywords must never accept what the check refuses (they may refuse a little more).
 */
export function stated<const A extends object>(check: A, keywords: Readonly<Record<string, unknown>>): A {
  STATED_CHECKS.set(check, keywords);
  return check;
}

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

/** The field names of every object a schema holds, by the object's path (an array's item as `[i]`; the top as ""). */
type FieldMap = Map<string, string[]>;

/** Collect the objects of `schema` into `map`, the object at `at` and every one it holds. */
function collectFields(schema: unknown, at: string, map: FieldMap): void {
  if (typeof schema !== "object" || schema === null) return;
  const node = schema as {
    type?: string;
    pipe?: unknown[];
    entries?: Record<string, unknown>;
    item?: unknown;
    wrapped?: unknown;
    options?: unknown[];
  };
  // A pipe carries its first schema's own properties: its items say it all.
  if (node.pipe) {
    for (const item of node.pipe) if (item !== schema) collectFields(item, at, map);
    return;
  }
  if (node.entries && node.type?.endsWith("object")) {
    map.set(at, [...new Set([...(map.get(at) ?? []), ...Object.keys(node.entries)])]);
    for (const [key, entry] of Object.entries(node.entries)) collectFields(entry, at ? `${at}.${key}` : key, map);
  }
  if (node.type === "array") collectFields(node.item, `${at}[i]`, map);
  if (node.wrapped) collectFields(node.wrapped, at, map);
  for (const option of node.options ?? []) collectFields(option, at, map);
}

/** An issue's keys: `["links", 0, "url"]`. */
const issueKeys = (issue: v.BaseIssue<unknown>) => (issue.path ?? []).map((item) => item.key as string | number);

/**
 * Each unknown field below an object, named with what it was likely meant to be among all the
 * object's fields, at every level (`keywords` at the top → `seo.keywords`). Each object rewords
 * the issues of the objects it holds; the outermost, the request itself, has the last word.
 */
function suggestFields(issues: readonly v.BaseIssue<unknown>[], map: FieldMap): void {
  for (const issue of issues) {
    if (issue.type !== "strict_object" || issue.expected !== "never") continue;
    const keys = issueKeys(issue);
    const parent = keys.slice(0, -1);
    const shape = parent.map((key, i) => (typeof key === "number" ? "[i]" : i ? `.${key}` : key)).join("");
    const elsewhere = [...map].flatMap(([object, names]) =>
      object === shape ? [] : names.map((name) => (object ? `${object}.${name}` : name)),
    );
    (issue as { message: string }).message = unknownFieldReason(String(keys.at(-1)), map.get(shape) ?? [], {
      at: fieldPath(parent) ?? "",
      elsewhere,
    });
  }
}

/**
 * valibot's strict object, but naming every unknown key (valibot's own stops at the first), and
 * each with the field it was likely meant to be ({@link suggestFields}).
 */
function everyUnknownKey<const TEntries extends v.ObjectEntries>(
  strict: v.StrictObjectSchema<TEntries, v.ErrorMessage<v.StrictObjectIssue>>,
) {
  let map: FieldMap | undefined;
  const run: (typeof strict)["~run"] = (dataset, config) => {
    const input = dataset.value as Record<string, unknown> | null;
    const result = strict["~run"](dataset, config);
    if (typeof input === "object" && input !== null && !(result.issues && config.abortEarly)) {
      const unknown = Object.keys(input).filter((key) => !Object.hasOwn(strict.entries, key));
      for (const key of unknown.slice(1)) {
        const path = [{ type: "object", origin: "key", input, key, value: input[key] }] as const;
        // valibot's own issue for the first unknown key, made for each of the others.
        v._addIssue(strict as Parameters<typeof v._addIssue>[0], "key", result, config, {
          input: key,
          expected: "never",
          path: [...path] as [v.ObjectPathItem],
        });
      }
    }
    if (result.issues) suggestFields(result.issues, (map ??= collected(strict)));
    return result;
  };
  return v._standardSchema({ ...strict, "~run": run }) as typeof strict;
}

/** The field map of the schemas that take one body together. */
function collected(...schemas: unknown[]): FieldMap {
  const map: FieldMap = new Map();
  for (const schema of schemas) collectFields(schema, "", map);
  return map;
}

/**
 * Name the unknown fields of `issues` as {@link jsonObject} does, for a body that several schemas
 * take together (a job's extras beside its request): the suggestions come from all of them.
 */
export function nameUnknownFields(issues: readonly StandardSchemaV1.Issue[], ...schemas: unknown[]): void {
  suggestFields(issues as readonly v.BaseIssue<unknown>[], collected(...schemas));
}

/**
 * A JSON object whose fields are exactly `entries`: every unknown one (a typo such as `lenght`)
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
  return v.pipe(
    v.custom<v.InferInput<v.StrictObjectSchema<TEntries, undefined>>>(isObject, message),
    everyUnknownKey(v.strictObject(entries, keyIssue)),
  );
}

/** Cleaned, trimmed text that must not be empty. */
export const requiredText = (max: number, what: string) => v.pipe(trimmed(max, what), v.minLength(1, `${what} must not be empty`));
