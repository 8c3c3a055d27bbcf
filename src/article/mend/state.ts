/**
 * The article as a refresh mends it: its Markdown, its report, and the changes kept so far.
 * A change is a set of edits at spans of the text; it is kept only when the article measured
 * with it scores no lower and holds every link, citation and heading it held before. Each
 * reading of the text goes through the refresh's texts ({@link RefreshTexts}): on a server,
 * a worker thread.
 */
import { InkpressError, InvalidFieldError } from "../../errors.js";
import type { AnalyseExistingOptions, ExistingReport } from "../existing/analyse.js";
import type { UnlinkedPage } from "../grounding/links.js";
import type { CheckId } from "../../contract/checks.js";
import type { LocatedArticle, Span } from "../existing/locate.js";
import { MEND_PARTS, type MendPart, type RefreshChange, type RefreshRequest } from "../../contract/refresh.js";
import type { Kept, Reading, ReadingInput } from "../existing/reading.js";
import type { RefreshTexts } from "./reading.js";

/** Text to put at a span of the article (an empty span inserts). */
export interface Edit extends Span {
  text: string;
}

/** Measures the article and keeps the changes that do not lower its score. */
export class RefreshState {
  markdown: string;
  report: ExistingReport;
  located: LocatedArticle;
  /** The links, citations and headings of the article as it stands, and the addresses it links. */
  held: Pick<Reading, "kept" | "linked">;
  readonly changes: RefreshChange[] = [];
  /** Why a failing check was not mended, by check. */
  readonly notes = new Map<CheckId, string>();
  /** Words the model wrote into the changes kept (what counts against a key's daily words). */
  wordsWritten = 0;
  /** The pages the link plan wanted before any was placed, and those it left out: the internal-links check measures against them. */
  private linkPlan: ReadingInput["linkPlan"];
  /** Each sentence of the article as given, with how often it stands there: every one must stand after any change. */
  private readonly authorSentences: Map<string, number>;

  private constructor(
    readonly request: RefreshRequest,
    private readonly options: AnalyseExistingOptions,
    private readonly texts: RefreshTexts,
    reading: Reading,
  ) {
    this.markdown = request.markdown;
    this.report = reading.report;
    this.located = reading.located;
    this.held = reading;
    this.authorSentences = sentenceCounts(this.located);
  }

  /** The article of a refresh request, read through `texts`. */
  static async open(request: RefreshRequest, options: AnalyseExistingOptions, texts: RefreshTexts): Promise<RefreshState> {
    return new RefreshState(request, options, texts, await texts.read({ request, options, markdown: request.markdown }));
  }

  /** The article's language, as analyse measured it: the refresh writes in it. */
  get language(): string {
    return this.report.language.value;
  }

  /** The pages the link plan wants: the article is measured again against them. */
  async wantLinks(pages: number, leftOut: UnlinkedPage[]): Promise<void> {
    this.linkPlan = { wanted: pages, leftOut };
    this.report = (await this.read(this.markdown)).report;
  }

  /** Whether the request's `mend` lets the refresh rewrite this part of what the author wrote. */
  asked(part: MendPart): boolean {
    return this.request.mend.includes(part);
  }

  /** Whether a check fails now. */
  fails(id: CheckId): boolean {
    return this.report.checks.some((check) => check.id === id && check.passed === false);
  }

  /** A Markdown text read as the article is (its report measured as analyse measures it, against the link plan). */
  private read(markdown: string): Promise<Reading> {
    const { request, options, linkPlan } = this;
    return this.texts.read({ request, options, markdown, language: this.language, ...(linkPlan ? { linkPlan } : {}) });
  }

  /**
   * Apply a change's edits and keep them when the score does not fall and no link, citation or
   * heading is lost; resolves to whether they were kept. A change not kept notes why against its
   * check. `written`: words of the change the model wrote.
   */
  async propose(edits: readonly Edit[], change: RefreshChange, written = 0): Promise<boolean> {
    const next = applyEdits(this.markdown, edits);
    let reading: Reading;
    try {
      reading = await this.read(next);
    } catch (error) {
      // A change that leaves the page unreadable (its front matter, or not within the limit) is never kept; the server shutting down ends the refresh.
      if (error instanceof InkpressError && !(error instanceof InvalidFieldError)) throw error;
      this.note(change.check, `a change for it left the article unreadable (${(error as Error).message}), so it was not kept`);
      return false;
    }
    const refusal = this.refusal(reading);
    if (refusal) {
      this.note(change.check, refusal);
      return false;
    }
    this.markdown = next;
    this.held = reading;
    this.report = reading.report;
    this.located = reading.located;
    this.changes.push(change);
    this.wordsWritten += written;
    return true;
  }

  /** Why a change read as `reading` is not kept, or undefined when it is. */
  private refusal({ located, report, kept }: Reading): string | undefined {
    const [had, has] = [authored(this.located), authored(located)];
    // A part the article lacked (no description yet) may be added: nothing the author wrote is lost.
    const rewrites = MEND_PARTS.filter((part) => !this.asked(part) && had[part] !== "" && has[part] !== had[part]);
    // The steps never propose such a change unasked; this keeps the promise whatever a mend does.
    if (rewrites.length)
      return `a change for it would have rewritten the article's ${rewrites.join(" and ")}, which the request's \`mend\` does not list`;
    const standing = sentenceCounts(located);
    const lostSentence = [...this.authorSentences].find(([sentence, n]) => (standing.get(sentence) ?? 0) < n)?.[0];
    if (lostSentence !== undefined)
      return `a change for it would have rewritten the author's sentence “${lostSentence}”, so it was not kept`;
    const was = this.held.kept;
    const lost = (Object.keys(was) as (keyof Kept)[]).filter((key) => kept[key] < was[key]);
    if (lost.length) return `a change for it would have removed ${lost.join(" and ")} the article had, so it was not kept`;
    if (report.score < this.report.score)
      return `a change for it would have lowered the score from ${this.report.score} to ${report.score}, so it was not kept`;
    return undefined;
  }

  /** Say why a check was not mended (the first reason found stands). */
  note(check: CheckId, reason: string): void {
    if (!this.notes.has(check)) this.notes.set(check, reason);
  }
}

/** Text with edits applied (they must not overlap), the last first so earlier offsets hold. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  // New lines end as the article's lines do.
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text.replace(/\r?\n/gu, eol) + out.slice(edit.end);
  return out;
}

/**
 * The parts of an article `mend` names, as their text stands: the title (front matter and H1), the description ("" when it has none), and
 * every heading in order.
 */
function authored(located: LocatedArticle): Record<MendPart, string> {
  const at = (span: Span | undefined) => (span ? located.markdown.slice(span.start, span.end) : "");
  return {
    title: JSON.stringify([at(located.frontMatter?.title), at(located.h1?.span)]),
    description: at(located.frontMatter?.description),
    headings: JSON.stringify(located.blocks.flatMap((block) => (block.kind === "heading" ? [`${block.depth} ${at(block.span)}`] : []))),
  };
}

/** How often each sentence of the article's paragraphs stands in it (as read: links and markers aside, lines joined). */
function sentenceCounts(located: LocatedArticle): Map<string, number> {
  const counts = new Map<string, number>();
  for (const block of located.blocks)
    if (block.kind === "paragraph") for (const { text } of block.sentences) counts.set(text, (counts.get(text) ?? 0) + 1);
  return counts;
}
