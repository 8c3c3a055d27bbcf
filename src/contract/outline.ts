import * as v from "valibot";
import { LIMITS } from "./limits.js";
import { described, jsonObject, optionalText, requiredText, stated, trimmed } from "./schema.js";

/** Kinds of an outline's H2: what the section holds (a body section unless told). */
export const OUTLINE_KINDS = ["body", "takeaways", "conclusion", "faq"] as const;

const budget = (what: string) =>
  v.pipe(
    v.number(`${what} must be a number`),
    v.integer(`${what} must be a whole number of words`),
    v.minValue(0, `${what} must be at least 0`),
    v.maxValue(LIMITS.lengthMax, `${what} must be at most ${LIMITS.lengthMax}`),
  );

/** The fields of one heading of an edited outline: the user's words, written verbatim, and the prose words under it. */
const HeadingFieldsSchema = jsonObject(
  {
    level: described(v.picklist([2, 3], "level must be 2 or 3"), "2 for an H2, 3 for an H3 under the H2 before it."),
    text: described(requiredText(LIMITS.title, "text"), "The heading, written verbatim."),
    words: described(budget("words"), "Prose words under this heading, up to the next heading (±25 %)."),
    kind: v.optional(
      described(
        v.picklist(OUTLINE_KINDS, `kind must be one of ${OUTLINE_KINDS.join(", ")}`),
        "What an H2's section holds: `takeaways` a list, `faq` questions as its H3s. Default `body`.",
      ),
    ),
    keyword: v.optional(
      described(trimmed(LIMITS.keyword, "keyword"), "The secondary keyword the section carries (one of `seo.keywords`)."),
    ),
    source: v.optional(
      described(trimmed(LIMITS.url, "source"), "The source or page the section draws on, as the outline answered it: informative only."),
    ),
  },
  "each heading must be an object",
);

/** One heading of an edited outline. Only an H2 has a kind (an H3 belongs to its H2's section), which the schema states too. */
const OutlineHeadingSchema = v.pipe(
  HeadingFieldsSchema,
  stated(
    v.check(
      (heading: v.InferOutput<typeof HeadingFieldsSchema>) => heading.level === 2 || heading.kind === undefined,
      "kind belongs to an H2: an H3 is part of its H2's section",
    ),
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then`, never awaited.
    { if: { properties: { level: { const: 3 } } }, then: { properties: { kind: false } } },
  ),
);

/** An outline as `POST /api/v1/outline` answers it, edited by the user and sent back. */
export const UserOutlineSchema = jsonObject(
  {
    title: v.pipe(optionalText(LIMITS.title, "title"), v.description("The title, used verbatim; empty means written by the model.")),
    description: v.pipe(
      optionalText(LIMITS.description, "description"),
      v.description("The meta description, used verbatim; empty means written."),
    ),
    introduction: described(budget("introduction"), "Prose words before the first heading."),
    headings: described(
      v.pipe(
        v.array(OutlineHeadingSchema, "headings must be an array"),
        v.minLength(1, "headings must hold at least one heading"),
        v.maxLength(LIMITS.outlineHeadings, `headings holds at most ${LIMITS.outlineHeadings} entries`),
      ),
      "The H2 and H3 headings in order, each with its word budget.",
    ),
  },
  "outline must be an object",
);

/** An edited outline as the engine takes it. */
export type UserOutline = v.InferOutput<typeof UserOutlineSchema>;
