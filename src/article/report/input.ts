/** What the analyser is given: the written document's blocks and the targets it is measured against. */
import type { Block } from "../body/document.js";
import type { Preset } from "../../contract/presets.js";
import type { GroundingStats } from "../grounding/grounding.js";
import type { Source } from "../grounding/sources.js";
import type { HouseVoice } from "../plan/voice.js";

/** A source the request hands the writer: figures in its text are supported. */
export type SourceText = Source;

/** What the analyser measures. */
export interface AnalyseInput {
  /** The body blocks in document order (the H1 title is not one of them). */
  blocks: readonly Block[];
  /** Whether the article starts with its title as H1. */
  hasTitle: boolean;
  /** Article title (also the H1 when headingTags). */
  title: string;
  metaDescription: string;
  slug: string;
  /** Normalised; the first is primary; may be empty. */
  keywords: string[];
  /**
   * Texts that say what the article is about, besides its keywords: the topic, and a title its
   * author (or the request) gave. The on-topic check measures the article against their words.
   * @default [] (only the keywords and sources then)
   */
  about?: readonly string[];
  /**
   * Phrases code steered into the text (the keywords, link anchors): their occurrences are not
   * the article's own words, so they never show that it is on topic. None for an article
   * analysed as it is (its author wrote every word).
   * @default []
   */
  steered?: readonly string[];
  /** ISO 639-1, lower-case. */
  language: string;
  headingTags: boolean;
  preset: Preset;
  /** Requested words; 0 when none was requested (an article analysed as it is). */
  targetLength: number;
  /**
   * The resolved style (the request's over the key's default). `avoid`: phrases the article
   * must not hold; `cliches: false` lets the built-in clichés go unscored.
   * @default { avoid: [], cliches: true }
   */
  style?: { avoid?: readonly string[]; cliches?: boolean };
  /**
   * A house voice learnt from the team's articles (`style.voice` as a profile): the voice checks
   * measure against it. @default none (every voice check not applicable)
   */
  voice?: HouseVoice;
  /**
   * Every text the request supplied (topic, tone, keywords, title, description, style, …):
   * a figure in one of them is not invented. `requestTexts(request)` collects them.
   * @default []
   */
  given?: readonly string[];
  /**
   * The request's sources: a figure in one of them is supported.
   * @default []
   */
  sources?: readonly SourceText[];
  /**
   * What the writer did with the request's sources and links: sources given and cited,
   * pages given, links the plan wanted and links placed, and the pages left out with why.
   * @default none (both checks not applicable)
   */
  grounding?: GroundingStats;
  /**
   * The edited outline the article was written to: its headings and word budgets.
   * @default none (the outline check not applicable)
   */
  outline?: { introduction: number; headings: ReadonlyArray<{ level: number; text: string; words: number }> };
}
