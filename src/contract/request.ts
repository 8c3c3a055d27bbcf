import * as v from "valibot";
import { voiceField, type VoiceProfile } from "./voice.js";
import { MAX_NESTING, nestingProblem, withinNesting } from "./nesting.js";
import { PublishFieldSchema } from "./publish.js";
import { ISO_639_1_CODES, isIso6391 } from "./languages.js";
import { resolvePreset, type Preset } from "./presets.js";
import { cleanBlock, cleanText } from "./clean.js";
import { LIMITS } from "./limits.js";
import { OUTLINE_KINDS, UserOutlineSchema, type UserOutline } from "./outline.js";
import { described, jsonObject, optionalText, requiredText, stated, text, trimmed, uniquePhrases } from "./schema.js";

/** The defaults a request may leave open, filled into every normalised request. */
export const DEFAULTS = {
  length: 800,
  tone: "professional",
  language: "en",
  structure: "sections",
  headingTags: true,
} as const;

/** Comma-separated keywords: trimmed, empties and case-insensitive duplicates dropped. */
export const KeywordsSchema = v.pipe(
  text("keywords must be a comma-separated string"),
  v.transform((raw) => uniquePhrases(raw.split(","))),
  v.maxLength(LIMITS.keywords, `at most ${LIMITS.keywords} keywords`),
  v.check((list) => list.every((k) => k.length <= LIMITS.keyword), `each keyword must be at most ${LIMITS.keyword} characters`),
);

/** An absolute http(s) URL, without spaces. */
const isHttpUrl = (url: string) => /^https?:\/\/[^/\s]\S*$/i.test(url) && URL.canParse(url);
/** A path on the article's own site: one leading slash (two would name another host), no backslash (browsers read it as a slash). */
const isSitePath = (url: string) => /^\/(?![/\\])[^\s\\]*$/.test(url) && URL.canParse(url, "https://site.invalid");

// The URL rules as JSON Schema patterns, for clients: a little stricter than the checks (an ASCII
// host name whose last label starts with a letter, so never one URL.canParse refuses as a bad IPv4
// address or punycode; no control character, which the clean-up would turn into a space).
const URL_CHAR = "[^\\s\\u0000-\\u001f\\u007f-\\u009f]";
const LABEL = "[A-Za-z0-9]+(-[A-Za-z0-9]+)*";
const HTTP_URL = `[hH][tT][tT][pP][sS]?://(${LABEL}\\.)*[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*(:[0-9]{1,4})?([/?#]${URL_CHAR}*)?`;
const SITE_PATH = `/(${URL_CHAR.replace("[^", "[^/\\\\")}${URL_CHAR.replace("[^", "[^\\\\")}*)?`;

const url = (allowSitePath: boolean) =>
  v.pipe(
    text("url must be a string"),
    v.maxLength(LIMITS.url, `url must be at most ${LIMITS.url} characters`),
    stated(
      v.check(
        (given: string) => isHttpUrl(given) || (allowSitePath && isSitePath(given)),
        allowSitePath ? "url must be an absolute http(s) URL or a site path starting with /" : "url must be an absolute http(s) URL",
      ),
      { pattern: allowSitePath ? `^(${HTTP_URL}|${SITE_PATH})$` : `^${HTTP_URL}$` },
    ),
  );

/** The `seo.author` object: who wrote the article, for its structured data. */
const AuthorSchema = jsonObject(
  {
    name: described(requiredText(LIMITS.authorName, "name"), "The author's name, as readers see it."),
    url: v.optional(described(url(false), "A page about the author (a profile or an about page).")),
  },
  "author must be an object",
);

/** A key's publisher (`inkpress keys set-publisher`), as the key file holds it. */
export const PublisherSchema = v.object({
  name: requiredText(LIMITS.authorName, "name"),
  url: v.optional(url(false)),
  logo: v.optional(url(false)),
});
/** Who publishes an article (a key's, else the server's), for its structured data: never invented. */
export type Publisher = v.InferOutput<typeof PublisherSchema>;

/** The `seo` object of a request. */
export const SeoSchema = jsonObject(
  {
    keywords: v.optional(
      v.pipe(
        KeywordsSchema,
        v.description(
          "Comma-separated keywords; the first is the primary keyword. Each is trimmed; empties and case-insensitive duplicates are dropped.",
        ),
      ),
      "",
    ),
    title: v.pipe(
      optionalText(LIMITS.title, "title"),
      v.description(
        "Title used verbatim instead of a generated one (even when it breaks a rule; the SEO report then says so). Empty means generated.",
      ),
    ),
    description: v.pipe(
      optionalText(LIMITS.description, "description"),
      v.description("Meta description used verbatim instead of a generated one. Empty means generated."),
    ),
    headingTags: v.optional(
      v.pipe(
        v.boolean("headingTags must be true or false"),
        v.description("`false`: no heading nodes at all; the title stays `article.title` and the HTML `<title>`."),
      ),
      DEFAULTS.headingTags,
    ),
    author: v.optional(
      described(
        AuthorSchema,
        "Who wrote the article: its JSON-LD `Article` then names them as `author`. Never invented: without it, the structured data has no author.",
      ),
    ),
  },
  "seo must be an object",
);

/** Phrases to avoid: trimmed, empties and case-insensitive duplicates dropped. */
const AvoidList = v.pipe(
  v.array(trimmed(LIMITS.avoidPhrase, "each avoid phrase"), "avoid must be an array of strings"),
  v.maxLength(LIMITS.avoid, `avoid holds at most ${LIMITS.avoid} phrases`),
  v.transform(uniquePhrases),
);

/**
 * The `style` object of a request (or a key's default style): phrases the article never
 * contains, a voice note for the prompt, and whether the built-in AI clichés are avoided.
 */
export const StyleSchema = jsonObject(
  {
    avoid: v.optional(
      described(
        AvoidList,
        "Phrases that never appear in the title, description, headings or body: case-insensitive, as written (symbols included), from a word's start, and " +
          'a last word with letters glued on ("Lilych") counts as the phrase; the model writes on instead of completing one.',
      ),
    ),
    voice: described(
      voiceField(optionalText(LIMITS.voice, "voice")),
      'A style note the prompt carries, such as "plain British English, second person, no exclamation marks"; or a house voice learnt by `POST ' +
        "/api/v1/voice` (its `profile`), which the writer steers towards and the report's `voice-…` checks measure against; on a server started " +
        "with `--voices DIR`, a voice's name (one word: `house` for `DIR/house.voice.json`) stands for its profile, and an unknown one is a 422 " +
        "listing the names.",
    ),
    cliches: v.optional(
      described(
        v.boolean("cliches must be true or false"),
        "Avoid the built-in list of AI clichés (true unless a key's default style or the request says false).",
      ),
    ),
  },
  "style must be an object",
);

/** A style as given: every field optional, so a request's style can override a key's default field by field. */
export type Style = v.InferOutput<typeof StyleSchema>;

/**
 * The style an article is written in: the request's fields over the key's default ones.
 * `cliches` defaults to true (the built-in list is avoided).
 */
export function resolveStyle(
  request: Style | undefined,
  keyDefault?: Style,
): { avoid: string[]; voice?: string; profile?: VoiceProfile; cliches: boolean } {
  const voice = request?.voice ?? keyDefault?.voice;
  return {
    avoid: request?.avoid ?? keyDefault?.avoid ?? [],
    ...(typeof voice === "string" ? { voice } : voice ? { profile: voice } : {}),
    cliches: request?.cliches ?? keyDefault?.cliches ?? true,
  };
}

/** An address on the user's site: an absolute http(s) URL or a site path starting with `/`. */
export const SiteUrlSchema = url(true);

/** One document the article may draw on and cite. */
const SourceSchema = jsonObject(
  {
    title: described(requiredText(LIMITS.sourceTitle, "title"), "Shown in the article's Sources list."),
    url: v.optional(described(url(false), "Shown to readers beside the title; never fetched.")),
    text: described(
      v.pipe(
        v.string("text must be a string"),
        v.transform(cleanBlock),
        v.trim(),
        v.minLength(1, "text must not be empty"),
        v.check(withinNesting("markdown"), (issue) => `text is ${nestingProblem("markdown", issue.input)}`),
      ),
      `Plain text or Markdown, nested at most ${MAX_NESTING} levels deep.`,
    ),
  },
  "each source must be an object",
);

/** The request's sources: at most 20, with at most 100 KiB of text (UTF-8) in all. */
export const SourcesSchema = v.pipe(
  v.array(SourceSchema, "sources must be an array of { title, url?, text }"),
  v.maxLength(LIMITS.sources, `sources holds at most ${LIMITS.sources} entries`),
  v.check(
    (sources) => sources.reduce((bytes, source) => bytes + Buffer.byteLength(source.text), 0) <= LIMITS.sourcesText,
    `sources hold at most ${LIMITS.sourcesText / 1024} KiB (${LIMITS.sourcesText} bytes of UTF-8) of text in all`,
  ),
);

/** A page's keywords: a comma-separated string or an array, cleaned like `seo.keywords`. */
const LinkKeywords = v.pipe(
  v.union([v.string(), v.array(v.string())], "keywords must be a comma-separated string or an array of strings"),
  v.transform((given) => uniquePhrases((typeof given === "string" ? given.split(",") : given).map(cleanText))),
  v.maxLength(LIMITS.linkKeywords, `at most ${LIMITS.linkKeywords} keywords`),
  v.check((list) => list.every((k) => k.length <= LIMITS.keyword), `each keyword must be at most ${LIMITS.keyword} characters`),
);

/** One page of the user's site the article may link. */
export const LinkSchema = jsonObject(
  {
    url: described(SiteUrlSchema, "The page's address; never fetched."),
    title: described(
      requiredText(LIMITS.linkTitle, "title"),
      "The page's title: ranks the page against each section, and anchors are drawn from it.",
    ),
    keywords: v.optional(described(LinkKeywords, "Phrases the page is about; anchors are drawn from them too."), []),
  },
  "each link must be an object",
);

/** The request's links: at most 50 pages. */
export const LinksSchema = v.pipe(
  v.array(LinkSchema, "links must be an array of { url, title, keywords? }"),
  v.maxLength(LIMITS.links, `links holds at most ${LIMITS.links} entries`),
);

/** A source as the engine takes it. */
export type Source = v.InferOutput<typeof SourceSchema>;

/** A link as the engine takes it: `keywords` always a list. */
export type Link = v.InferOutput<typeof LinkSchema>;

/** A length in words, within the request's bounds. */
export const LengthSchema = v.pipe(
  v.number("length must be a number"),
  v.integer("length must be a whole number of words"),
  v.minValue(LIMITS.lengthMin, `length must be at least ${LIMITS.lengthMin} words`),
  v.maxValue(LIMITS.lengthMax, `length must be at most ${LIMITS.lengthMax} words`),
);

/** The ISO 639-1 codes in any case, padded or not, as a JSON Schema pattern: `[aA][abefkmnrsvyABEFKMNRSVY]|…`. */
const ISO_639_1_PATTERN = (() => {
  const seconds = new Map<string, string>();
  for (const [first, second] of ISO_639_1_CODES) seconds.set(first!, (seconds.get(first!) ?? "") + second);
  const either = (letters: string) => letters + letters.toUpperCase();
  const groups = [...seconds].map(([first, letters]) => `[${either(first)}][${either(letters)}]`);
  return `^\\s*(${groups.join("|")})\\s*$`;
})();

/** An ISO 639-1 code, any case, lower-cased. */
export const LanguageSchema = v.pipe(
  v.string("language must be a string"),
  v.trim(),
  v.toLowerCase(),
  stated(v.check(isIso6391, "language must be an ISO 639-1 code such as en, de or ja"), { pattern: ISO_639_1_PATTERN }),
);

/** The structure as asked, in free words (mapped to a preset by the request's transform). */
export const StructureSchema = v.pipe(
  trimmed(LIMITS.word, "structure"),
  v.description(
    "`paragraphs`, `sections`, `detailed`, `listicle` or `how-to`, or free words mapped to the nearest of them (`steps`, `tutorial` → how-to; `list`, `top " +
      "10`, `tips` → listicle; `essay`, `story` → paragraphs; `guide`, `faq` → detailed; anything else → sections).",
  ),
);

/** A sampler seed: a whole number in 0 … 2^32 − 1. */
export const SeedSchema = v.pipe(
  v.number("seed must be a number"),
  v.integer("seed must be an integer"),
  v.minValue(0, "seed must be at least 0"),
  v.maxValue(2 ** 32 - 1, "seed must be below 2^32"),
);

/**
 * The generation request (spec part 2) as valibot validates it: the one source of truth
 * for validation, the engine's input type and the OpenAPI document. An unknown field is refused.
 */
export const GenerateRequestSchema = v.pipe(
  jsonObject(
    {
      topic: v.pipe(
        text("topic is required and must be a string"),
        v.minLength(1, "topic must not be empty"),
        v.maxLength(LIMITS.topic, `topic must be at most ${LIMITS.topic} characters`),
        v.description("What the article is about. Without keywords it is also the primary keyword."),
      ),
      length: v.optional(
        v.pipe(
          LengthSchema,
          v.description("Target length of the body in words (the title is not counted); the article lands within ±10% of it."),
        ),
        DEFAULTS.length,
      ),
      tone: v.optional(
        v.pipe(
          trimmed(LIMITS.word, "tone"),
          v.description("Free-text tone of voice, passed to the model, such as `conversational` or `formal`."),
        ),
        DEFAULTS.tone,
      ),
      language: v.optional(
        v.pipe(LanguageSchema, v.description("ISO 639-1 code of the article's language, any case; answered lower-case.")),
        DEFAULTS.language,
      ),
      structure: v.optional(StructureSchema, DEFAULTS.structure),
      seed: v.optional(
        v.pipe(
          SeedSchema,
          v.description(
            "Seed of the sampler: the same request with the same seed gives the same article on the same model. Random when absent; echoed in `request.seed`.",
          ),
        ),
      ),
      seo: v.optional(v.pipe(SeoSchema, v.description("Search-engine settings.")), {}),
      style: v.optional(
        described(StyleSchema, "How the article is written: phrases it never contains, a voice, whether AI clichés are avoided."),
      ),
      sources: v.optional(
        described(
          SourcesSchema,
          "Documents the article draws on: each section sees its best passages, and a sentence that restates one cites it.",
        ),
      ),
      links: v.optional(described(LinksSchema, "Pages of your site the article links where they fit: about one per 200 words.")),
      outline: v.optional(
        described(
          UserOutlineSchema,
          "An outline from `POST /api/v1/outline`, edited: the article has exactly its headings, in order, each section within ±25 % of its budget.",
        ),
      ),
      publish: v.optional(
        described(PublishFieldSchema, "Publish the article, once written, to a target the operator configured and the key may use."),
      ),
      /** Answer with Server-Sent Events, like `Accept: text/event-stream`; a transport choice, so not echoed. */
      stream: v.optional(
        v.pipe(
          v.boolean("stream must be true or false"),
          v.description("Answer with Server-Sent Events, like `Accept: text/event-stream`."),
        ),
        false,
      ),
    },
    "the request body must be a JSON object",
  ),
  v.transform(({ tone, structure, seed, ...rest }) => ({
    ...rest,
    tone: tone || DEFAULTS.tone,
    structure: resolvePreset(structure || DEFAULTS.structure),
    structureRequested: structure || DEFAULTS.structure,
    seed: seed ?? randomSeed(),
  })),
);

/** A seed for a request that gives none. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

/** A request as clients send it. */
export type GenerateRequestInput = v.InferInput<typeof GenerateRequestSchema>;

/** A validated request body: the normalised request plus the transport choice `stream`. */
export type GenerateRequestBody = v.InferOutput<typeof GenerateRequestSchema>;

/** A normalised request: defaults filled in, keywords split, structure mapped to a preset. */
export type GenerateRequest = Omit<GenerateRequestBody, "stream">;

export type { Preset };
export { cleanBlock, cleanText, jsonObject, LIMITS, OUTLINE_KINDS, type UserOutline };
