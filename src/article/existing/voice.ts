/**
 * One example article of a voice read and counted as analyse reads an article: the page's
 * blocks, its language (declared, else detected) and its voice sample.
 */
import { languageOf } from "../report/checks/language.js";
import { sampleVoice, type VoiceSample } from "../report/voice-sample.js";
import { countBlocks, proseText, readPage } from "./page.js";

/** An example article's voice sample and language. */
export interface VoiceExample {
  sample: VoiceSample;
  language: string;
}

/** Read one Markdown example; front matter that cannot be read is an error naming `field`. */
export function readVoiceExample(markdown: string, field: string): VoiceExample {
  const page = readPage({ markdown }, field);
  const declared = page.declared.language?.toLowerCase().split(/[-_]/u)[0];
  const language = declared ?? languageOf(proseText(page)) ?? "en";
  return { sample: sampleVoice(countBlocks(page.blocks, language), language), language };
}
