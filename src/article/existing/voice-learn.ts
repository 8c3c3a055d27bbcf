/**
 * A house voice learnt from the team's own articles: each example read and counted as analyse
 * reads an article (the engine's voice sample), then every feature taken with the spread the
 * examples show, widened by the margins docs/guarantees.md states, into the profile that
 * `style.voice` carries and the report's voice checks measure against.
 */
import { VOICE_LIMITS, type VoiceProfile, type VoiceRequest } from "../../contract/voice.js";
import { InvalidFieldError } from "../../errors.js";
import { dominantPerson, measureVoice, type VoiceMeasures, type VoiceSample } from "../report/voice-sample.js";
import { readVoiceExample, type VoiceExample } from "./voice.js";
import { pickExcerpts } from "./voice-excerpts.js";
import { avoidedWords, recurringPhrases } from "./voice-vocabulary.js";

/** How far past the examples' own range a band reaches: a share of the edge's value, at least `floor`. */
const MARGINS = {
  sentenceWords: { share: 0.25, floor: 2 },
  contractions: { share: 0.25, floor: 1 },
  readingEase: { share: 0, floor: 10 },
  lists: { share: 0.5, floor: 4 },
  questions: { share: 0.5, floor: 6 },
  exclamations: { share: 0.5, floor: 4 },
} as const;

type Banded = keyof typeof MARGINS;

/** The band of some examples' values, widened by the feature's margin; never below 0 (nor above 100 for reading ease). */
function band(values: readonly number[], feature: Banded, pooled: number): { value: number; min: number; max: number } {
  const { share, floor } = MARGINS[feature];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const round = (n: number) => Math.round(n * 10) / 10;
  const top = feature === "readingEase" ? 121 : Number.POSITIVE_INFINITY;
  return {
    value: round(pooled),
    min: round(Math.max(feature === "readingEase" ? Number.NEGATIVE_INFINITY : 0, lo - Math.max(floor, share * Math.abs(lo)))),
    max: round(Math.min(top, hi + Math.max(floor, share * Math.abs(hi)))),
  };
}

/** The value at a percentile of sorted values (nearest rank). */
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;

/** One example's own measures, as the voice answer lists them. */
interface ExampleMeasures {
  words: number;
  sentenceWords: number;
  person: ReturnType<typeof dominantPerson>["value"];
  spelling: ReturnType<typeof spellingOf>["value"];
  headingCase: ReturnType<typeof headingCaseOf>["value"];
  language: string;
}

/** A voice learnt from examples: the profile `style.voice` carries, and each example's own measures. */
export interface LearntVoice {
  profile: VoiceProfile;
  examples: ExampleMeasures[];
}

/** Learn a voice from a validated request; under {@link VOICE_LIMITS.minWords} words of prose is an error naming `articles`. */
export function learnProfile(request: VoiceRequest): LearntVoice {
  const examples = request.articles.map((markdown, i) => readVoiceExample(markdown, `articles[${i}]`));
  const words = examples.reduce((total, example) => total + example.sample.words, 0);
  if (words < VOICE_LIMITS.minWords) {
    const problem = `the examples hold ${words} words of prose; a voice needs at least ${VOICE_LIMITS.minWords}`;
    throw new InvalidFieldError("articles", problem, `articles: ${problem}`);
  }
  const samples = examples.map((example) => example.sample);
  return {
    profile: profileOf(examples, samples, words),
    examples: examples.map(exampleOf),
  };
}

/** The profile of counted examples. */
function profileOf(examples: readonly VoiceExample[], samples: readonly VoiceSample[], words: number): VoiceProfile {
  const measures = samples.map(measureVoice);
  const pooled = measureVoice(pool(samples));
  const lengths = samples.flatMap((sample) => sample.sentenceWords).sort((a, b) => a - b);
  const banded = (feature: Banded, value: (m: VoiceMeasures) => number | undefined) =>
    band(
      measures.map(value).filter((n): n is number => n !== undefined),
      feature,
      value(pooled) ?? 0,
    );
  const sentences = banded("sentenceWords", (m) => (m.sentenceWords > 0 ? m.sentenceWords : undefined));
  const language = majority(examples.map((example) => example.language));
  return {
    language,
    articles: examples.length,
    words,
    sentenceWords: {
      mean: sentences.value,
      p10: lengths.length ? percentile(lengths, 0.1) : 0,
      p90: lengths.length ? percentile(lengths, 0.9) : 0,
      min: sentences.min,
      max: sentences.max,
    },
    person: { ...pooled.person, share: Math.round(pooled.person.share * 100) / 100 },
    contractions: banded("contractions", (m) => m.contractions),
    spelling: spellingOf(samples),
    headingCase: headingCaseOf(pooled),
    readingEase: banded("readingEase", (m) => m.readingEase),
    lists: banded("lists", (m) => m.lists),
    questions: banded("questions", (m) => m.questions),
    exclamations: banded("exclamations", (m) => m.exclamations),
    numbers: numbersOf(pooled),
    phrases: recurringPhrases(samples, language),
    avoided: language === "en" ? avoidedWords(samples) : [],
    excerpts: pickExcerpts(samples, sentences.value),
  };
}

/** All samples as one. */
function pool(samples: readonly VoiceSample[]): VoiceSample {
  const sum = (f: (s: VoiceSample) => number) => samples.reduce((total, s) => total + f(s), 0);
  const counts = new Map<string, number>();
  for (const s of samples) for (const [word, n] of s.counts) counts.set(word, (counts.get(word) ?? 0) + n);
  return {
    words: sum((s) => s.words),
    sentenceWords: samples.flatMap((s) => s.sentenceWords),
    pronouns: {
      "first-singular": sum((s) => s.pronouns["first-singular"]),
      "first-plural": sum((s) => s.pronouns["first-plural"]),
      second: sum((s) => s.pronouns.second),
    },
    contractions: sum((s) => s.contractions),
    spellings: { "en-GB": samples.flatMap((s) => s.spellings["en-GB"]), "en-US": samples.flatMap((s) => s.spellings["en-US"]) },
    headings: samples.flatMap((s) => s.headings),
    syllables: sum((s) => s.syllables),
    lists: sum((s) => s.lists),
    questions: sum((s) => s.questions),
    exclamations: sum((s) => s.exclamations),
    numbers: { digits: sum((s) => s.numbers.digits), words: sum((s) => s.numbers.words) },
    counts,
    paragraphs: samples.flatMap((s) => s.paragraphs),
    runs: samples.flatMap((s) => s.runs),
  };
}

/** The variant that holds at least 80% of the pair-list words used; `mixed` when neither does, `none` with none. */
function spellingOf(samples: readonly Pick<VoiceSample, "spellings">[]): VoiceProfile["spelling"] {
  const british = samples.reduce((n, s) => n + s.spellings["en-GB"].length, 0);
  const american = samples.reduce((n, s) => n + s.spellings["en-US"].length, 0);
  const all = british + american;
  const value = all === 0 ? "none" : british / all >= 0.8 ? "en-GB" : american / all >= 0.8 ? "en-US" : "mixed";
  return { value, british, american };
}

function headingCaseOf(pooled: VoiceMeasures): VoiceProfile["headingCase"] {
  const { sentence, title } = pooled.headingCases;
  if (sentence + title === 0) return { value: "none", share: 0 };
  const value = title > sentence ? "title" : "sentence";
  return { value, share: Math.round((Math.max(sentence, title) / (sentence + title)) * 100) / 100 };
}

function numbersOf(pooled: VoiceMeasures): VoiceProfile["numbers"] {
  const { count, digits } = pooled.numbers;
  const value = count < 2 ? "none" : digits >= 0.75 ? "digits" : digits <= 0.25 ? "words" : "mixed";
  return { value, digits: Math.round(digits * 100) / 100 };
}

/** The most common of some values (the first on a tie). */
function majority(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

function exampleOf(example: VoiceExample): ExampleMeasures {
  const measures = measureVoice(example.sample);
  return {
    words: example.sample.words,
    sentenceWords: Math.round(measures.sentenceWords * 10) / 10,
    person: dominantPerson(example.sample.pronouns, example.sample.words).value,
    spelling: spellingOf([example.sample]).value,
    headingCase: headingCaseOf(measures).value,
    language: example.language,
  };
}
