/**
 * The excerpts a voice shows the model: short paragraphs of the examples, one an example, whose
 * sentences run closest to the voice's mean length, so the model sees the house at its most typical.
 */
import { VOICE_LIMITS } from "../../contract/voice.js";
import type { VoiceSample } from "../report/voice-sample.js";

/** Words of a paragraph that can stand as an excerpt. */
const EXCERPT_WORDS = { min: 15, max: 80 } as const;

/** Up to {@link VOICE_LIMITS.excerpts} paragraphs, each whole and at most {@link VOICE_LIMITS.excerpt} characters. */
export function pickExcerpts(samples: readonly VoiceSample[], meanWords: number): string[] {
  const out: string[] = [];
  for (const sample of samples) {
    if (out.length >= VOICE_LIMITS.excerpts) break;
    let best: { text: string; distance: number } | undefined;
    for (const sentences of sample.paragraphs) {
      const text = sentences.join(" ");
      const words = text.split(/\s+/u).length;
      if (sentences.length < 2 || words < EXCERPT_WORDS.min || words > EXCERPT_WORDS.max || text.length > VOICE_LIMITS.excerpt) continue;
      const distance = Math.abs(words / sentences.length - meanWords);
      if (!best || distance < best.distance) best = { text, distance };
    }
    if (best) out.push(best.text);
  }
  return out;
}
