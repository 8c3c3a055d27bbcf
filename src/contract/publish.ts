import * as v from "valibot";
import { described, jsonObject } from "./schema.js";
import { MAX_NESTING, nestingProblem, withinNesting } from "./nesting.js";

/**
 * The `publish` field of generate, stream, jobs, refresh and `POST /api/v1/publish`, and what a
 * publication answers: one contract, validated, typed and turned into OpenAPI like the rest.
 */

// Bounds of the publish field.
const PUBLISH_LIMITS = { target: 64, terms: 20, term: 80, slug: 190 } as const;

const terms = (field: string) =>
  v.pipe(
    v.array(
      v.pipe(
        v.string(`each of ${field} must be a string`),
        v.trim(),
        v.minLength(1, `${field} must not hold an empty name`),
        v.maxLength(PUBLISH_LIMITS.term, `each of ${field} must be at most ${PUBLISH_LIMITS.term} characters`),
      ),
      `${field} must be an array of names`,
    ),
    v.maxLength(PUBLISH_LIMITS.terms, `at most ${PUBLISH_LIMITS.terms} ${field}`),
  );

// Statuses a request may ask for; each CMS names them its own way (Ghost: `published`, `scheduled`).
const PUBLISH_STATUSES = ["draft", "publish", "future"] as const;

/** Where and how an article is published: a target the operator configured, never a URL or credentials. */
export const PublishFieldSchema = v.pipe(
  jsonObject(
    {
      target: described(
        v.pipe(
          v.string("target must be a string"),
          v.minLength(1, "target must not be empty"),
          v.maxLength(PUBLISH_LIMITS.target, `target must be at most ${PUBLISH_LIMITS.target} characters`),
        ),
        "The name of a publishing target the operator configured, which the key may publish to.",
      ),
      status: v.optional(
        described(
          v.picklist(PUBLISH_STATUSES, `status must be one of ${PUBLISH_STATUSES.join(", ")}`),
          "`draft` (the target's default unless it says otherwise), `publish`, or `future` with `date`.",
        ),
      ),
      date: v.optional(
        described(
          v.pipe(
            v.string("date must be a string"),
            v.regex(
              /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
              "date must be an ISO 8601 date and time with its zone, such as 2030-01-01T09:00:00Z",
            ),
          ),
          "When a `future` post goes live (ISO 8601 with zone).",
        ),
      ),
      categories: v.optional(described(terms("categories"), "Category names; WordPress resolves them to term ids (Ghost has none).")),
      tags: v.optional(described(terms("tags"), "Tag names.")),
      slug: v.optional(
        described(
          v.pipe(
            v.string("slug must be a string"),
            v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slug must be lower-case words joined by hyphens"),
            v.maxLength(PUBLISH_LIMITS.slug),
          ),
          "The post's slug; the article's own by default.",
        ),
      ),
    },
    "publish must be an object",
  ),
  v.check(
    (given) => (given.status === "future") === (given.date !== undefined),
    "publish.date is required with status future, and only with it",
  ),
);

/** The publish field as validated. */
export type PublishField = v.InferOutput<typeof PublishFieldSchema>;

/** A post as published: the target, the CMS's id, its address and its status there. */
const PublishedSchema = v.object({
  target: v.string(),
  id: described(v.string(), "The post's id on the target (WordPress's number as a string, Ghost's id)."),
  url: described(v.string(), "The post's address (a draft's preview address until it is published)."),
  status: described(v.string(), "The post's status as the target names it (`draft`, `publish`, `future`, `published`, `scheduled`)."),
  created: described(v.boolean(), "false when an existing post (same recorded id or slug) was updated instead of a new one created."),
  notes: v.optional(
    described(
      v.array(v.string()),
      "What the post's page will not show, each a sentence: a WordPress site without an SEO plugin nor inkpress's must-use plugin shows no meta description " +
        "or JSON-LD.",
    ),
  ),
});

/** The answer of `POST /api/v1/publish`. */
export const PublicationSchema = v.object({ object: v.literal("publication"), ...PublishedSchema.entries });

/** A publication that failed after the article was written: the target and the problem, the article still answered. */
const PublishFailedSchema = v.object({
  target: v.string(),
  problem: described(
    v.object({ type: v.string(), title: v.string(), status: v.number(), detail: v.string() }),
    "What went wrong, as problem+json would say it.",
  ),
});

/** The `publish` member of an answer. */
export const PublishOutcomeSchema = v.union([PublishedSchema, PublishFailedSchema]);

/** A post as published. */
export type Published = v.InferOutput<typeof PublishedSchema>;

/** A publish outcome as answers carry it. */
export type PublishOutcome = v.InferOutput<typeof PublishOutcomeSchema>;

/** The answer of `GET /api/v1/publish`: the targets the key may publish to (the playground offers "Publish as draft" when there is one). */
export const PublishTargetsSchema = v.object({
  object: v.literal("publish-targets"),
  targets: described(v.array(v.string()), "The names of the configured targets this key was given, in the targets file's order."),
});

/** `POST /api/v1/publish`: an article the caller already has, as batch writes it, and where to publish it. */
export const PublishRequestSchema = jsonObject(
  {
    markdown: described(
      v.pipe(
        v.string("markdown must be a string"),
        v.minLength(1, "markdown must not be empty"),
        v.maxLength(1_000_000, "markdown must be at most 1000000 characters"),
        v.check(withinNesting("markdown"), (issue) => `markdown is ${nestingProblem("markdown", issue.input)}`),
      ),
      `The article as Markdown with YAML front matter (\`title\`, \`description\`, \`slug\`, \`keywords\`), as \`inkpress batch\` writes it; nested at most ` +
        `${MAX_NESTING} levels deep.`,
    ),
    publish: PublishFieldSchema,
  },
  "the request body must be a JSON object",
);

/** The example body of `POST /api/v1/publish` in the OpenAPI document. */
export const EXAMPLE_PUBLISH_REQUEST = {
  markdown:
    "---\ntitle: Home composting for beginners\ndescription: How to start a compost heap.\nslug: home-composting-for-beginners\nkeywords: [home " +
    "composting]\n---\n\nA compost heap turns kitchen scraps into soil.\n",
  publish: { target: "blog", status: "draft", categories: ["Gardening"], tags: ["compost"] },
};
