/**
 * valibot schemas into the JSON Schema (2020-12) of the OpenAPI document, by
 * `@valibot/to-json-schema`. A field's prose is its valibot `description`; what JSON Schema
 * cannot express (a custom check, a rule on the value after a type-changing transform) is
 * added to that description in valibot's own message, so no rule drops out silently.
 */
import { toJsonSchema, type JsonSchema, type OverrideActionContext } from "@valibot/to-json-schema";
import { cleanBlock, cleanText } from "../../contract/request.js";
import { STATED_CHECKS } from "../../contract/schema.js";
import { ArticleResponseSchema, NormalisedRequestSchema } from "../../contract/response.js";
import { JobSchema } from "../../contract/job.js";

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/** A valibot schema the converter takes. */
export type Valibot = Parameters<typeof toJsonSchema>[0];

/** A reference to a schema of `components.schemas`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The string clean-ups of the request schema: transforms that keep a string a string. */
const CLEAN_UPS: ReadonlySet<unknown> = new Set([cleanText, cleanBlock]);

/** What the conversion learns while it walks one pipe; kept on the schema under a symbol, dropped at the end. */
interface PipeState {
  /** How the server normalises a string before it checks its bounds, in order. */
  normalised: ("cleaned" | "trimmed" | "lower-cased")[];
  /** Set once a transformation changed the type: the input shape up to there. Later actions check the output. */
  inputShape?: JsonSchema;
  /** Rules the server checks that this schema does not express (valibot's own messages). */
  unexpressed: string[];
}

const STATE = Symbol("conversion state");
type Stateful = JsonSchema & { [STATE]?: PipeState };
type Action = OverrideActionContext["valibotAction"];

const stateOf = (schema: Stateful): PipeState => schema[STATE] ?? { normalised: [], unexpressed: [] };
const withState = (schema: JsonSchema, state: PipeState): Stateful => ({ ...schema, [STATE]: state });
const normalised = (schema: JsonSchema, state: PipeState, step: PipeState["normalised"][number]) =>
  withState(schema, { ...state, normalised: [...state.normalised, step] });

/** The message a valibot action answers with, as the server would word it. */
function messageOf(action: Action): string {
  const { message, requirement } = action as { message?: unknown; requirement?: unknown };
  if (typeof message === "string") return message;
  return `${action.type.replaceAll("_", " ")}${requirement === undefined ? "" : ` ${String(requirement)}`}`;
}

/** After a type-changing transform: validations become prose, metadata still describes the field. */
function afterTransform(action: Action, jsonSchema: JsonSchema, state: PipeState & { inputShape: JsonSchema }): Stateful {
  if (action.kind === "metadata") return withState(jsonSchema, { ...state, inputShape: { ...jsonSchema } });
  if (action.kind === "validation") state.unexpressed.push(messageOf(action));
  return withState(state.inputShape, state);
}

/** A `min_length` on a trimmed string also gets a `pattern`: a blank string is refused as the server refuses it. */
function notBlank(action: Action, jsonSchema: JsonSchema, state: PipeState): Stateful | undefined {
  const min = (action as { requirement?: unknown }).requirement;
  if (jsonSchema.type !== "string" || !state.normalised.includes("trimmed") || typeof min !== "number" || min < 1) return undefined;
  if (jsonSchema.pattern) throw new Error("A trimmed string with a pattern cannot also get a non-blank pattern.");
  // At least `min` characters between the first and the last non-blank one.
  return withState({ ...jsonSchema, pattern: min === 1 ? "\\S" : `\\S[\\s\\S]{${min - 2},}\\S` }, state);
}

/**
 * How the valibot actions the converter does not know become JSON Schema, keeping the
 * result an INPUT shape although the converter runs with `typeMode: "output"` (which starts
 * a pipe at its last schema, skipping the JSON-object guard in front of each `object`):
 *
 * - `trim`, `to_lower_case` and the known clean-ups ({@link CLEAN_UPS}) keep the type; they
 *   are noted, and a `min_length` after trimming gets a non-blank `pattern`;
 * - any other transform (keywords split into a list; the request's normalisation) ends the
 *   input shape: later rules check the output, so they go into the description;
 * - a `check` (a custom predicate) goes into the description, unless the wire contract states it
 *   in JSON Schema keywords (`stated`: the ISO 639-1 list as a pattern), which take its place.
 *
 * Anything else the converter cannot convert throws (`errorMode: "throw"`).
 */
function overrideAction({ valibotAction: action, jsonSchema }: OverrideActionContext): JsonSchema | undefined {
  const state = stateOf(jsonSchema);
  if (state.inputShape) return afterTransform(action, jsonSchema, { ...state, inputShape: state.inputShape });
  switch (action.type) {
    case "trim":
      return normalised(jsonSchema, state, "trimmed");
    case "to_lower_case":
      return normalised(jsonSchema, state, "lower-cased");
    case "transform": {
      const operation = (action as { operation?: unknown }).operation;
      if (jsonSchema.type === "string" && CLEAN_UPS.has(operation)) return normalised(jsonSchema, state, "cleaned");
      return withState(jsonSchema, { ...state, inputShape: { ...jsonSchema } });
    }
    case "check": {
      const keywords = STATED_CHECKS.get(action);
      if (keywords) return withState({ ...jsonSchema, ...keywords }, state);
      return withState(jsonSchema, { ...state, unexpressed: [...state.unexpressed, messageOf(action)] });
    }
    case "min_length":
      return notBlank(action, jsonSchema, state);
    default:
      return undefined;
  }
}

const STEPS: Record<PipeState["normalised"][number], string> = {
  cleaned: "cleans it up",
  trimmed: "trims it",
  "lower-cased": "lower-cases it",
};

/** The sentence saying how the server normalises a string before it checks it. */
function normalisation(state: PipeState): string | undefined {
  const steps = [...new Set(state.normalised)].map((step) => STEPS[step]);
  if (!steps.length) return undefined;
  const list = steps.length > 1 ? `${steps.slice(0, -1).join(", ")} and ${steps.at(-1)}` : steps[0];
  return `Checked after the server ${list}.`;
}

/** Every node's conversion state turned into its description, then the symbols dropped (a JSON round trip). */
function finish(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(finish);
  if (typeof node !== "object" || node === null) return node;
  const state = (node as Stateful)[STATE];
  const out: Json = Object.fromEntries(Object.entries(node).map(([key, child]) => [key, finish(child)]));
  if (state) {
    const unexpressed = state.unexpressed.length
      ? `Also checked by the server (not expressible in JSON Schema): ${state.unexpressed.join("; ")}.`
      : undefined;
    const description = [out.description, normalisation(state), unexpressed].filter(Boolean).join(" ");
    if (description) out.description = description;
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  return out;
}

/** The JSON Schema of a request body: what a client may send, converted from the valibot schema that validates it. */
export function requestSchema(valibot: Valibot): Json {
  const converted = toJsonSchema(valibot, { target: "draft-2020-12", typeMode: "output", errorMode: "throw", overrideAction });
  const { $schema: _dialect, ...schema } = finish(converted) as Json;
  return schema;
}

/** Schemas other schemas hold, kept once in `components.schemas` and referenced. */
const SHARED: Record<string, Valibot> = {
  NormalisedRequest: NormalisedRequestSchema,
  ArticleResponse: ArticleResponseSchema,
  Job: JobSchema,
};

/** The JSON Schema of an answer, converted from valibot; the shared schemas it holds are referenced, not repeated. */
export function answerSchema(schema: Valibot): Json {
  const shared = Object.fromEntries(Object.entries(SHARED).filter(([, held]) => held !== schema));
  const {
    $schema: _dialect,
    $defs: _shared,
    ...converted
  } = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "output",
    errorMode: "throw",
    definitions: shared,
  }) as Json;
  // The converter points at its own $defs; the document keeps the shared schemas in components.
  let text = JSON.stringify(converted);
  for (const name of Object.keys(shared)) text = text.replaceAll(`"#/$defs/${name}"`, `"#/components/schemas/${name}"`);
  return JSON.parse(text);
}
