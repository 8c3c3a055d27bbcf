/**
 * The outline answer's shape (`POST /api/v1/outline`): the plan the engine would write from,
 * whose `outline` is sent back, edited, as generate's `outline` field.
 */
import * as v from "valibot";
import { NormalisedRequestSchema } from "./response.js";
import { OUTLINE_KINDS } from "./request.js";

const count = (text: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(text));

/** One heading as the outline answers it. */
const DraftHeadingSchema = v.object({
  level: v.picklist([2, 3]),
  text: v.string(),
  words: count("Prose words planned under the heading, up to the next one."),
  kind: v.optional(v.pipe(v.picklist(OUTLINE_KINDS), v.description("What an H2's section holds."))),
  keyword: v.optional(v.pipe(v.string(), v.description("The keyword the section carries."))),
  source: v.optional(v.pipe(v.string(), v.description("The given source (its title) or page (its URL) the section draws on."))),
});

/** The JSON answer of `POST /api/v1/outline`. */
export const OutlineResponseSchema = v.object({
  object: v.literal("outline"),
  created: count("Unix time in seconds."),
  model: v.pipe(v.string(), v.description("Name of the model that planned it.")),
  request: NormalisedRequestSchema,
  outline: v.pipe(
    v.object({
      title: v.string(),
      description: v.string(),
      introduction: count("Prose words before the first heading."),
      headings: v.array(DraftHeadingSchema),
    }),
    v.description("The plan, as generate's `outline` field takes it back: edit headings, order and budgets, choose a title."),
  ),
  alternatives: v.pipe(
    v.object({ titles: v.array(v.string()), descriptions: v.array(v.string()) }),
    v.description("Two more titles and descriptions the model wrote, to choose from."),
  ),
  usage: v.object({
    promptTokens: count("Tokens the model evaluated."),
    completionTokens: count("Tokens the model generated."),
    chargedWords: count("Words counted against the key's daily words: a quarter of `request.length`."),
    durationMs: count("Time the planning took."),
  }),
});

/** The outline answer, as {@link OutlineResponseSchema} validates it. */
export type OutlineResponse = v.InferOutput<typeof OutlineResponseSchema>;
/** One heading of the outline answer. */
export type DraftHeading = OutlineResponse["outline"]["headings"][number];
