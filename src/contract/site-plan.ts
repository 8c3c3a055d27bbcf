/** The wire contract of `POST /api/v1/plan`: a seed topic and keywords in, the cluster plan out. */
import * as v from "valibot";
import { jsonObject, LanguageSchema, LIMITS, SiteUrlSchema } from "./request.js";
import { requiredText } from "./schema.js";

/** Most keywords one plan takes (entries, duplicates included), whether sent to the API or read by `inkpress plan`. */
export const MOST_KEYWORDS = 2000;
/** A keyword cleaned as every text field is (control and invisible format characters out), 1–80 characters. */
const phrase = (what: string) => requiredText(LIMITS.keyword, what);
const count = (what: string) => v.optional(v.pipe(v.number(`${what} must be a number`), v.minValue(0, `${what} must be at least 0`)));

/** One keyword as a keyword tool exports it: the phrase, its monthly volume and its difficulty. */
export const PlanKeywordSchema = jsonObject(
  { keyword: phrase("keyword"), volume: count("volume"), difficulty: count("difficulty") },
  "each keyword must be an object",
);

/** The plan request: the seed topic, the keywords as a keyword tool exports them, and the pages the site has. */
export const PlanRequestSchema = jsonObject(
  {
    topic: v.pipe(
      v.string("topic is required and must be a string"),
      v.trim(),
      v.minLength(1, "topic must not be empty"),
      v.maxLength(LIMITS.topic, `topic must be at most ${LIMITS.topic} characters`),
    ),
    language: v.optional(LanguageSchema, "en"),
    keywords: v.pipe(
      v.array(PlanKeywordSchema, "keywords must be an array of { keyword, volume?, difficulty? }"),
      v.minLength(1, "keywords must hold at least one keyword"),
      v.maxLength(MOST_KEYWORDS, `keywords holds at most ${MOST_KEYWORDS} entries`),
    ),
    existing: v.optional(
      v.pipe(
        v.array(
          jsonObject({ url: SiteUrlSchema, keyword: phrase("keyword") }, "each existing page must be an object"),
          "existing must be an array of { url, keyword }",
        ),
        v.description(
          "The site's pages and the keyword each targets (as `inkpress audit` reports them): a group one already targets is not planned.",
        ),
      ),
    ),
  },
  "the request body must be a JSON object",
);

const Link = v.object({ url: v.string(), title: v.string(), keywords: v.array(v.string()) });

/** The plan answer: each planned article as a batch row, and the groups existing pages cover. */
export const PlanResponseSchema = v.object({
  object: v.literal("plan"),
  articles: v.array(
    v.object({
      topic: v.string(),
      keywords: v.array(v.string()),
      slug: v.string(),
      url: v.string(),
      role: v.picklist(["pillar", "cluster"]),
      links: v.array(Link),
    }),
  ),
  covered: v.pipe(
    v.array(v.object({ primary: v.string(), page: v.string() })),
    v.description("Groups left to the existing page that targets their primary keyword."),
  ),
  lone: v.pipe(
    v.array(v.object({ keyword: v.string(), primary: v.string(), similarity: v.number(), joined: v.boolean() })),
    v.description(
      "Keywords sharing no term with any group, each with the group nearest it by the loaded model's embeddings (its `primary`, the cosine `similarity` to " +
        "its centroid) and whether it `joined` that group (at 0.5 or more; else it keeps an article of its own); empty without a model with embeddings.",
    ),
  ),
});
