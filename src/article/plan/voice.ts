/**
 * What a house voice asks of the writer (`style.voice` as a learnt profile): the other variant's
 * spellings, refused while the model samples; whether headings are in sentence case, which the
 * heading grammar keeps; the words its sentences hold, which the body pass keeps; and a short note for the prompt, the voice described and shown in the
 * examples' own words, within {@link VOICE_PROMPT_CHARS}. Nothing here is written into the article.
 */
import { otherVariant, refusableSpellings } from "../text/spelling.js";
import { wordVectors } from "../text/vectors.js";

type Band = { value: number; min: number; max: number };

/** A house voice as the engine reads it (the writer and the voice checks): the wire's `VoiceProfile` has this shape. */
export interface HouseVoice {
  language: string;
  sentenceWords: { mean: number; p10: number; p90: number; min: number; max: number };
  person: { value: string };
  contractions: Band;
  spelling: { value: "en-GB" | "en-US" | "mixed" | "none" };
  headingCase: { value: "sentence" | "title" | "none" };
  readingEase: Band;
  lists: Band;
  questions: Band;
  exclamations: Band;
  numbers: { value: string; digits: number };
  avoided: readonly string[];
  excerpts: readonly string[];
}

/** Characters of the prompt's voice note at most (about 120 tokens at 4 characters a token). */
const VOICE_PROMPT_CHARS = 480;
/** The refused spellings: the other variant's among the background's most frequent words (a small model writes no rarer ones). */
const COMMON_SPELLINGS = 30_000;

/** The other variant's spellings refused for a voice (none for a voice of mixed or no spelling). */
export function voiceSpellings(voice: HouseVoice | undefined): string[] {
  const variant = voice?.spelling.value;
  if (variant !== "en-GB" && variant !== "en-US") return [];
  const { rows } = wordVectors();
  return refusableSpellings(otherVariant(variant)).filter((word) => (rows.get(word) ?? COMMON_SPELLINGS) < COMMON_SPELLINGS);
}

/** The words a paragraph sentence of a house voice holds: from its 10th to its 90th percentile. */
export interface SentenceSpan {
  least: number;
  most: number;
}

/** Fewest words a span asks of a sentence: the gate's shortest sentence. */
const LEAST_SPAN = 3;

/**
 * The words a paragraph sentence of the voice holds, from its 10th to its 90th percentile, which
 * the body pass keeps while the model samples (body/sentence-length.ts); none for a voice of
 * another language than the article's, or one learnt from too few sentences to tell.
 */
export function sentenceSpan(voice: HouseVoice | undefined, language: string): SentenceSpan | undefined {
  if (!voice || voice.language !== language || voice.sentenceWords.p90 <= 0) return undefined;
  const least = Math.max(LEAST_SPAN, Math.round(voice.sentenceWords.p10));
  return { least, most: Math.max(least + 2, Math.round(voice.sentenceWords.p90)) };
}

/** Whether headings are written in sentence case (every word past the first in lower case, the keyword as given). */
export const sentenceCaseHeadings = (voice: HouseVoice | undefined): boolean => voice?.headingCase.value === "sentence";

const PERSON: Record<string, string> = {
  "first-singular": 'first person ("I")',
  "first-plural": 'first person plural ("we")',
  second: 'second person ("you")',
  third: "third person",
};

/** The voice in a few words, then as many whole excerpts as fit within {@link VOICE_PROMPT_CHARS}. */
export function voiceNote(voice: HouseVoice): string {
  const traits = [
    PERSON[voice.person.value] ?? voice.person.value,
    voice.contractions.value >= 2 ? "contractions" : voice.contractions.value < 0.5 ? "no contractions" : undefined,
    `sentences of about ${Math.round(voice.sentenceWords.mean)} words`,
    voice.spelling.value === "en-GB" ? "British spelling" : voice.spelling.value === "en-US" ? "American spelling" : undefined,
  ].filter(Boolean);
  let note = `Voice: ${traits.join(", ")}.`;
  for (const excerpt of voice.excerpts) {
    const next = `${note}${note.includes("Like this:") ? " " : " Like this: "}${excerpt}`;
    if (next.length > VOICE_PROMPT_CHARS) break;
    note = next;
  }
  return note;
}

/** A resolved style as the analyser takes it: the learnt voice, if any, beside the bans. */
export function voiced<S extends { profile?: HouseVoice }>(style: S): { style: S; voice?: HouseVoice } {
  return style.profile ? { style, voice: style.profile } : { style };
}
