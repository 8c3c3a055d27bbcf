/**
 * Reading the OpenAPI document's schemas for the pages: the request fields (for the
 * reference table and the playground form) and the rules of each field in words.
 */

import { escapeHtml } from "./html.js";

/** A JSON Schema node, as far as the pages read it. */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  $ref?: string;
  [key: string]: unknown;
}

/** One field of a schema, nested objects flattened to dotted paths. */
export interface Field {
  /** Dotted path, such as `seo.keywords`. */
  path: string;
  schema: SchemaNode;
  required: boolean;
  /** 0 for top-level fields, 1 inside an object, … */
  depth: number;
}

/**
 * A field's dotted path as the tail of an HTML id: `seo.keywords` → `seo-keywords`,
 * `links[].url` → `links-url` (ids hold letters, digits, `-` and `_` only).
 */
export function pathId(path: string): string {
  return path.replace(/\[\]/g, "").replace(/[^A-Za-z0-9_-]+/g, "-");
}

/** The JSON schema of a request body of `components.requestBodies` by name. */
export function requestBodySchema(doc: Record<string, unknown>, name: string): SchemaNode {
  const bodies =
    (doc.components as { requestBodies?: Record<string, { content?: Record<string, { schema?: SchemaNode }> }> } | undefined)
      ?.requestBodies ?? {};
  const schema = bodies[name]?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`The OpenAPI document has no request body ${name}.`);
  return schema;
}

/** A schema of `components.schemas` by name. */
export function componentSchema(doc: Record<string, unknown>, name: string): SchemaNode {
  const schemas = (doc.components as { schemas?: Record<string, SchemaNode> } | undefined)?.schemas ?? {};
  const schema = schemas[name];
  if (!schema) throw new Error(`The OpenAPI document has no schema ${name}.`);
  return schema;
}

/**
 * Every field of an object schema, parents before their children, in document order; the
 * fields of a list's objects under `list[].field`.
 */
export function fieldsOf(schema: SchemaNode, prefix = "", depth = 0): Field[] {
  const fields: Field[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    fields.push({ path, schema: child, required: required.has(name), depth });
    const object = child.properties ? child : variantsMerged(child);
    if (object) fields.push(...fieldsOf(object, path, depth + 1));
    else if (child.items?.properties) fields.push(...fieldsOf(child.items, `${path}[]`, depth + 1));
  }
  return fields;
}

/** The values a field may take, from its `const` or `enum`. */
const valuesOf = (schema: SchemaNode): unknown[] => (schema.const !== undefined ? [schema.const] : (schema.enum ?? []));

/**
 * The object variants of a schema (`oneOf` of objects, such as the health answer's
 * backend) as one object: every field of any variant, a field in several with the values
 * of each, required where every variant requires it.
 */
function variantsMerged(schema: SchemaNode): SchemaNode | undefined {
  const variants = (schema.oneOf ?? schema.anyOf) as SchemaNode[] | undefined;
  if (!variants?.length || !variants.every((variant) => variant.properties)) return undefined;
  const properties: Record<string, SchemaNode> = {};
  for (const variant of variants) {
    for (const [name, field] of Object.entries(variant.properties!)) {
      const seen = properties[name];
      const values = seen ? [...valuesOf(seen), ...valuesOf(field)] : [];
      properties[name] =
        seen && values.length ? { type: "string", ...seen, const: undefined, enum: [...new Set(values)] } : (seen ?? field);
    }
  }
  const required = Object.keys(properties).filter((name) => variants.every((variant) => variant.required?.includes(name)));
  return { type: "object", properties, required };
}

/** One field by its dotted path. */
export function fieldAt(schema: SchemaNode, path: string): SchemaNode {
  let node: SchemaNode | undefined = schema;
  for (const key of path.split(".")) node = node?.properties?.[key];
  if (!node) throw new Error(`The schema has no field ${path}.`);
  return node;
}

/** The type of a schema in words. */
export function typeText(schema: SchemaNode): string {
  if (schema.$ref) return schema.$ref.split("/").at(-1)!;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array") && schema.items) return `array of ${typeText(schema.items)}`;
  if (schema.const !== undefined && !types.length) return typeof schema.const;
  // A variant (oneOf / anyOf): the kinds it may be, each once.
  const options = (schema.oneOf ?? schema.anyOf) as SchemaNode[] | undefined;
  if (options && !types.length) return [...new Set(options.map(typeText))].join(" or ");
  return types.join(" or ") || "any";
}

/** The rules a schema states, in words (what the keywords say; the description says the rest). */
export function rulesText(schema: SchemaNode): string[] {
  const rules: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) return `${min}–${max}${unit}`;
    if (min !== undefined) return `at least ${min}${unit}`;
    if (max !== undefined) return `at most ${max}${unit}`;
    return undefined;
  };
  const chars = range(schema.minLength, schema.maxLength, " characters");
  if (chars) rules.push(chars);
  if (schema.pattern === "\\S") rules.push("not blank");
  else if (schema.pattern) rules.push(`matches \`${schema.pattern}\``);
  const values = range(schema.minimum, schema.maximum, "");
  if (values) rules.push(values);
  if (schema.enum) rules.push(`one of ${schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}`);
  if (schema.const !== undefined) rules.push(`always \`${JSON.stringify(schema.const)}\``);
  return rules;
}

/** The default of a schema as JSON, or undefined. */
export function defaultText(schema: SchemaNode): string | undefined {
  if (schema.default === undefined) return undefined;
  return JSON.stringify(schema.default);
}

/** The attributes of a form control from its field's schema: its length, range and step. */
export function inputLimits(schema: SchemaNode): string {
  const attrs: string[] = [];
  if (schema.maxLength !== undefined) attrs.push(`maxlength="${schema.maxLength}"`);
  if (schema.minimum !== undefined) attrs.push(`min="${schema.minimum}"`);
  if (schema.maximum !== undefined) attrs.push(`max="${schema.maximum}"`);
  if (schema.type === "integer") attrs.push('step="1"');
  return attrs.join(" ");
}

/** A control's placeholder, escaped: the field's default when it has one, else `fallback`. */
export function schemaPlaceholder(schema: SchemaNode, fallback = ""): string {
  return escapeHtml(schema.default !== undefined && schema.default !== "" ? String(schema.default) : fallback);
}
