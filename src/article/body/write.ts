import type { Writer } from "../../model/backend.js";
import type { AvoidList } from "../plan/avoid.js";
import type { ArticleDocument } from "./document.js";
import { Grounding } from "../grounding/grounding.js";
import { TokenLedger } from "../ledger.js";
import { headingText, type Outline } from "../outline/outline.js";
import { ANSWER_ROOM, fixedWords, shareBudgets } from "./budgets.js";
import { passageContext, writePassage, type Passage, type PassageContext } from "./passage.js";
import { mostWords, SECTION_TOLERANCE } from "../plan/limits.js";
import type { Plan } from "../plan/plan.js";
import { seedSequence } from "../plan/seeds.js";

/** What the body pass needs besides the plan and the outline. */
export interface WriteBodyOptions {
  writer: Writer;
  document: ArticleDocument;
  /** Phrases the article never holds: refused while the model samples. */
  avoid: AvoidList;
  /**
   * The request's sources (notes before each section, citations) and links (anchors to steer).
   * @default none
   */
  grounding?: Grounding;
  seed: number;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal;
  /**
   * The running totals of body words and tokens, after every sentence.
   * @default none
   */
  onWords?: (words: number, tokens: number) => void;
}

/** Most words a section of an edited outline may hold: its budget and the tolerance above it. */
const most = (budget: number) => Math.floor((budget * (100 + SECTION_TOLERANCE)) / 100);

/**
 * The body, in one continuing generation that sees the outline and all text before it.
 * At a section's budget, at a sentence end, code appends the next heading to the
 * answer (forced tokens, not a new prompt) and the model goes on. The model writes
 * every sentence; code decides which ones the article keeps (the sentence gate), when a
 * keyword is owed (the keyword schedule) and steers an owed keyword into the middle of a
 * sentence the model is writing (the step). A refused sentence is cut from the answer
 * and the model writes another.
 */
export async function writeBody(plan: Plan, outline: Outline, options: WriteBodyOptions): Promise<void> {
  await new BodyPass(plan, outline, options).run();
}

class BodyPass {
  private readonly writer: TokenLedger;
  private readonly doc: ArticleDocument;
  private readonly ctx: PassageContext;
  /** Words of the headings and questions not yet appended: the prose leaves room for them. */
  private fixedLeft = 0;

  constructor(
    private readonly plan: Plan,
    private readonly outline: Outline,
    options: WriteBodyOptions,
  ) {
    this.writer = TokenLedger.of(options.writer);
    this.doc = options.document;
    this.ctx = passageContext({
      plan,
      writer: this.writer,
      document: options.document,
      avoid: options.avoid,
      grounding: options.grounding ?? new Grounding({ plan, outline }),
      // The article shows its sections' headings: a run of prose between two is capped.
      visible: plan.subheadings,
      seed: seedSequence(options.seed),
      signal: options.signal,
      onWords: options.onWords,
      wordsLeft: () => mostWords(plan.request.length) - this.doc.wordCount - this.fixedLeft,
    });
  }

  async run(): Promise<void> {
    const { plan, outline, doc } = this;
    this.writer.append(`# ${outline.title}\n\n`);
    if (plan.headings) doc.addTitle(outline.title);
    this.fixedLeft = fixedWords(plan, outline);
    await shareBudgets(plan, this.fixedLeft, (i, budget) => this.section(i, budget));
    doc.addSources(plan.headings && plan.labels.sources ? plan.labels.sources : null, this.ctx.grounding.citedSources());
    doc.finish();
  }

  /** Write section `i`'s prose within `budget` words, after its notes and heading; returns the prose words it added. */
  private async section(i: number, budget: number): Promise<number> {
    const { ctx, doc } = this;
    const section = this.plan.sections[i]!;
    const written = this.outline.sections[i]!;
    const heading = headingText(section, written.heading);
    // The section's source excerpts, read by the model as its own notes: never part of the article.
    const notes = ctx.grounding.notes(i);
    if (notes) {
      this.writer.truncate(this.writer.text.trimEnd().length);
      // The heading's block starts a new paragraph after them; the introduction has none, so it starts one here.
      this.writer.append(`\n\n${notes}${section.kind === "introduction" ? "\n\n" : ""}`);
    }
    if (heading) this.block(`## ${heading}`, () => ctx.visible && doc.addHeading(2, heading));
    else if (section.kind !== "introduction") this.block("", () => doc.close());
    const keywords = { primaryUses: section.primaryUses, secondary: section.secondary, section: i };
    const sectionStart = section.kind !== "introduction";

    const own = section.budgets?.[0] ?? 0;
    let used = 0;
    if (section.kind === "takeaways") {
      this.writer.append("- ");
      // An edited outline's H3s under the list follow it: the list has the H2's own budget.
      const listBudget = written.subheadings.length ? own : budget;
      used += await writePassage(ctx, { budget: listBudget, primaryUses: 0, secondary: [], items: section.items, section: i });
      if (written.subheadings.length === 0) return used;
    }
    const last = i === this.plan.sections.length - 1;
    const bounds = section.budgets ? { most: most(budget) } : {};
    if (written.subheadings.length === 0)
      return writePassage(ctx, { budget, ...keywords, opening: !sectionStart, sectionStart, final: last, ...bounds });
    // Subsections (or questions) share the budget; the first passage carries the section's keywords.
    if (own > 0 && section.kind !== "takeaways")
      used += await writePassage(ctx, { budget: own, ...keywords, opening: !sectionStart, sectionStart, most: most(own) });
    for (const [j, sub] of written.subheadings.entries()) {
      this.block(`### ${sub}`, () => {
        if (ctx.visible) doc.addHeading(3, sub);
        // A question shown without headings is a paragraph of its own, and a sentence of the body.
        else if (section.kind === "faq") this.question(sub);
      });
      if (section.kind === "faq") this.fixedLeft -= ANSWER_ROOM;
      const share = section.budgets?.[j + 1] ?? Math.round((budget - used) / (written.subheadings.length - j));
      const final = last && j === written.subheadings.length - 1;
      const limit = section.budgets ? { most: most(share) } : {};
      // A question shown is answered: its passage tries as long as the opening does.
      const required = section.kind === "faq";
      const passage: Passage =
        j === 0 && own === 0
          ? { budget: share, ...keywords, sectionStart, final, required, ...limit }
          : { budget: share, primaryUses: 0, secondary: [], section: i, final, required, ...limit };
      used += await writePassage(ctx, passage);
    }
    return used;
  }

  /** Start a new block in the answer (a blank line, then `markdown`) and in the document. */
  private block(markdown: string, add: () => void): void {
    const text = this.writer.text;
    this.writer.truncate(text.trimEnd().length);
    this.writer.append(`\n\n${markdown}${markdown ? "\n\n" : ""}`);
    this.doc.close();
    const before = this.doc.wordCount;
    add();
    this.fixedLeft -= this.doc.wordCount - before;
  }

  /** An outline question shown as a paragraph of its own (headings off), kept like any sentence. */
  private question(text: string): void {
    this.doc.addSentence(text, true);
    this.ctx.gate.keep(text, { articleStart: false, sectionStart: false });
  }
}
