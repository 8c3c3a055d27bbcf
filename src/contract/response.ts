import * as v from "valibot";
import { VoiceProfileSchema } from "./voice.js";
import { described } from "./schema.js";
import { CHECK_IDS, type CheckId } from "./checks.js";
import { JsonLdSchema } from "./jsonld.js";
import { PublishOutcomeSchema } from "./publish.js";
import { PRESETS } from "./presets.js";

/**
 * The shapes the API answers with, as valibot schemas: they type the engine's output and
 * are converted into the OpenAPI document, so the documented answer cannot drift from
 * the one served.
 */

const count = (text?: string) =>
  text ? described(v.pipe(v.number(), v.integer(), v.minValue(0)), text) : v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * One entry of the outline. When the article shows its section headings, the outline is
 * exactly those headings in order (`shown: true`); when it shows none (headingTags false, or
 * the paragraphs preset), it lists the planned sections, each `shown: false`.
 */
export const OutlineEntrySchema = v.object({ level: v.picklist([2, 3]), text: v.string(), shown: v.boolean() });

/** The normalised request, echoed in answers: defaults filled, keywords split, structure mapped. */
export const NormalisedRequestSchema = v.object({
  topic: v.string(),
  length: count(),
  tone: v.string(),
  language: described(v.string(), "ISO 639-1, lower-case."),
  structure: described(v.picklist(PRESETS), "The preset the structure maps to."),
  structureRequested: described(v.string(), "The structure as requested."),
  seed: count("The seed used: the one given, or the random one drawn."),
  seo: v.object({
    keywords: described(v.array(v.string()), "Normalised keywords; the first is the primary keyword."),
    title: v.optional(v.string()),
    description: v.optional(v.string()),
    headingTags: v.boolean(),
    author: v.optional(v.object({ name: v.string(), url: v.optional(v.string()) })),
  }),
  style: v.optional(
    described(
      v.object({
        avoid: v.optional(v.array(v.string())),
        voice: v.optional(v.union([v.string(), VoiceProfileSchema])),
        cliches: v.optional(v.boolean()),
      }),
      "The style the article was written in: the request's, over its key's default style, field by field.",
    ),
  ),
  sources: v.optional(v.array(v.object({ title: v.string(), url: v.optional(v.string()), text: v.string() }))),
  links: v.optional(v.array(v.object({ url: v.string(), title: v.string(), keywords: v.array(v.string()) }))),
});

/** One measurement of the SEO report. */
const SeoCheckSchema = v.object({
  id: described(v.picklist(CHECK_IDS as [CheckId, ...CheckId[]]), "Stable id of the check."),
  label: described(v.string(), "The check's name in words, as the playground shows it."),
  passed: described(v.nullable(v.boolean()), "`null`: the check does not apply to this article."),
  message: described(v.string(), "What was measured, in words."),
});

/** The SEO report: the same object in the generate answer and the analyse answer. */
export const SeoReportSchema = v.object({
  score: described(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)), "Weighted share of passed checks."),
  checks: v.array(SeoCheckSchema),
  keywordDensity: described(v.record(v.string(), v.pipe(v.number(), v.minValue(0))), "Per keyword, occurrences ÷ body words × 100."),
});

/** The JSON answer of `POST /api/v1/generate` (and the `done` event of a stream). */
export const ArticleResponseSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^art_[0-9a-f]{32}$/)),
  object: v.literal("article"),
  created: count("Unix time in seconds."),
  model: described(v.string(), "Name of the model that wrote the article."),
  request: NormalisedRequestSchema,
  article: v.object({
    title: v.string(),
    slug: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(75)),
    metaDescription: v.string(),
    language: v.string(),
    keywords: v.array(v.string()),
    markdown: described(v.string(), "The article as Markdown; it starts with `# Title` when headingTags is true."),
    html: described(v.string(), "The article body as an HTML fragment."),
    outline: v.array(OutlineEntrySchema),
    wordCount: count("Body words (the title not counted), by Intl.Segmenter in the article's language."),
    readingTimeMinutes: count("At 200 words a minute."),
    jsonLd: JsonLdSchema,
  }),
  seo: SeoReportSchema,
  usage: v.object({
    promptTokens: count("Tokens the model evaluated: the prompt, forced text and re-synced tokens; reused cache is not counted."),
    completionTokens: count("Tokens the model generated."),
    discardedTokens: described(
      v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))),
      "Of the completion tokens, those generated and then cut from the answer, by why: a sentence the editor refused (its reason: `duplicate`, " +
        "`unbalanced`, `keyword-opening`, …), `banned` (a banned phrase refused while sampling), `outline` (outline fields written again), `steering`, " +
        "`over-budget`, `step-end`, `unfinished`, `heading`, `sentence-length` (a house voice's sentence ended at its most words, or cut where it " +
        "ended short of its least), `other`.",
    ),
    durationMs: count(),
  }),
  publish: v.optional(
    described(
      PublishOutcomeSchema,
      "With `publish` in the request: the post (`target`, `id`, `url`, `status`), or the problem that kept it from being published.",
    ),
  ),
});

/** First event of a stream, before any model call. */
export const StreamMetaSchema = v.object({ id: v.string(), model: v.string(), request: NormalisedRequestSchema });

/** Second event of a stream: the planned title and outline. */
export const StreamOutlineSchema = v.object({ title: v.string(), outline: v.array(OutlineEntrySchema) });

/** A delta of Markdown; the deltas concatenated equal `article.markdown`. */
export const StreamDeltaSchema = v.object({ text: v.string() });

/** The generate JSON answer, as {@link ArticleResponseSchema} validates it. */
export type ArticleResponse = v.InferOutput<typeof ArticleResponseSchema>;
/** The `meta` event of a stream, as {@link StreamMetaSchema} validates it. */
export type StreamMeta = v.InferOutput<typeof StreamMetaSchema>;
/** The `outline` event of a stream, as {@link StreamOutlineSchema} validates it. */
export type StreamOutline = v.InferOutput<typeof StreamOutlineSchema>;
/** One SEO check's result in the answer's `seo.checks`. */
export type SeoCheck = v.InferOutput<typeof SeoCheckSchema>;
