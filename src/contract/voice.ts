/**
 * A house voice on the wire: `POST /api/v1/voice` (examples in, a learnt profile out) and the
 * profile a request's `style.voice` carries. The profile is strict: an unknown field or a wrong
 * type anywhere in it is a 422 naming the field, as a request's own fields are.
 */
import * as v from "valibot";
import { described, jsonObject, requiredText } from "./schema.js";

/** Grammatical persons a voice writes in. */
const PERSONS = ["first-singular", "first-plural", "second", "third"] as const;
/** One of {@link PERSONS}. */
export type Person = (typeof PERSONS)[number];

/** Bounds of a voice, one table so validation, docs and errors agree. */
export const VOICE_LIMITS = {
  /** Example articles a voice is learnt from. */
  articles: 10,
  /** Characters of one example article. */
  article: 100_000,
  /** Prose words the examples must hold in all. */
  minWords: 150,
  name: 60,
  excerpts: 3,
  excerpt: 600,
  phrases: 20,
  words: 40,
} as const;

const number = (what: string) => v.number(`${what} must be a number`);
const share = (what: string) =>
  v.pipe(number(what), v.minValue(0, `${what} must be at least 0`), v.maxValue(1, `${what} must be at most 1`));
const oneOf = <const T extends readonly string[]>(values: T, what: string) =>
  v.picklist(values, `${what} must be one of ${values.join(", ")}`);

/** A measure with the band an article's value may lie in: what the examples show, widened as docs/guarantees.md says. */
const band = (what: string, description: string) =>
  described(
    jsonObject({ value: number(`${what}.value`), min: number(`${what}.min`), max: number(`${what}.max`) }, `${what} must be an object`),
    `${description} \`value\`: the examples' own; \`min\`–\`max\`: the band an article passes within.`,
  );

/** A string of at most `max` characters, as given (a profile is the server's own answer, sent back). */
const string = (max: number, what: string) =>
  v.pipe(v.string(`${what} must be a string`), v.maxLength(max, `${what} must be at most ${max} characters`));

const wordList = (what: string, max: number) =>
  v.pipe(v.array(string(80, `each of ${what}`), `${what} must be an array of strings`), v.maxLength(max, `${what} holds at most ${max}`));

/** A learnt voice: each feature the examples show, with the spread they allow. */
export const VoiceProfileSchema = jsonObject(
  {
    language: described(
      v.pipe(v.string("voice.language must be a string"), v.regex(/^[a-z]{2}$/, "voice.language must be an ISO 639-1 code")),
      "The examples' language.",
    ),
    articles: described(
      v.pipe(number("voice.articles"), v.integer("voice.articles must be a whole number")),
      "Example articles learnt from.",
    ),
    words: described(v.pipe(number("voice.words"), v.integer("voice.words must be a whole number")), "Prose words learnt from."),
    sentenceWords: described(
      jsonObject(
        {
          mean: number("voice.sentenceWords.mean"),
          p10: number("voice.sentenceWords.p10"),
          p90: number("voice.sentenceWords.p90"),
          min: number("voice.sentenceWords.min"),
          max: number("voice.sentenceWords.max"),
        },
        "voice.sentenceWords must be an object",
      ),
      "Words per paragraph sentence (headings and list items aside): the mean and the 10th and 90th percentiles; `min`–`max`: the band an article's mean " +
        "passes within.",
    ),
    person: described(
      jsonObject({ value: oneOf(PERSONS, "voice.person.value"), share: share("voice.person.share") }, "voice.person must be an object"),
      "The dominant grammatical person and its share of the personal pronouns (`third`: fewer than 1 first- or second-person pronoun per 100 words).",
    ),
    contractions: band("voice.contractions", "Contractions per 100 words."),
    spelling: described(
      jsonObject(
        {
          value: oneOf(["en-GB", "en-US", "mixed", "none"] as const, "voice.spelling.value"),
          british: v.pipe(number("voice.spelling.british"), v.integer("voice.spelling.british must be a whole number")),
          american: v.pipe(number("voice.spelling.american"), v.integer("voice.spelling.american must be a whole number")),
        },
        "voice.spelling must be an object",
      ),
      "The spelling variant, from the words of the spelling-pair list the examples use (`none`: no such word).",
    ),
    headingCase: described(
      jsonObject(
        { value: oneOf(["sentence", "title", "none"] as const, "voice.headingCase.value"), share: share("voice.headingCase.share") },
        "voice.headingCase must be an object",
      ),
      "How headings are capitalised, and the share of the examples' headings in that case (`none`: no heading to tell by).",
    ),
    readingEase: band("voice.readingEase", "Flesch reading ease of the prose."),
    lists: band("voice.lists", "Lists per 1,000 words."),
    questions: band("voice.questions", "Questions per 1,000 words."),
    exclamations: band("voice.exclamations", "Exclamations per 1,000 words."),
    numbers: described(
      jsonObject(
        {
          value: oneOf(["digits", "words", "mixed", "none"] as const, "voice.numbers.value"),
          digits: share("voice.numbers.digits"),
        },
        "voice.numbers must be an object",
      ),
      "Numbers written as digits or as words, and the share in digits.",
    ),
    phrases: described(wordList("voice.phrases", VOICE_LIMITS.phrases), "The house's recurring phrases, by log-odds against a background."),
    avoided: described(
      wordList("voice.avoided", VOICE_LIMITS.words),
      "Common words the examples never use, by log-odds against a background.",
    ),
    excerpts: described(
      v.pipe(
        v.array(string(VOICE_LIMITS.excerpt, "each of voice.excerpts"), "voice.excerpts must be an array of strings"),
        v.maxLength(VOICE_LIMITS.excerpts, `voice.excerpts holds at most ${VOICE_LIMITS.excerpts}`),
      ),
      "Up to three short passages of the examples, shown to the model.",
    ),
  },
  "voice must be an object",
);

/** A learnt voice profile. */
export type VoiceProfile = v.InferOutput<typeof VoiceProfileSchema>;

/** `POST /api/v1/voice`: the examples a voice is learnt from. */
export const VoiceRequestSchema = jsonObject(
  {
    articles: described(
      v.pipe(
        v.array(
          v.pipe(
            v.string("each article must be a string"),
            v.maxLength(VOICE_LIMITS.article, `each article must be at most ${VOICE_LIMITS.article} characters`),
          ),
          "articles must be an array of Markdown texts",
        ),
        v.maxLength(VOICE_LIMITS.articles, `articles holds at most ${VOICE_LIMITS.articles}`),
      ),
      `The team's own articles, as Markdown (front matter allowed): at least ${VOICE_LIMITS.minWords} words of prose in all.`,
    ),
    name: v.optional(described(requiredText(VOICE_LIMITS.name, "name"), "What the voice is called."), "house"),
  },
  "the body must be a JSON object",
);

/** A voice request as sent. */
export type VoiceRequestInput = v.InferInput<typeof VoiceRequestSchema>;
/** A voice request, validated. */
export type VoiceRequest = v.InferOutput<typeof VoiceRequestSchema>;

/** What one example shows, so a user sees where the spread comes from. */
const ExampleSchema = v.object({
  words: v.number(),
  sentenceWords: v.number(),
  person: v.picklist(PERSONS),
  spelling: v.picklist(["en-GB", "en-US", "mixed", "none"]),
  headingCase: v.picklist(["sentence", "title", "none"]),
  language: v.string(),
});

/** `POST /api/v1/voice`'s answer, and the file `inkpress voice` writes. */
export const VoiceResponseSchema = v.object({
  object: v.literal("voice"),
  name: v.string(),
  profile: VoiceProfileSchema,
  examples: described(v.array(ExampleSchema), "Each example's own measures, in the order given."),
});

/** A learnt voice, as answered. */
export type VoiceResponse = v.InferOutput<typeof VoiceResponseSchema>;

/**
 * `style.voice`: a note (text) or a learnt profile (an object). A union alone would answer any
 * fault inside a profile with one message, so the message names the profile's own first fault.
 */
export function voiceField<S extends v.GenericSchema<unknown, string | undefined>>(note: S) {
  return v.optional(
    v.union([note, VoiceProfileSchema], (issue) => {
      const inner = issue.issues?.filter((sub) => typeof issue.input !== "string" || sub.path === undefined) ?? [];
      const sub = typeof issue.input === "string" ? inner[0] : (inner.find((i) => i.path?.length) ?? inner.at(-1));
      if (!sub || (typeof issue.input !== "string" && (typeof issue.input !== "object" || issue.input === null)))
        return "voice must be a note (text) or a voice profile (an object)";
      const at = sub.path?.map((item) => String(item.key)).join(".");
      return at && !sub.message.includes(at) ? `voice.${at}: ${sub.message}` : sub.message;
    }),
  );
}
