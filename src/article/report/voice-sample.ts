/**
 * What a voice is made of, measured on one article's blocks: the same measurement learns a
 * voice from the examples (src/voice/) and checks an article against it (checks/voice.ts), so
 * a feature is never counted one way when learnt and another when checked.
 */
import { flesch } from "flesch";
import { syllable } from "syllable";
import type { Block } from "../body/document.js";
import { classOf, QUESTION_MARKS, TRAILING } from "../text/scripts.js";
import { variantOf } from "../text/spelling.js";
import { wordSpans } from "../text/text.js";
import type { Person } from "../../contract/voice.js";

/** The pronouns that mark a person (English), contracted forms read by their pronoun ("we'll": "we"). */
const PRONOUNS: Record<Exclude<Person, "third">, ReadonlySet<string>> = {
  "first-singular": new Set(["i", "me", "my", "mine", "myself"]),
  "first-plural": new Set(["we", "us", "our", "ours", "ourselves"]),
  second: new Set(["you", "your", "yours", "yourself", "yourselves"]),
};

/** A contraction: a negative ("don't") or a pronoun's or "there"/"that"/"what"/"let" with a short verb ("you're", "it's", "let's"). */
const CONTRACTION = /^(?:\p{L}+n['’]t|(?:i|you|we|they|he|she|it|that|there|what|who|here|where|let)['’](?:s|re|ve|ll|d|m)|i['’]m)$/iu;
/** A number in digits. */
const DIGITS = /^\d/u;
/** Numbers written as words (English): "one" is left out, as it is a pronoun as often. */
const NUMBER_WORDS = new Set(
  (
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen " +
    "twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion"
  ).split(" "),
);
/** Words a Title Case heading leaves in lower case. */
const MINOR = new Set("a an the and or nor but for of in on at to by from with as vs via into onto over per than up off out".split(" "));
const QUESTION = new RegExp(`[${classOf(QUESTION_MARKS)}][${classOf(TRAILING)}]*$`, "u");
const EXCLAMATION = new RegExp(`!+[${classOf(TRAILING)}]*$`, "u");

/** How a heading is capitalised; `undecided` when it has no word past its first to tell by. */
export type HeadingCase = "sentence" | "title" | "undecided";

/** One article's voice, counted. */
export interface VoiceSample {
  /** Words of the prose (paragraphs and list items; headings aside). */
  words: number;
  /** Words of each paragraph sentence (list items and headings aside). */
  sentenceWords: number[];
  /** Pronouns of each person counted. */
  pronouns: Record<Exclude<Person, "third">, number>;
  contractions: number;
  /** Words of each spelling variant, as written (lower-case). */
  spellings: { "en-GB": string[]; "en-US": string[] };
  /** Each heading (H2 and below) with its case. */
  headings: Array<{ text: string; case: HeadingCase }>;
  /** Syllables of the paragraph sentences, for Flesch reading ease. */
  syllables: number;
  /** Lists (runs of list items). */
  lists: number;
  questions: number;
  exclamations: number;
  numbers: { digits: number; words: number };
  /** Each lower-case word of the prose with its count. */
  counts: Map<string, number>;
  /** The paragraphs, each as its sentences. */
  paragraphs: string[][];
  /** Each sentence's words, lower-case. */
  runs: string[][];
}

/** Count an article's voice from its body blocks (the H1 title is not one of them). */
export function sampleVoice(blocks: readonly Block[], language: string): VoiceSample {
  const sample: VoiceSample = {
    words: 0,
    sentenceWords: [],
    pronouns: { "first-singular": 0, "first-plural": 0, second: 0 },
    contractions: 0,
    spellings: { "en-GB": [], "en-US": [] },
    headings: [],
    syllables: 0,
    lists: new Set(blocks.flatMap((b) => (b.kind === "prose" && b.group !== undefined ? [b.group] : []))).size,
    questions: 0,
    exclamations: 0,
    numbers: { digits: 0, words: 0 },
    counts: new Map(),
    paragraphs: [],
    runs: [],
  };
  for (const block of blocks) {
    if (block.kind === "heading") {
      if (block.depth > 1) sample.headings.push({ text: block.text, case: headingCase(block.text, language) });
      continue;
    }
    for (const sentence of block.sentences) countSentence(sample, sentence, language, block.group === undefined);
    if (block.group === undefined) sample.paragraphs.push(block.sentences);
  }
  return sample;
}

/** Add one sentence's words to the sample; `paragraph` false for a list item (its length and syllables aside). */
function countSentence(sample: VoiceSample, sentence: string, language: string, paragraph: boolean): void {
  const words = wordSpans(sentence, language).map((span) => span.word);
  sample.words += words.length;
  if (QUESTION.test(sentence)) sample.questions++;
  if (EXCLAMATION.test(sentence)) sample.exclamations++;
  if (paragraph) sample.sentenceWords.push(words.length);
  const lowered = words.map((word) => word.toLocaleLowerCase(language).replaceAll("’", "'"));
  sample.runs.push(lowered);
  for (const lower of lowered) {
    sample.counts.set(lower, (sample.counts.get(lower) ?? 0) + 1);
    if (paragraph) sample.syllables += syllable(lower);
    if (CONTRACTION.test(lower)) sample.contractions++;
    const pronoun = lower.replace(/'(?:s|re|ve|ll|d|m)$/u, "");
    for (const person of ["first-singular", "first-plural", "second"] as const)
      if (PRONOUNS[person].has(pronoun)) sample.pronouns[person]++;
    if (DIGITS.test(lower)) sample.numbers.digits++;
    else if (NUMBER_WORDS.has(lower)) sample.numbers.words++;
    const variant = variantOf(lower);
    if (variant) sample.spellings[variant].push(lower);
  }
}

/**
 * A heading's case: Title Case when at least three quarters of its words past the first (the
 * minor words a title leaves lower aside, and words in capitals such as "API") open with a
 * capital; sentence case otherwise.
 */
function headingCase(text: string, language: string): HeadingCase {
  const words = wordSpans(text.replace(/^\s*\d+[.)]\s*/u, ""), language)
    .map((span) => span.word)
    .filter((word) => /\p{L}/u.test(word));
  const telling = words
    .slice(1)
    .filter((word) => !MINOR.has(word.toLocaleLowerCase(language)) && word !== word.toLocaleUpperCase(language));
  if (telling.length === 0) return "undecided";
  const capitalised = telling.filter((word) => /^\p{Lu}/u.test(word)).length;
  return capitalised / telling.length >= 0.75 ? "title" : "sentence";
}

/** Flesch reading ease of the paragraph sentences (the `flesch` package's formula); none without a sentence. */
function readingEase(sample: VoiceSample): number | undefined {
  const sentence = sample.sentenceWords.length;
  const word = sample.sentenceWords.reduce((a, b) => a + b, 0);
  return sentence === 0 || word === 0 ? undefined : flesch({ sentence, word, syllable: sample.syllables });
}

/** An article's voice as rates and shares: what a profile's bands are learnt from and checked against. */
export interface VoiceMeasures {
  /** Mean words per paragraph sentence (0 without one). */
  sentenceWords: number;
  /** The dominant person, and its share of the first- and second-person pronouns (1 for `third`). */
  person: { value: Person; share: number };
  /** Per 100 words. */
  contractions: number;
  readingEase: number | undefined;
  /** Per 1,000 words. */
  lists: number;
  questions: number;
  exclamations: number;
  /** Numbers written in all, and the share in digits. */
  numbers: { count: number; digits: number };
  /** Headings in each case (undecided ones aside). */
  headingCases: { sentence: number; title: number };
}

/** Fewer first- and second-person pronouns than this per 100 words: the voice is in the third person. */
const THIRD_PERSON_BELOW = 1;

/** The dominant person of some pronoun counts over `words` words. */
export function dominantPerson(pronouns: VoiceSample["pronouns"], words: number): { value: Person; share: number } {
  const all = pronouns["first-singular"] + pronouns["first-plural"] + pronouns.second;
  if (words === 0 || (all / words) * 100 < THIRD_PERSON_BELOW) return { value: "third", share: 1 };
  const value = (["first-singular", "first-plural", "second"] as const).reduce((best, p) => (pronouns[p] > pronouns[best] ? p : best));
  return { value, share: pronouns[value] / all };
}

/** A sample's measures. */
export function measureVoice(sample: VoiceSample): VoiceMeasures {
  const per = (count: number, words: number) => (sample.words === 0 ? 0 : (count / sample.words) * words);
  const sentences = sample.sentenceWords.length;
  const numbers = sample.numbers.digits + sample.numbers.words;
  return {
    sentenceWords: sentences === 0 ? 0 : sample.sentenceWords.reduce((a, b) => a + b, 0) / sentences,
    person: dominantPerson(sample.pronouns, sample.words),
    contractions: per(sample.contractions, 100),
    readingEase: readingEase(sample),
    lists: per(sample.lists, 1000),
    questions: per(sample.questions, 1000),
    exclamations: per(sample.exclamations, 1000),
    numbers: { count: numbers, digits: numbers === 0 ? 0 : sample.numbers.digits / numbers },
    headingCases: {
      sentence: sample.headings.filter((h) => h.case === "sentence").length,
      title: sample.headings.filter((h) => h.case === "title").length,
    },
  };
}
