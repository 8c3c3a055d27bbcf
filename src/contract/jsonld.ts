import * as v from "valibot";
import { described } from "./schema.js";

/**
 * The shape of an article's schema.org structured data (`article.jsonLd`), as valibot schemas:
 * they type what `output/jsonld.ts` builds and generate the answer's OpenAPI schema.
 */

/** Google shows at most 110 characters of a headline. */
export const HEADLINE_MAX = 110;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** ISO 8601 in UTC, as `Date.prototype.toISOString` writes it (a regex: JSON Schema's `format` is not validated everywhere). */
const timestamp = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/));

const JsonLdArticleSchema = v.object({
  "@type": v.literal("Article"),
  headline: described(v.pipe(v.string(), v.maxLength(HEADLINE_MAX)), "The title, cut on a word end at 110 characters."),
  description: v.optional(described(v.string(), "The meta description.")),
  inLanguage: described(v.string(), "ISO 639-1."),
  keywords: v.array(v.string()),
  wordCount: count,
  timeRequired: described(v.pipe(v.string(), v.regex(/^PT\d+M$/)), "The reading time as an ISO 8601 duration."),
  datePublished: described(timestamp, "From `created`."),
  dateModified: described(timestamp, "From `created`."),
  citation: v.optional(
    described(
      v.array(v.object({ "@type": v.literal("CreativeWork"), name: v.string(), url: v.optional(v.string()) })),
      "The request's sources the article cites, in the order of their markers.",
    ),
  ),
  author: v.optional(
    described(
      v.object({ "@type": v.literal("Person"), name: v.string(), url: v.optional(v.string()) }),
      "From the request's `seo.author`; absent when none was given.",
    ),
  ),
  publisher: v.optional(
    described(
      v.object({
        "@type": v.literal("Organization"),
        name: v.string(),
        url: v.optional(v.string()),
        logo: v.optional(v.object({ "@type": v.literal("ImageObject"), url: v.string() })),
      }),
      "The key's publisher, else the server's (`--publisher-name`); absent when neither is set.",
    ),
  ),
});

const JsonLdFaqPageSchema = v.object({
  "@type": v.literal("FAQPage"),
  inLanguage: v.string(),
  mainEntity: v.pipe(
    v.array(
      v.object({
        "@type": v.literal("Question"),
        name: described(v.string(), "The question as the article asks it."),
        acceptedAnswer: v.object({
          "@type": v.literal("Answer"),
          text: described(v.string(), "The article's answer: its paragraphs, separated by a blank line."),
        }),
      }),
    ),
    v.minLength(1),
  ),
});

const JsonLdHowToSchema = v.object({
  "@type": v.literal("HowTo"),
  name: described(v.string(), "The title."),
  description: v.optional(v.string()),
  inLanguage: v.string(),
  step: v.pipe(
    v.array(
      v.object({
        "@type": v.literal("HowToStep"),
        position: v.pipe(v.number(), v.integer(), v.minValue(1)),
        name: described(v.string(), "The step's heading, without its number."),
        text: described(v.string(), "The step's paragraphs, separated by a blank line."),
      }),
    ),
    v.minLength(1),
  ),
});

/** The structured data of `article.jsonLd`, the same object as the HTML document's `application/ld+json` script. */
export const JsonLdSchema = v.pipe(
  v.object({
    "@context": described(v.literal("https://schema.org"), "Always `https://schema.org`."),
    "@graph": described(
      v.pipe(v.array(v.variant("@type", [JsonLdArticleSchema, JsonLdFaqPageSchema, JsonLdHowToSchema])), v.minLength(1)),
      "The nodes, each type at most once, in this order: `Article` (`headline`, `description`, `inLanguage`, `keywords`, `wordCount`, `timeRequired`, " +
        "`datePublished`, `dateModified`, and when known `citation`, `author`, `publisher`); " +
        "`FAQPage` (`mainEntity`: a `Question` per FAQ question, its `name` the question and `acceptedAnswer.text` the answer's paragraphs); " +
        "`HowTo` (`name`, `description`, `inLanguage`, `step`: a `HowToStep` per step heading with its `position`, `name` and `text`).",
    ),
  }),
  v.description(
    "schema.org structured data (JSON-LD): an `Article` always (first), a `FAQPage` when the article has an FAQ, a `HowTo` for a `how-to` article with " +
      'heading tags. The HTML document carries the same object in a `<script type="application/ld+json">`.',
  ),
);

/** The JSON-LD objects of an article, as {@link JsonLdSchema} validates them. */
export type JsonLd = v.InferOutput<typeof JsonLdSchema>;
/** The `FAQPage` node of {@link JsonLd}. */
export type JsonLdFaqPage = v.InferOutput<typeof JsonLdFaqPageSchema>;
/** The `HowTo` node of {@link JsonLd}. */
export type JsonLdHowTo = v.InferOutput<typeof JsonLdHowToSchema>;
