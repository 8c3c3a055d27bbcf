/**
 * `POST /api/v1/refresh`: an article given as it is, mended where its checks fail. The
 * request holds the article and the targets analyse measures it against (the same schema
 * fields); the answer holds the new article in every format, the report before and after,
 * each change with the check that asked for it, and a unified diff.
 */
import * as v from "valibot";
import { PublishFieldSchema } from "./publish.js";
import { CHECK_IDS, type CheckId } from "./checks.js";
import { MARKDOWN_DESCRIPTION, TARGET_FIELDS } from "./analyse.js";
import { nestingProblem, withinNesting } from "./nesting.js";
import { DEFAULTS, jsonObject, randomSeed, SeedSchema } from "./request.js";
import { ArticleResponseSchema, SeoReportSchema } from "./response.js";
import { resolvePreset } from "./presets.js";
import { described } from "./schema.js";

/**
 * What the author wrote that a refresh may rewrite when asked: `title` (the front matter's
 * title and the H1 that shows it), `description` (the front matter's), `headings` (a heading
 * holding a banned phrase rewritten, a subheading added to a long run). Without them these stay
 * byte for byte. The body's sentences are the author's whatever this holds: never rewritten.
 */
export const MEND_PARTS = ["title", "description", "headings"] as const;
/** One of {@link MEND_PARTS}. */
export type MendPart = (typeof MEND_PARTS)[number];

const MendSchema = described(
  v.array(
    v.picklist(
      MEND_PARTS,
      `mend holds only ${MEND_PARTS.slice(0, -1)
        .map((p) => `"${p}"`)
        .join(", ")} and "${MEND_PARTS.at(-1)}"`,
    ),
    "mend must be a list",
  ),
  "What the author wrote that the refresh may rewrite: `title` (the front matter's title and the H1 showing it, when their checks fail), `description` (the " +
    "front matter's meta description, when its checks fail), `headings` (a heading holding a phrase to avoid, a subheading added to a run too long without " +
    "one). Without a part, it stays byte for byte and a check it fails is listed in `unmended` with why. A sentence of the body the author wrote is never " +
    "deleted or rewritten, whatever this holds: a refresh adds sentences the model writes (an opening holding the keyword, a paragraph where the " +
    "article is short, a sentence carrying a link), places links on words already there and citation markers after sentences, splits a long paragraph " +
    "between sentences, and a description missing from the front matter is added.",
);

/** The refresh request. An unknown field is refused. */
export const RefreshRequestSchema = v.pipe(
  jsonObject(
    {
      markdown: described(
        // Taken byte for byte (not cleaned or trimmed as analyse takes it): what a refresh does not change stays as it was.
        v.pipe(
          v.string("markdown must be a string"),
          v.check((text) => text.trim().length > 0, "markdown must not be empty"),
          v.check(withinNesting("markdown"), (issue) => `markdown is ${nestingProblem("markdown", issue.input)}`),
        ),
        `${MARKDOWN_DESCRIPTION} Everything a refresh does not change stays byte for byte, the front matter included (but a title or description mended ` +
          `there).`,
      ),
      ...TARGET_FIELDS,
      seed: v.optional(
        described(
          SeedSchema,
          "Seed of the sampler: the same request with the same seed gives the same refresh on the same model. Random when absent; echoed in `seed`.",
        ),
      ),
      mend: v.optional(MendSchema, []),
      publish: v.optional(
        described(
          PublishFieldSchema,
          "Publish the refreshed article: the post it came from (front matter `posts.<target>`, else its slug) is updated, never a second one.",
        ),
      ),
    },
    "the request body must be a JSON object",
  ),
  v.transform(({ structure, seed, ...rest }) => ({
    ...rest,
    html: undefined,
    structure: resolvePreset(structure || DEFAULTS.structure),
    seed: seed ?? randomSeed(),
  })),
);

/** A refresh request as a job shows it: its article and seed, and the targets given. */
export const RefreshRequestEchoSchema = v.looseObject({
  markdown: described(v.string(), "The article, as given."),
  seed: described(v.pipe(v.number(), v.integer(), v.minValue(0)), "The seed used: the one given, or the random one drawn."),
});

/** A refresh request as clients send it. */
export type RefreshRequestInput = v.InferInput<typeof RefreshRequestSchema>;
/** A validated refresh request. */
export type RefreshRequest = v.InferOutput<typeof RefreshRequestSchema>;

const checkId = described(v.picklist(CHECK_IDS as [CheckId, ...CheckId[]]), "The check's id.");

/** One change a refresh made. */
const RefreshChangeSchema = v.object({
  section: described(v.string(), "Where: a heading's text, `Introduction` (before the first heading), `title` or `description`."),
  check: checkId,
  reason: described(v.string(), "Why, in words: what the check found."),
  before: described(v.string(), "The Markdown that was there (empty for an insertion)."),
  after: described(v.string(), "The Markdown that is there now."),
});

/** The answer of `POST /api/v1/refresh`. */
export const RefreshResponseSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^ref_[0-9a-f]{32}$/)),
  object: v.literal("refresh"),
  created: described(v.pipe(v.number(), v.integer(), v.minValue(0)), "Unix time in seconds."),
  model: described(v.string(), "Name of the model that wrote the changes."),
  seed: described(v.pipe(v.number(), v.integer(), v.minValue(0)), "The seed used: the one given, or the random one drawn."),
  article: ArticleResponseSchema.entries.article,
  before: described(SeoReportSchema, "The report of the article as it was given."),
  after: described(SeoReportSchema, "The report of the refreshed article: its score is never below `before.score`."),
  changes: described(v.array(RefreshChangeSchema), "Every change, in the order made; what is not listed is byte for byte as it was."),
  unmended: described(
    v.array(v.object({ check: checkId, reason: v.string() })),
    "Checks that still fail, each with why the refresh could not mend it.",
  ),
  diff: described(v.string(), "A unified diff from the given Markdown to the new one (`git apply` takes it); empty when nothing changed."),
  wordsWritten: described(
    v.pipe(v.number(), v.integer(), v.minValue(0)),
    "Words the model wrote into the article: what counts against the key's daily words.",
  ),
  usage: ArticleResponseSchema.entries.usage,
  publish: ArticleResponseSchema.entries.publish,
});

/** The refresh answer. */
export type RefreshResponse = v.InferOutput<typeof RefreshResponseSchema>;
/** One change. */
export type RefreshChange = v.InferOutput<typeof RefreshChangeSchema>;

/** An example request, for the OpenAPI document and the docs. */
export const EXAMPLE_REFRESH_REQUEST = {
  markdown:
    "---\ntitle: Home composting for beginners\n---\n\n# Home composting for beginners\n\nKitchen scraps and garden waste turn into dark, crumbly soil…",
  seo: { keywords: "compost bin, garden waste" },
  style: { avoid: ["game-changer"] },
  links: [{ url: "/guides/worm-farms/", title: "Worm farms for flats", keywords: ["worm farm"] }],
  mend: ["title"],
  seed: 42,
} satisfies RefreshRequestInput;
