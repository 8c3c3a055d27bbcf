/**
 * The voice checks: an article measured against a house voice learnt from the team's own
 * articles (src/voice/), feature by feature, each passing within the band the examples allow.
 * They are form, not substance: each weighs 1 in the score and none caps it (analyse.ts).
 */
import type { AnalyseInput } from "../input.js";
import { measureVoice, sampleVoice, type VoiceMeasures, type VoiceSample } from "../voice-sample.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Article, type Measure, na, plural, verdict } from "./article.js";

/** The profile the checks measure against, as `style.voice` carries it (the wire's VoiceProfile). */
export type VoiceTargets = NonNullable<AnalyseInput["voice"]>;
type Band = { min: number; max: number };

/** Avoided words an article may use per 1,000 words before the check fails. */
const AVOIDED_PER_1000 = 4;
/** How far an article's share of numbers in digits may lie from the voice's. */
const DIGITS_SPREAD = 0.35;
/** The share of an article's headings that may be in the other case. */
const OTHER_CASE_SHARE = 0.2;

const fixed = (n: number) => String(Math.round(n * 10) / 10);
const range = (band: Band) => `${fixed(band.min)}–${fixed(band.max)}`;
const within = (n: number, band: Band) => n >= band.min && n <= band.max;

/** The article's voice, measured once for every voice check. */
const measured = new WeakMap<Article, { sample: VoiceSample; measures: VoiceMeasures }>();
function voiceOf(article: Article) {
  let found = measured.get(article);
  if (!found) {
    const sample = sampleVoice(article.body, article.input.language);
    found = { sample, measures: measureVoice(sample) };
    measured.set(article, found);
  }
  return found;
}

/** A voice check: not applicable without a voice, or for an article in another language than the voice's. */
function withVoice(check: (voice: VoiceTargets, measures: VoiceMeasures, sample: VoiceSample) => ReturnType<Measure>): Measure {
  return (article) => {
    const voice = article.input.voice;
    if (!voice) return na("No voice was given, so this check does not apply.");
    if (voice.language !== article.input.language)
      return na(
        `The voice was learnt from articles in ${voice.language}; this article is in ${article.input.language}, so this check does not apply.`,
      );
    const { measures, sample } = voiceOf(article);
    return check(voice, measures, sample);
  };
}

/** A check of a rate within its band. */
const banded = (
  what: (m: VoiceMeasures) => number | undefined,
  band: (v: VoiceTargets) => Band,
  say: (found: string, expected: string) => string,
) =>
  withVoice((voice, measures) => {
    const found = what(measures);
    if (found === undefined) return na("The article has no sentence to measure, so this check does not apply.");
    return verdict(within(found, band(voice)), say(fixed(found), range(band(voice))));
  });

/** The voice checks by id. */
export const voiceChecks = {
  "voice-sentence-length": banded(
    (m) => (m.sentenceWords > 0 ? m.sentenceWords : undefined),
    (v) => v.sentenceWords,
    (found, expected) => `Sentences average ${found} words; the house voice ${expected}.`,
  ),
  "voice-person": withVoice((voice, measures) =>
    verdict(
      measures.person.value === voice.person.value,
      `The article is written in the ${measures.person.value} person; the house voice in the ${voice.person.value}.`,
    ),
  ),
  "voice-contractions": banded(
    (m) => m.contractions,
    (v) => v.contractions,
    (found, expected) => `${found} contractions per 100 words; the house voice ${expected}.`,
  ),
  "voice-spelling": withVoice((voice, _measures, sample) => spelling(voice, sample)),
  "voice-heading-case": withVoice((voice, measures) => headingCase(voice, measures)),
  "voice-readability": banded(
    (m) => m.readingEase,
    (v) => v.readingEase,
    (found, expected) => `Flesch reading ease ${found}; the house voice ${expected}.`,
  ),
  "voice-lists": banded(
    (m) => m.lists,
    (v) => v.lists,
    (found, expected) => `${found} lists per 1,000 words; the house voice ${expected}.`,
  ),
  "voice-questions": banded(
    (m) => m.questions,
    (v) => v.questions,
    (found, expected) => `${found} questions per 1,000 words; the house voice ${expected}.`,
  ),
  "voice-exclamations": banded(
    (m) => m.exclamations,
    (v) => v.exclamations,
    (found, expected) => `${found} exclamations per 1,000 words; the house voice ${expected}.`,
  ),
  "voice-numbers": withVoice((voice, measures) => numbers(voice, measures)),
  "voice-vocabulary": withVoice((voice, _measures, sample) => vocabulary(voice, sample)),
} satisfies Partial<Record<CheckId, Measure>>;

function spelling(voice: VoiceTargets, sample: VoiceSample) {
  const expected = voice.spelling.value;
  if (expected !== "en-GB" && expected !== "en-US") return na(`The house voice's spelling is ${expected}, so this check does not apply.`);
  const other = expected === "en-GB" ? "en-US" : "en-GB";
  const found = [...new Set(sample.spellings[other])];
  return verdict(
    found.length === 0,
    found.length === 0
      ? `No ${other} spelling of the pair list (${plural(sample.spellings[expected].length, `${expected} word`)}); the house voice spells ${expected}.`
      : `Found ${other} spellings (${found
          .slice(0, 5)
          .map((w) => `“${w}”`)
          .join(", ")}); the house voice spells ${expected}.`,
  );
}

function headingCase(voice: VoiceTargets, measures: VoiceMeasures) {
  const expected = voice.headingCase.value;
  if (expected === "none") return na("The house voice's examples have no heading to tell a case by, so this check does not apply.");
  const { sentence, title } = measures.headingCases;
  if (sentence + title === 0) return na("The article has no heading to tell a case by, so this check does not apply.");
  const other = expected === "title" ? sentence : title;
  const otherName = expected === "title" ? "sentence case" : "Title Case";
  return verdict(
    other / (sentence + title) <= OTHER_CASE_SHARE,
    `${plural(other, "heading")} of ${sentence + title} in ${otherName}; the house voice writes headings in ` +
      `${expected === "title" ? "Title Case" : "sentence case"}.`,
  );
}

function numbers(voice: VoiceTargets, measures: VoiceMeasures) {
  if (voice.numbers.value === "none") return na("The house voice's examples write too few numbers to tell, so this check does not apply.");
  if (measures.numbers.count < 2) return na("The article writes fewer than 2 numbers, so this check does not apply.");
  const share = measures.numbers.digits;
  return verdict(
    Math.abs(share - voice.numbers.digits) <= DIGITS_SPREAD,
    `${Math.round(share * 100)}% of numbers in digits; the house voice ${Math.round(voice.numbers.digits * 100)}% (${voice.numbers.value}).`,
  );
}

function vocabulary(voice: VoiceTargets, sample: VoiceSample) {
  if (voice.avoided.length === 0) return na("The house voice names no words it avoids, so this check does not apply.");
  const used = voice.avoided.filter((word) => sample.counts.has(word));
  const uses = used.reduce((n, word) => n + sample.counts.get(word)!, 0);
  const rate = sample.words === 0 ? 0 : (uses / sample.words) * 1000;
  return verdict(
    rate <= AVOIDED_PER_1000,
    `${fixed(rate)} uses per 1,000 words of words the house never writes${
      used.length
        ? ` (${used
            .slice(0, 5)
            .map((w) => `“${w}”`)
            .join(", ")})`
        : ""
    }; the house voice at most ${AVOIDED_PER_1000}.`,
  );
}
