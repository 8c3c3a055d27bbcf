import type { Heading, List, Paragraph } from "mdast";
import type { ModelWriter } from "../model/writer.js";
import type { Prompt } from "../model/runtime.js";
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
  metaDescription: string;
  sections: GeneratedSection[];
}

/** What generation needs besides the plan. */
export interface GenerateOptions {
  writer: ModelWriter;
  signal?: AbortSignal;
}

/** A sentence of the draft; `placed` ones were written by code to place a keyword and are never trimmed. */
interface Sentence {
  text: string;
  placed: boolean;
}

type DraftPart = { type: "subheading"; text: string } | { type: "prose"; sentences: Sentence[]; brief: PassageBrief } | { type: "list"; items: Sentence[] };

interface DraftSection {
  planned: PlannedSection;
  heading: string | null;
  parts: DraftPart[];
}

const TITLE_MAX = 60;
const DESCRIPTION = { min: 120, max: 156 } as const;
const HEADING_WORDS = 7;
const PARAGRAPH_WORDS = 90;
/** Model calls a passage may take; a model that keeps stopping early gets re-prompted this often. */
const PASSAGE_ATTEMPTS = 8;
/** The length rule allows ±10 %; aim inside it so one sentence more or less still lands. */
const LENGTH_SLACK = 0.05;

/**
 * The one stage that talks to the model. The model writes the title, headings and
 * prose; code keeps every promise: sentences are whole and unique, each passage
 * stays inside its word budget, and keywords that the model did not place are
 * placed by a natural lead-in sentence.
 */
export async function generate(plan: Plan, options: GenerateOptions): Promise<GeneratedArticle> {
  return new ArticleGenerator(plan, options).run();
}

class ArticleGenerator {
  private calls = 0;
  private tokensPerWord = 2;
  private readonly seen = new Set<string>();
  private readonly language: string;

  constructor(
    private readonly plan: Plan,
    private readonly options: GenerateOptions,
  ) {
    this.language = plan.request.language;
  }

  async run(): Promise<GeneratedArticle> {
    const { plan } = this;
    const title = plan.request.seo.title ?? (await this.writeTitle());
    const sections = await this.writeOutline(title);
    await this.writeProse(title, sections);
    await this.fitLength(title, sections);
    const metaDescription = plan.request.seo.description ?? (await this.writeDescription(title, sections));
    return { title, metaDescription, sections: sections.map((s) => this.toSection(s)) };
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

  private async writeHeading(title: string, index: number, taken: Set<string>, parent?: string): Promise<string> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const heading = cleanHeading(await this.complete(headingPrompt(this.plan, title, index, parent), 20), this.language, HEADING_WORDS);
      const key = heading.toLocaleLowerCase(this.language);
      if (heading && !taken.has(key)) {
        taken.add(key);
        return heading;
      }
    }
    const fallback = `${firstWords(this.plan.request.topic, 5, this.language)} ${index + 1}`;
    taken.add(fallback.toLocaleLowerCase(this.language));
    return capitalise(fallback, this.language);
  }

  /** Put the primary keyword into a heading with one of the language's natural patterns. */
  private withKeyword(heading: string, index: number): string {
    const { primary, labels } = this.plan;
    if (hasPhrase(heading, primary, this.language)) return heading;
    const pattern = labels.headingWithKeyword[index % labels.headingWithKeyword.length]!;
    const short = firstWords(heading, 4, this.language);
    return capitalise(pattern.replace("{k}", primary).replace("{h}", lowerFirst(short, this.language)), this.language);
  }

  private async writeOutline(title: string): Promise<DraftSection[]> {
    const taken = new Set<string>([title.toLocaleLowerCase(this.language)]);
    const drafts: DraftSection[] = [];
    let bodyIndex = 0;
    for (const planned of this.plan.sections) {
      let heading = planned.label;
      if (planned.kind === "body") {
        heading = await this.writeHeading(title, bodyIndex, taken);
        if (planned.headingKeyword) heading = this.withKeyword(heading, bodyIndex);
        bodyIndex++;
      }
      const draft: DraftSection = { planned, heading, parts: [] };
      for (let i = 0; i < planned.subsections; i++) {
        draft.parts.push({ type: "subheading", text: await this.writeHeading(title, i, taken, heading ?? title) });
      }
      drafts.push(draft);
    }
    return drafts;
  }

  private async writeDescription(title: string, sections: DraftSection[]): Promise<string> {
    const { primary } = this.plan;
    const summary = new SentenceChunker(this.language).push(`${await this.complete(summaryPrompt(this.plan, title), 80)}\n`);
    const intro = sections[0]!.parts.flatMap((p) => (p.type === "prose" ? p.sentences.map((s) => s.text) : []));
    let text = "";
    for (const sentence of [...summary, ...intro]) {
      if (text.length >= DESCRIPTION.min) break;
      text = text ? `${text} ${sentence}` : sentence;
    }
    if (!hasPhrase(cutAtWord(text, DESCRIPTION.max, this.language), primary, this.language)) {
      text = `${capitalise(primary, this.language)}: ${text}`;
    }
    return cutAtWord(text, DESCRIPTION.max, this.language);
  }

  // --- prose ----------------------------------------------------------------------------

  /** Words the reader will see outside the prose: visible headings and FAQ questions. */
  private fixedWords(sections: DraftSection[]): number {
    const visible = this.plan.headings && this.plan.preset !== "paragraphs";
    let words = 0;
    for (const s of sections) {
      if (visible && s.heading) words += countWords(s.heading, this.language);
      for (const p of s.parts) if (p.type === "subheading" && visible) words += countWords(p.text, this.language);
    }
    return words + this.plan.faqQuestions.reduce((n, q) => n + countWords(q, this.language), 0);
  }

  private async writeProse(title: string, sections: DraftSection[]): Promise<void> {
    let remaining = this.plan.request.length - this.fixedWords(sections);
    let shares = sections.reduce((n, s) => n + s.planned.share, 0);
    for (const section of sections) {
      const budget = Math.max(10, Math.round((remaining * section.planned.share) / shares));
      shares -= section.planned.share;
      remaining -= await this.writeSection(title, section, budget);
    }
  }

  /** Write one section's prose within `budget` words; returns the words written. */
  private async writeSection(title: string, section: DraftSection, budget: number): Promise<number> {
    const { planned } = section;
    const heading = section.heading ?? title;
    const keywords = { primaryUses: planned.primaryUses, secondary: planned.secondary };
    if (planned.kind === "takeaways") {
      const brief = this.brief(`the ${this.plan.takeaways} key takeaways, one short sentence each`, heading, budget, []);
      const items = (await this.writePassage(title, brief, { primaryUses: 0, secondary: [] })).slice(0, this.plan.takeaways);
      section.parts.push({ type: "list", items });
      return countSentences(items, this.language);
    }
    if (planned.kind === "faq") {
      const each = Math.round(budget / this.plan.faqQuestions.length);
      let words = 0;
      for (const question of this.plan.faqQuestions) {
        section.parts.push({ type: "subheading", text: question });
        const brief = this.brief(`the answer to the question "${question}"`, question, each, []);
        const sentences = await this.writePassage(title, brief, { primaryUses: 0, secondary: [] });
        section.parts.push({ type: "prose", sentences, brief });
        words += countSentences(sentences, this.language);
      }
      return words;
    }
    const subheadings = section.parts.filter((p) => p.type === "subheading");
    if (subheadings.length === 0) {
      const brief = this.brief(partName(planned.kind, heading), heading, budget, [this.plan.primary, ...planned.secondary]);
      const sentences = await this.writePassage(title, brief, keywords);
      section.parts.push({ type: "prose", sentences, brief });
      return countSentences(sentences, this.language);
    }
    // Subsections share the budget; the first carries the section's keywords.
    section.parts = [];
    let words = 0;
    for (const [i, sub] of subheadings.entries()) {
      const share = Math.round((budget - words) / (subheadings.length - i));
      const brief = this.brief(`the subsection "${sub.text}" of "${heading}"`, sub.text, share, i === 0 ? [this.plan.primary] : []);
      const sentences = await this.writePassage(title, brief, i === 0 ? keywords : { primaryUses: 0, secondary: [] });
      section.parts.push(sub, { type: "prose", sentences, brief });
      words += countSentences(sentences, this.language);
    }
    return words;
  }

  private brief(part: string, heading: string, words: number, keywords: string[]): PassageBrief {
    return { part, heading, words, keywords };
  }

  /**
   * Prose of about `brief.words` words, keywords placed. The model is re-prompted to
   * continue after its last sentence while it stops short; sentences are accepted only
   * while they bring the passage closer to its budget.
   */
  private async writePassage(title: string, brief: PassageBrief, keywords: { primaryUses: number; secondary: string[] }): Promise<Sentence[]> {
    const leadIns = this.leadInsFor(keywords);
    const budget = Math.max(8, brief.words - leadIns.reduce((n, s) => n + countWords(s, this.language), 0));
    const sentences = await this.extend(title, brief, [], budget);
    return this.placeKeywords(sentences, keywords);
  }

  /** Add model sentences to `sentences` until they hold about `budget` more words. */
  private async extend(title: string, brief: PassageBrief, sentences: Sentence[], budget: number): Promise<Sentence[]> {
    let words = 0;
    let idle = 0;
    for (let attempt = 0; attempt < PASSAGE_ATTEMPTS && idle < 3; attempt++) {
      const prompt = passagePrompt(this.plan, title, { ...brief, words: budget - words, after: sentences.at(-1)?.text });
      const maxTokens = Math.ceil((budget - words) * this.tokensPerWord * 1.5) + 16;
      const chunker = new SentenceChunker(this.language);
      let accepted = 0;
      let full = false;
      let produced = 0;
      let tokens = this.tokenCount();
      for await (const piece of this.stream(prompt, maxTokens)) {
        for (const text of chunker.push(piece)) {
          produced += countWords(text, this.language);
          const n = countWords(text, this.language);
          // Take a sentence only while it brings the passage closer to its budget.
          if (Math.abs(words + n - budget) >= Math.abs(words - budget)) {
            full = true;
            break;
          }
          if (!this.acceptable(text, sentences)) continue;
          this.remember(text);
          sentences.push({ text, placed: false });
          words += n;
          accepted++;
        }
        if (full) break;
      }
      tokens = this.tokenCount() - tokens;
      if (produced > 0) this.tokensPerWord = Math.min(6, Math.max(1, tokens / produced));
      if (full || words >= budget) break;
      idle = accepted ? 0 : idle + 1;
    }
    return sentences;
  }

  /** Trim or top up the article so the body lands within the length rule. */
  private async fitLength(title: string, sections: DraftSection[]): Promise<void> {
    const target = this.plan.request.length;
    const total = () => this.fixedWords(sections) + sections.reduce((n, s) => n + partsWords(s.parts, this.language), 0);
    const prose = sections.flatMap((s) => s.parts.filter((p): p is Extract<DraftPart, { type: "prose" }> => p.type === "prose"));
    // Top up from the end: the last passages are the ones most likely to have run short.
    for (const part of [...prose].reverse()) {
      const missing = Math.round(target * (1 - LENGTH_SLACK)) - total();
      if (missing <= 0) break;
      await this.extend(title, part.brief, part.sentences, missing);
    }
    // Trim model sentences from the longest passages, never a placed keyword or a passage's first sentence.
    while (total() > target * (1 + LENGTH_SLACK)) {
      const longest = prose
        .filter((p) => p.sentences.length > 2)
        .sort((a, b) => countSentences(b.sentences, this.language) - countSentences(a.sentences, this.language))[0];
      const index = longest?.sentences.findLastIndex((s, i) => i > 0 && !s.placed) ?? -1;
      if (!longest || index < 0) break;
      longest.sentences.splice(index, 1);
    }
  }

  // --- keywords -------------------------------------------------------------------------

  /** The lead-in sentences a passage may need, to reserve their words in its budget. */
  private leadInsFor(keywords: { primaryUses: number; secondary: string[] }): string[] {
    const { primary, labels } = this.plan;
    const out: string[] = [];
    const templates = labels.leadIns;
    for (let i = 0; i < keywords.primaryUses; i++) out.push(templates[i % templates.length]!.replace("{k}", primary));
    for (const k of keywords.secondary) out.push(templates[0]!.replace("{k}", k));
    return out;
  }

  /**
   * Place the keywords the model left out: a lead-in sentence before the passage for
   * the primary keyword (so it is in the first two sentences), then further ones
   * spread over the passage, each from a template not used before in the article.
   */
  private placeKeywords(sentences: Sentence[], keywords: { primaryUses: number; secondary: string[] }): Sentence[] {
    const { primary } = this.plan;
    const out = [...sentences];
    const uses = (k: string) => out.reduce((n, s) => n + countPhrase(s.text, k, this.language), 0);
    const place = (keyword: string, at: number) => {
      const next = out.slice(at, at + 2).map((s) => firstWord(s.text, this.language));
      const before = out.slice(Math.max(0, at - 2), at).map((s) => firstWord(s.text, this.language));
      for (const template of this.plan.labels.leadIns) {
        const text = template.replace("{k}", keyword);
        const first = firstWord(text, this.language);
        const triple = [...before, first, ...next].some((_, i, all) => all.slice(i, i + 3).length === 3 && all.slice(i, i + 3).every((w) => w === all[i]));
        if (this.seen.has(normalise(text)) || triple) continue;
        this.remember(text);
        out.splice(at, 0, { text, placed: true });
        return true;
      }
      return false;
    };
    const inOpening = out.slice(0, 2).some((s) => hasPhrase(s.text, primary, this.language));
    if (keywords.primaryUses > 0 && !inOpening) place(primary, 0);
    let missing = keywords.primaryUses - uses(primary);
    for (let i = 1; missing > 0 && i <= out.length; i++) {
      const at = Math.round((i * out.length) / (missing + 1));
      if (place(primary, Math.min(at, out.length))) missing--;
      else break;
    }
    for (const keyword of keywords.secondary) if (uses(keyword) === 0) place(keyword, Math.min(1, out.length));
    return out;
  }

  /** Whether a model sentence may join the article: new, not stuffed, not a third same start in a row. */
  private acceptable(text: string, sentences: Sentence[]): boolean {
    if (this.seen.has(normalise(text))) return false;
    const keywords = [this.plan.primary, ...this.plan.secondary];
    if (keywords.some((k) => countPhrase(text, k, this.language) > 1)) return false;
    const [a, b] = sentences.slice(-2).map((s) => firstWord(s.text, this.language));
    const first = firstWord(text, this.language);
    return !(a !== undefined && a === b && b === first);
  }

  private remember(text: string): void {
    this.seen.add(normalise(text));
  }

  // --- model calls ----------------------------------------------------------------------

  private stream(prompt: Prompt, maxTokens: number): AsyncGenerator<string> {
    const seed = (this.plan.request.seed + this.calls++) >>> 0;
    return this.options.writer.write(prompt, { maxTokens, seed, signal: this.options.signal });
  }

  /** A short answer, whole. */
  private async complete(prompt: Prompt, maxTokens: number): Promise<string> {
    let text = "";
    for await (const piece of this.stream(prompt, maxTokens)) text += piece;
    return text;
  }

  private tokenCount(): number {
    return this.options.writer.usage.completionTokens;
  }

  // --- to mdast -------------------------------------------------------------------------

  private toSection(draft: DraftSection): GeneratedSection {
    const children: SectionContent[] = draft.parts.flatMap((part): SectionContent[] => {
      if (part.type === "subheading") return [{ type: "heading", depth: 3, children: [{ type: "text", value: part.text }] }];
      if (part.type === "list") {
        return [{
          type: "list",
          ordered: false,
          spread: false,
          children: part.items.map((item) => ({ type: "listItem", spread: false, children: [paragraph([item.text])] })),
        }];
      }
      return paragraphs(part.sentences.map((s) => s.text), this.language).map(paragraph);
    });
    return { kind: draft.planned.kind, heading: draft.heading, children };
  }
}

/** Group sentences into paragraphs of about {@link PARAGRAPH_WORDS} words (always well under 150). */
function paragraphs(sentences: string[], language: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let words = 0;
  for (const sentence of sentences) {
    const n = countWords(sentence, language);
    if (current.length && words + n > PARAGRAPH_WORDS * 1.3) {
      out.push(current);
      current = [];
      words = 0;
    }
    current.push(sentence);
    words += n;
    if (words >= PARAGRAPH_WORDS) {
      out.push(current);
      current = [];
      words = 0;
    }
  }
  if (current.length) out.push(current);
  return out;
}

function paragraph(sentences: string[]): Paragraph {
  return { type: "paragraph", children: [{ type: "text", value: sentences.join(" ") }] };
}

function partName(kind: SectionKind, heading: string): string {
  if (kind === "introduction") return "the introduction";
  if (kind === "conclusion") return "the conclusion";
  return `the section "${heading}"`;
}

/** First line of a model answer as a heading: clean, no closing punctuation, at most `words` words. */
function cleanHeading(text: string, language: string, words: number): string {
  const line = splitSentences(text.split(/\n/).find((l) => cleanProse(l)) ?? "", language)[0] ?? "";
  const clean = cleanProse(line).replace(/^["'“”«»]+|["'“”«»]+$/g, "");
  return capitalise(firstWords(clean, words, language).replace(/[\s.,;:!?。！？、，-]+$/u, ""), language);
}

function countSentences(sentences: Sentence[], language: string): number {
  return sentences.reduce((n, s) => n + countWords(s.text, language), 0);
}

function partsWords(parts: DraftPart[], language: string): number {
  return parts.reduce((n, p) => n + (p.type === "prose" ? countSentences(p.sentences, language) : p.type === "list" ? countSentences(p.items, language) : 0), 0);
}

function normalise(text: string): string {
  return text.toLocaleLowerCase().replace(/\s+/g, " ").trim();
}

function firstWord(text: string, language: string): string {
  return firstWords(text, 1, language).toLocaleLowerCase(language).replace(/[^\p{L}\p{N}]+$/u, "");
}
