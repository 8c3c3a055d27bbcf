import * as v from "valibot";
import { described } from "./schema.js";
import { resolvePreset } from "./presets.js";
import { MAX_NESTING, nestingProblem, withinNesting } from "./nesting.js";
import { OutlineEntrySchema, SeoReportSchema } from "./response.js";
import {
  DEFAULTS,
  LIMITS,
  LanguageSchema,
  LengthSchema,
  LinksSchema,
  SeoSchema,
  SourcesSchema,
  StructureSchema,
  StyleSchema,
  cleanBlock,
  jsonObject,
} from "./request.js";

/**
 * `POST /api/v1/analyse`: the SEO report of an article given as it is, measured against the
 * targets a generate request would give. The same schemas validate, type and document it.
 */

/** An article given as it is, as a request field: text, cleaned, not empty, not nested too deeply to parse. */
const pageSchema = (what: "markdown" | "html") =>
  v.pipe(
    v.string(`${what} must be a string`),
    v.transform(cleanBlock),
    v.trim(),
    v.minLength(1, `${what} must not be empty`),
    v.check(withinNesting(what), (issue) => `${what} is ${nestingProblem(what, issue.input)}`),
  );

/** The Markdown article field, as analyse and refresh read it. */
export const MARKDOWN_DESCRIPTION =
  `The article as Markdown, YAML front matter allowed (\`title\`, \`description\`, \`keywords\`, \`language\`, \`slug\` ` +
  `are read as targets the request leaves open); nested at most ${MAX_NESTING} levels deep.`;

/** The targets an article is measured against (analyse and refresh): the generate fields that set them. */
export const TARGET_FIELDS = {
  topic: v.optional(
    described(
      v.pipe(v.string("topic must be a string"), v.trim(), v.maxLength(LIMITS.topic, `topic must be at most ${LIMITS.topic} characters`)),
      "What the article should be about: the on-topic check measures its sections against the topic's words, the keywords' and the title's. Without one, " +
        "the title and keywords say it.",
    ),
  ),
  slug: v.optional(
    described(
      v.pipe(v.string("slug must be a string"), v.trim(), v.maxLength(LIMITS.url, `slug must be at most ${LIMITS.url} characters`)),
      "The page's slug (or its URL, whose last segment is taken). Without one (here or in the front matter) the slug check does not apply.",
    ),
  ),
  language: v.optional(
    described(
      LanguageSchema,
      "ISO 639-1 code the article should be in. When absent: the front matter's `language`, the page's `<html lang>`, else the language the body reads as " +
        "(said so in the answer).",
    ),
  ),
  length: v.optional(described(LengthSchema, "Words the article should have; without it the length check does not apply.")),
  structure: v.optional(StructureSchema, DEFAULTS.structure),
  seo: v.optional(
    described(
      SeoSchema,
      "The targets: keywords (the first is primary), and the title and description to measure instead of the ones the article holds.",
    ),
    {},
  ),
  style: v.optional(
    described(
      StyleSchema,
      "Phrases the article must not hold (`avoid`) and whether AI clichés are scored (`cliches`), over the key's default style.",
    ),
  ),
  sources: v.optional(described(SourcesSchema, "Documents the article draws on: a figure found in one is supported.")),
  links: v.optional(described(LinksSchema, "Pages of your site the article should link: the answer says how many it links.")),
};

/** The analyse request. An unknown field is refused. */
export const AnalyseRequestSchema = v.pipe(
  jsonObject(
    {
      markdown: v.optional(described(pageSchema("markdown"), `${MARKDOWN_DESCRIPTION} Send this or \`html\`.`)),
      html: v.optional(
        described(
          pageSchema("html"),
          `The article as an HTML page or fragment: \`<title>\`, \`<meta name="description">\`, \`<html lang>\`, headings, paragraphs, lists and links are ` +
            `read; scripts, styles, navigation, forms, asides and footers are not. Elements nest at most ${MAX_NESTING} levels deep. Send this or ` +
            `\`markdown\`.`,
        ),
      ),
      ...TARGET_FIELDS,
    },
    "the request body must be a JSON object",
  ),
  v.forward(
    v.check((body) => (body.markdown === undefined) !== (body.html === undefined), "send exactly one of markdown and html"),
    ["markdown"],
  ),
  v.transform(({ structure, ...rest }) => ({ ...rest, structure: resolvePreset(structure || DEFAULTS.structure) })),
);

/** An analyse request as clients send it. */
export type AnalyseRequestInput = v.InferInput<typeof AnalyseRequestSchema>;
/** A validated analyse request: structure mapped to a preset. */
export type AnalyseRequest = v.InferOutput<typeof AnalyseRequestSchema>;

const count = (text: string) => described(v.pipe(v.number(), v.integer(), v.minValue(0)), text);

/** Where a target came from: the request, the page's front matter or head, its H1, the file's name, or the detector. */
const FROM = ["request", "front-matter", "html", "h1", "file-name", "detected"] as const;
/** Where a target came from. */
export type TargetSource = (typeof FROM)[number];

const found = <S extends v.GenericSchema>(value: S) =>
  v.object({
    value,
    from: described(
      v.picklist(FROM),
      "Where it came from: `request`, `front-matter`, `html` (the page's head), `h1`, `file-name` or `detected`.",
    ),
  });
const target = <S extends v.GenericSchema>(value: S, text: string) => described(v.nullable(found(value)), text);

/** The answer of `POST /api/v1/analyse`. */
export const AnalysisResponseSchema = v.object({
  object: v.literal("analysis"),
  language: described(
    found(v.string()),
    "The language the article was measured in (ISO 639-1); `from: detected` when neither the request nor the page named one.",
  ),
  title: target(
    v.string(),
    "The title measured: the request's, else the front matter's, the page's `<title>`, or its H1; null when there is none.",
  ),
  description: target(
    v.string(),
    "The meta description measured: the request's, else the front matter's or the page's `<meta name=\"description\">`; null when there is none.",
  ),
  slug: target(v.string(), "The slug measured; null when none was given or found (the slug check then does not apply)."),
  keywords: target(
    v.array(v.string()),
    "The keywords measured (the first is primary): the request's, else the front matter's; null when there are none.",
  ),
  wordCount: count("Body words (the title not counted), by Intl.Segmenter in the article's language."),
  readingTimeMinutes: count("At 200 words a minute."),
  outline: described(v.array(OutlineEntrySchema), "The article's H2 and H3 headings, in order."),
  seo: SeoReportSchema,
});

/** The analyse answer. */
export type AnalysisResponse = v.InferOutput<typeof AnalysisResponseSchema>;

/** An example request, for the OpenAPI document and the docs. */
export const EXAMPLE_ANALYSE_REQUEST = {
  markdown:
    "---\ntitle: Home composting for beginners\ndescription: How a compost bin turns garden waste into soil.\n---\n\n# Home composting for beginners\n\nA " +
    "compost bin turns kitchen scraps and garden waste into dark, crumbly soil…",
  seo: { keywords: "compost bin, garden waste" },
  style: { avoid: ["game-changer"] },
} satisfies AnalyseRequestInput;
