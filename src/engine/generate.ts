import type { Heading, List, Paragraph } from "mdast";
import type { Prompt } from "../model/runtime.js";
import type { ModelWriter } from "../model/writer.js";
import type { Plan, PlannedSection, SectionKind } from "./plan.js";
import { headingPrompt, passagePrompt, summaryPrompt, titlePrompt, type PassageBrief } from "./prompts.js";
import { SentenceChunker, cleanProse } from "./sentences.js";
import { capitalise, countPhrase, countWords, cutAtWord, firstWords, hasPhrase, lowerFirst, splitSentences } from "./text.js";

/** Content nodes a section may hold: the mdast contract between generate and template. */
export type SectionContent = Paragraph | List | Heading;

/** One written section. */
export interface GeneratedSection {
  kind: SectionKind;
  /** The section heading; null for the introduction, which sits under the title. */
  heading: string | null;
  /** Paragraphs, lists and H3 subheadings (FAQ questions in the `faq` section). */
  children: SectionContent[];
}

/** Everything the model wrote, in document order. */
export interface GeneratedArticle {
  title: string;
  /** Empty until the body is written: it is drawn from the body when the model's summary falls short. */
  metaDescription: string;
  sections: GeneratedSection[];
}

/** What generation needs besides the plan. */
export interface GenerateOptions {
  writer: ModelWriter;
  signal?: AbortSignal;
  /** Called when the title and every heading are known, before any prose. */
  onOutline?: (article: GeneratedArticle) => void;
  /** Called with the running total of body words whenever a sentence is added. */
  onWords?: (words: number) => void;
  /**
   * Called after every change to the article: a section started, a sentence added.
   * The article only ever grows at its end, so its serialisation only grows too.
   * It is the live object: read it before returning, do not keep it.
   */
  onProgress?: (article: GeneratedArticle) => void;
}

/** Keywords a passage must hold. */
interface PassageKeywords {
  primaryUses: number;
  secondary: string[];
}

const TITLE_MAX = 60;
const DESCRIPTION = { min: 120, max: 156 } as const;
const HEADING_WORDS = 7;
/** Paragraphs close at about this many words, so none comes near the 150-word limit. */
const PARAGRAPH_WORDS = 90;
/** Model calls a passage may take; a model that keeps stopping early gets re-prompted this often. */
const PASSAGE_ATTEMPTS = 8;
/** Most primary keyword uses per 100 words the model may add on its own (density limit 2.5 %). */
const PRIMARY_CAP = 0.02;
/** How much further past its budget than short of it a passage may end. */
const OVERSHOOT = 1.5;
/** Share of the requested length the generator aims at. */
const LENGTH_AIM = 1.02;
const NO_KEYWORDS: PassageKeywords = { primaryUses: 0, secondary: [] };

/**
 * The one stage that talks to the model. The model writes the title, headings and
 * prose; code keeps every promise as the text arrives, so the article only ever grows
 * at its end: sentences are whole and unique, each passage stays inside its word
 * budget, and keywords the model does not use are placed by natural lead-in sentences.
 */
export async function generate(plan: Plan, options: GenerateOptions): Promise<GeneratedArticle> {
  return new ArticleGenerator(plan, options).run();
}

class ArticleGenerator {
  private calls = 0;
  private tokensPerWord = 2;
  private readonly seen = new Set<string>();
  /** First words of the last two sentences, in document order. */
  private starts: string[] = [];
  private primaryInBody = 0;
  private wordsWritten = 0;
  private readonly language: string;
  private readonly article: GeneratedArticle = { title: "", metaDescription: "", sections: [] };
  /** The paragraph sentences are added to, until it is full. */
  private openParagraph: { node: Paragraph; words: number } | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly options: GenerateOptions,
  ) {
    this.language = plan.request.language;
  }

  async run(): Promise<GeneratedArticle> {
    const { plan, article } = this;
    article.title = plan.request.seo.title ?? (await this.writeTitle());
    const outline = await this.writeOutline(article.title);
    this.options.onOutline?.({
      ...article,
      sections: outline.map((o) => ({
        kind: o.planned.kind,
        heading: o.heading,
        children: (o.planned.kind === "faq" ? plan.faqQuestions : o.subheadings).map(subheading),
      })),
    });
    // Aim a little over the requested length: the ±10 % rule allows it, and "at least 300 words" then holds for 300.
    let remaining = Math.round(plan.request.length * LENGTH_AIM) - this.fixedWords(outline);
    let shares = outline.reduce((n, o) => n + o.planned.share, 0);
    for (const section of outline) {
      const budget = Math.max(10, Math.round((remaining * section.planned.share) / shares));
      shares -= section.planned.share;
      remaining -= await this.writeSection(section, budget);
    }
    article.metaDescription = plan.request.seo.description ?? (await this.writeDescription());
    return article;
  }

  // --- title, headings and description -------------------------------------------------

  private async writeTitle(): Promise<string> {
    const { primary } = this.plan;
    const phrase = cleanHeading(await this.complete(titlePrompt(this.plan), 24), this.language, 8);
    const at = phrase.toLocaleLowerCase(this.language).indexOf(primary.toLocaleLowerCase(this.language));
    if (phrase.length <= TITLE_MAX && hasPhrase(phrase, primary, this.language) && at <= phrase.length / 2) return phrase;
    const lead = capitalise(primary, this.language);
    const combined = phrase ? cutAtWord(`${lead}: ${phrase}`, TITLE_MAX, this.language) : lead;
    return combined.length > lead.length + 2 ? combined : cutAtWord(lead, TITLE_MAX, this.language);
  }

  private async writeHeading(index: number, taken: Set<string>, parent?: string): Promise<string> {
    const title = this.article.title;
    for (let attempt = 0; attempt < 3; attempt++) {
      const heading = cleanHeading(await this.complete(headingPrompt(this.plan, title, index, parent), 20), this.language, HEADING_WORDS);
      const key = heading.toLocaleLowerCase(this.language);
      if (heading && !taken.has(key)) {
        taken.add(key);
        return heading;
      }
    }
    const fallback = capitalise(`${firstWords(this.plan.request.topic, 5, this.language)} ${taken.size}`, this.language);
    taken.add(fallback.toLocaleLowerCase(this.language));
    return fallback;
  }

  /** Put the primary keyword into a heading with one of the language's natural patterns. */
  private withKeyword(heading: string, index: number): string {
    const { primary, labels } = this.plan;
    if (hasPhrase(heading, primary, this.language)) return heading;
    const pattern = labels.headingWithKeyword[index % labels.headingWithKeyword.length]!;
    const short = firstWords(heading, 4, this.language);
    return capitalise(pattern.replace("{k}", primary).replace("{h}", lowerFirst(short, this.language)), this.language);
  }

  /** Every heading, before any prose: the outline is known (and can be streamed) early. */
  private async writeOutline(title: string): Promise<Array<{ planned: PlannedSection; heading: string | null; subheadings: string[] }>> {
    const taken = new Set<string>([title.toLocaleLowerCase(this.language)]);
    const outline = [];
    let bodyIndex = 0;
    for (const planned of this.plan.sections) {
      let heading = planned.label;
      if (planned.kind === "body") {
        heading = await this.writeHeading(bodyIndex, taken);
        if (planned.headingKeyword) heading = this.withKeyword(heading, bodyIndex);
        bodyIndex++;
      }
      const subheadings: string[] = [];
      for (let i = 0; i < planned.subsections; i++) subheadings.push(await this.writeHeading(i, taken, heading ?? title));
      outline.push({ planned, heading, subheadings });
    }
    return outline;
  }

  private async writeDescription(): Promise<string> {
    const { primary } = this.plan;
    const summary = new SentenceChunker(this.language).push(`${await this.complete(summaryPrompt(this.plan, this.article.title), 80)}\n`);
    const body = this.article.sections.flatMap((s) => s.children.flatMap((c) => (c.type === "paragraph" ? splitSentences(textOf(c), this.language) : [])));
    let text = "";
    for (const sentence of [...summary, ...body]) {
      if (text.length >= DESCRIPTION.min) break;
      text = text ? `${text} ${sentence}` : sentence;
    }
    if (!hasPhrase(cutAtWord(text, DESCRIPTION.max, this.language), primary, this.language)) {
      text = `${capitalise(primary, this.language)}: ${text}`;
    }
    return cutAtWord(text, DESCRIPTION.max, this.language);
  }

  // --- sections -------------------------------------------------------------------------

  /** Words the reader will see outside the prose: visible headings and FAQ questions. */
  private fixedWords(outline: Array<{ heading: string | null; subheadings: string[] }>): number {
    const visible = this.plan.headings && this.plan.preset !== "paragraphs";
    let words = this.plan.faqQuestions.reduce((n, q) => n + countWords(q, this.language), 0);
    if (!visible) return words;
    for (const o of outline) {
      words += [o.heading ?? "", ...o.subheadings].reduce((n, h) => n + countWords(h, this.language), 0);
    }
    return words;
  }

  /** Write one section within `budget` words of prose; returns the words written. */
  private async writeSection(section: { planned: PlannedSection; heading: string | null; subheadings: string[] }, budget: number): Promise<number> {
    const { planned, subheadings } = section;
    const heading = section.heading ?? this.article.title;
    this.article.sections.push({ kind: planned.kind, heading: section.heading, children: [] });
    this.progress();
    const keywords = { primaryUses: planned.primaryUses, secondary: planned.secondary };

    if (planned.kind === "takeaways") {
      const count = this.plan.takeaways;
      const brief = { part: `the ${count} key takeaways, one short sentence each`, heading, words: budget, keywords: [] };
      return this.writePassage(brief, NO_KEYWORDS, { list: true, maxSentences: count });
    }
    if (planned.kind === "faq") {
      let words = 0;
      const questions = this.plan.faqQuestions;
      for (const [i, question] of questions.entries()) {
        this.addSubheading(question);
        const share = Math.round((budget - words) / (questions.length - i));
        words += await this.writePassage({ part: `the answer to the question "${question}"`, heading: question, words: share, keywords: [] }, NO_KEYWORDS);
      }
      return words;
    }
    if (subheadings.length === 0) {
      const brief = { part: partName(planned.kind, heading), heading, words: budget, keywords: [this.plan.primary, ...planned.secondary] };
      return this.writePassage(brief, keywords);
    }
    // Subsections share the budget; the first carries the section's keywords.
    let words = 0;
    for (const [i, sub] of subheadings.entries()) {
      this.addSubheading(sub);
      const share = Math.round((budget - words) / (subheadings.length - i));
      const brief = { part: `the subsection "${sub}" of "${heading}"`, heading: sub, words: share, keywords: i === 0 ? [this.plan.primary] : [] };
      words += await this.writePassage(brief, i === 0 ? keywords : NO_KEYWORDS);
    }
    return words;
  }

  private addSubheading(text: string): void {
    this.current().children.push(subheading(text));
    this.openParagraph = undefined;
    // A question shown as a paragraph (headings off) is a sentence of the body too.
    if (!this.plan.headings && this.current().kind === "faq") this.track(text);
    this.progress();
  }

  // --- prose ----------------------------------------------------------------------------

  /**
   * Prose of about `brief.words` words, keywords placed, added to the current section
   * sentence by sentence. The model is re-prompted to continue after its last sentence
   * while it stops short; a sentence is taken only while it brings the passage about as close
   * to its budget, so no passage ever needs trimming. Returns the words written.
   */
  private async writePassage(brief: PassageBrief, keywords: PassageKeywords, shape: { list?: boolean; maxSentences?: number } = {}): Promise<number> {
    const { primary } = this.plan;
    this.openParagraph = undefined;
    const passage = { words: 0, sentences: 0, last: undefined as string | undefined };
    const add = (text: string) => {
      this.addSentence(text, shape.list === true);
      passage.words += countWords(text, this.language);
      passage.sentences++;
      passage.last = text;
      if (hasPhrase(text, primary, this.language)) primaryLeft--;
      secondaryLeft = secondaryLeft.filter((k) => !hasPhrase(text, k, this.language));
    };
    let primaryLeft = keywords.primaryUses;
    let secondaryLeft = [...keywords.secondary];
    const leadInWords = 9;
    const reserved = () => (Math.max(0, primaryLeft) + secondaryLeft.length) * leadInWords;
    const placeLeadIn = (keyword: string) => {
      const text = this.leadIn(keyword);
      if (text) add(text);
      return text !== undefined;
    };
    // The primary keyword opens the passage, so it is in the first two sentences.
    if (primaryLeft > 0) placeLeadIn(primary);
    const step = brief.words / Math.max(1, keywords.primaryUses);

    let idle = 0;
    for (let attempt = 0; attempt < PASSAGE_ATTEMPTS && idle < 3; attempt++) {
      const target = brief.words - reserved() - passage.words;
      if (target <= 0 || (shape.maxSentences !== undefined && passage.sentences >= shape.maxSentences)) break;
      const prompt = passagePrompt(this.plan, this.article.title, { ...brief, words: target, after: passage.last });
      const maxTokens = Math.ceil(target * this.tokensPerWord * 1.5) + 16;
      const chunker = new SentenceChunker(this.language);
      const before = { sentences: passage.sentences, words: 0, tokens: this.tokenCount() };
      let full = false;
      for await (const piece of this.stream(prompt, maxTokens)) {
        for (const text of chunker.push(piece)) {
          const n = countWords(text, this.language);
          before.words += n;
          const budget = brief.words - reserved();
          // Take a sentence while it brings the passage closer to its budget, leaning to
          // overshoot a little: the length rule has room above, "at least 300 words" has none below.
          if (passage.words + n - budget > OVERSHOOT * (budget - passage.words)) {
            full = true;
            break;
          }
          if (!this.acceptable(text)) continue;
          add(text);
          if (secondaryLeft.length && passage.sentences >= 2) placeLeadIn(secondaryLeft[0]!);
          if (primaryLeft > 0 && passage.words >= step * (keywords.primaryUses - primaryLeft)) {
            if (!placeLeadIn(primary)) primaryLeft = 0;
          }
          if (shape.maxSentences !== undefined && passage.sentences >= shape.maxSentences) {
            full = true;
            break;
          }
        }
        if (full) break;
      }
      const tokens = this.tokenCount() - before.tokens;
      if (before.words > 0) this.tokensPerWord = Math.min(6, Math.max(1, tokens / before.words));
      if (full) break;
      idle = passage.sentences > before.sentences ? 0 : idle + 1;
    }
    // Keywords the passage still owes close it: required placements are never skipped.
    for (const keyword of [...secondaryLeft]) placeLeadIn(keyword);
    while (primaryLeft > 0 && placeLeadIn(primary));
    return passage.words;
  }

  /** A lead-in sentence for a keyword not yet used in the article, or undefined when none is left. */
  private leadIn(keyword: string): string | undefined {
    for (const template of this.plan.labels.leadIns) {
      const text = capitalise(template.replace("{k}", keyword), this.language);
      if (this.acceptable(text, false)) return text;
    }
    return undefined;
  }

  /**
   * Whether a sentence may join the article: new, not holding a keyword twice, not a
   * third start with the same word in a row, and (for model text) not pushing the
   * primary keyword over its density cap.
   */
  private acceptable(text: string, fromModel = true): boolean {
    if (this.seen.has(normalise(text))) return false;
    const { primary, secondary } = this.plan;
    if ([primary, ...secondary].some((k) => countPhrase(text, k, this.language) > 1)) return false;
    const [a, b] = this.starts;
    const first = firstWord(text, this.language);
    if (a !== undefined && a === b && b === first) return false;
    return !(fromModel && hasPhrase(text, primary, this.language) && this.primaryInBody + 1 > this.plan.request.length * PRIMARY_CAP);
  }

  /** Append a sentence at the end of the article: to the list, or to the open paragraph (a new one when full). */
  private addSentence(text: string, listItem: boolean): void {
    const section = this.current();
    const words = countWords(text, this.language);
    if (listItem) {
      let list = section.children.at(-1);
      if (list?.type !== "list") {
        list = { type: "list", ordered: false, spread: false, children: [] };
        section.children.push(list);
      }
      list.children.push({ type: "listItem", spread: false, children: [paragraph(text)] });
    } else if (this.openParagraph && this.openParagraph.words + words <= PARAGRAPH_WORDS * 1.3) {
      const value = this.openParagraph.node.children[0] as { value: string };
      value.value += ` ${text}`;
      this.openParagraph.words += words;
    } else {
      const node = paragraph(text);
      section.children.push(node);
      this.openParagraph = { node, words };
    }
    if (this.openParagraph && this.openParagraph.words >= PARAGRAPH_WORDS) this.openParagraph = undefined;
    this.track(text);
    this.wordsWritten += words;
    this.options.onWords?.(this.wordsWritten);
    this.progress();
  }

  /** Remember a sentence in document order for the uniqueness, start and density rules. */
  private track(text: string): void {
    this.seen.add(normalise(text));
    this.starts = [this.starts.at(-1) ?? "", firstWord(text, this.language)];
    this.primaryInBody += countPhrase(text, this.plan.primary, this.language);
  }

  private current(): GeneratedSection {
    return this.article.sections.at(-1)!;
  }

  private progress(): void {
    this.options.onProgress?.(this.article);
  }

  // --- model calls ----------------------------------------------------------------------

  private stream(prompt: Prompt, maxTokens: number): AsyncGenerator<string> {
    const seed = (this.plan.request.seed + this.calls++) >>> 0;
    return this.options.writer.write(prompt, { maxTokens, seed, signal: this.options.signal });
  }

  /** A short answer, whole; when `maxTokens` cut it, its last, perhaps partial, word is dropped. */
  private async complete(prompt: Prompt, maxTokens: number): Promise<string> {
    let text = "";
    for await (const piece of this.stream(prompt, maxTokens)) text += piece;
    const firstLine = text.trimStart().split("\n")[0]!;
    return this.options.writer.truncated && firstLine === text.trimStart() ? text.replace(/\s*\S+\s*$/u, "") : text;
  }

  private tokenCount(): number {
    return this.options.writer.usage.completionTokens;
  }
}

function subheading(text: string): Heading {
  return { type: "heading", depth: 3, children: [{ type: "text", value: text }] };
}

function paragraph(text: string): Paragraph {
  return { type: "paragraph", children: [{ type: "text", value: text }] };
}

function textOf(node: Paragraph): string {
  return node.children.map((c) => ("value" in c ? c.value : "")).join("");
}

function partName(kind: SectionKind, heading: string): string {
  if (kind === "introduction") return "the introduction";
  if (kind === "conclusion") return "the conclusion";
  return `the section "${heading}"`;
}

/** First line of a model answer as a heading: clean, no closing punctuation, at most `words` words. */
function cleanHeading(text: string, language: string, words: number): string {
  const line = splitSentences(text.split(/\n/).find((l) => cleanProse(l)) ?? "", language)[0] ?? "";
  const clean = cleanProse(line).replace(/["“”«»]/g, "").replace(/^'+|'+$/g, "");
  return capitalise(firstWords(clean, words, language).replace(/[\s.,;:!?。！？、，-]+$/u, ""), language);
}

function normalise(text: string): string {
  return text.toLocaleLowerCase().replace(/\s+/g, " ").trim();
}

function firstWord(text: string, language: string): string {
  return firstWords(text, 1, language).toLocaleLowerCase(language).replace(/[^\p{L}\p{N}]+$/u, "");
}
