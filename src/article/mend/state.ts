/**
 * The article as a refresh mends it: its Markdown, its report, and the changes kept so far.
 * A change is a set of edits at spans of the text; it is kept only when the article measured
 * with it scores no lower and holds every link, citation and heading it held before.
 */
import { analyseExisting, type AnalyseExistingOptions } from "../existing/analyse.js";
import type { GroundingStats } from "../grounding/grounding.js";
import { sameAddress, type UnlinkedPage } from "../grounding/links.js";
import type { CheckId } from "../report/analyse.js";
import { readPage } from "../existing/page.js";
import type { AnalysisResponse } from "../../contract/analyse.js";
import { locate, type LocatedArticle, type Span } from "../existing/locate.js";
import { MEND_PARTS, type MendPart, type RefreshChange, type RefreshRequest } from "../../contract/refresh.js";

/** Text to put at a span of the article (an empty span inserts). */
export interface Edit extends Span {
  text: string;
}

/** Counts a refresh never lowers unless a check asks it to. */
interface Kept {
  links: number;
  citations: number;
  headings: number;
}

/** Measures the article and keeps the changes that do not lower its score. */
export class RefreshState {
  markdown: string;
  report: AnalysisResponse;
  located: LocatedArticle;
  readonly changes: RefreshChange[] = [];
  /** Why a failing check was not mended, by check. */
  readonly notes = new Map<CheckId, string>();
  /** Words the model wrote into the changes kept (what counts against a key's daily words). */
  wordsWritten = 0;
  /** Pages the link plan wanted, before any was placed: the internal-links check measures against it. */
  private linksWanted = 0;
  /** The links, citations and headings of the article as it stands, once counted. */
  private keptNow: Kept | undefined;
  /** Pages the link plan left out, and why. */
  private leftOut: UnlinkedPage[] = [];
  /** Each sentence of the article as given, with how often it stands there: every one must stand after any change. */
  private readonly authorSentences: Map<string, number>;

  constructor(
    readonly request: RefreshRequest,
    private readonly options: AnalyseExistingOptions,
  ) {
    this.markdown = request.markdown;
    this.report = this.measure(this.markdown);
    this.located = locate(this.markdown, this.language);
    this.authorSentences = sentenceCounts(this.located);
  }

  /** The article's language, as analyse measured it: the refresh writes in it. */
  get language(): string {
    return this.report.language.value;
  }

  /** The pages the link plan wants: the article is measured again against them. */
  wantLinks(pages: number, leftOut: UnlinkedPage[]): void {
    this.linksWanted = pages;
    this.leftOut = leftOut;
    this.report = this.measure(this.markdown);
  }

  /** Whether the request's `mend` lets the refresh rewrite this part of what the author wrote. */
  asked(part: MendPart): boolean {
    return this.request.mend.includes(part);
  }

  /** Whether a check fails now. */
  fails(id: CheckId): boolean {
    return this.report.seo.checks.some((check) => check.id === id && check.passed === false);
  }

  /** The report of a Markdown text, measured as analyse measures it (the internal-links check against the link plan). */
  measure(markdown: string): AnalysisResponse {
    const grounding = this.request.links?.length ? this.linkStats(markdown) : undefined;
    return analyseExisting({ ...this.request, markdown }, { ...this.options, ...(grounding ? { grounding } : {}) }).analysis;
  }

  /**
   * Apply a change's edits and keep them when the score does not fall and no link, citation or
   * heading is lost; returns whether they were kept. A change not kept notes why against its check.
   * `written`: words of the change the model wrote.
   */
  propose(edits: readonly Edit[], change: RefreshChange, written = 0): boolean {
    const next = applyEdits(this.markdown, edits);
    let report: AnalysisResponse;
    try {
      report = this.measure(next);
    } catch (error) {
      // A change that leaves the page unreadable (its front matter) is never kept.
      this.note(change.check, `a change for it left the article unreadable (${(error as Error).message}), so it was not kept`);
      return false;
    }
    const located = locate(next, this.language);
    const [had, has] = [authored(this.located), authored(located)];
    // A part the article lacked (no description yet) may be added: nothing the author wrote is lost.
    const rewrites = MEND_PARTS.filter((part) => !this.asked(part) && had[part] !== "" && has[part] !== had[part]);
    if (rewrites.length) {
      // The steps never propose such a change unasked; this keeps the promise whatever a mend does.
      this.note(
        change.check,
        `a change for it would have rewritten the article's ${rewrites.join(" and ")}, which the request's \`mend\` does not list`,
      );
      return false;
    }
    const standing = sentenceCounts(located);
    const lostSentence = [...this.authorSentences].find(([sentence, n]) => (standing.get(sentence) ?? 0) < n)?.[0];
    if (lostSentence !== undefined) {
      this.note(change.check, `a change for it would have rewritten the author's sentence “${lostSentence}”, so it was not kept`);
      return false;
    }
    const [was, now] = [(this.keptNow ??= kept(this.markdown)), kept(next)];
    const lost = (Object.keys(was) as (keyof Kept)[]).filter((key) => now[key] < was[key]);
    if (lost.length) {
      this.note(change.check, `a change for it would have removed ${lost.join(" and ")} the article had, so it was not kept`);
      return false;
    }
    if (report.seo.score < this.report.seo.score) {
      this.note(
        change.check,
        `a change for it would have lowered the score from ${this.report.seo.score} to ${report.seo.score}, so it was not kept`,
      );
      return false;
    }
    this.markdown = next;
    this.keptNow = now;
    this.report = report;
    this.located = located;
    this.changes.push(change);
    this.wordsWritten += written;
    return true;
  }

  /** Say why a check was not mended (the first reason found stands). */
  note(check: CheckId, reason: string): void {
    if (!this.notes.has(check)) this.notes.set(check, reason);
  }

  /** The given pages the text links, against the pages the link plan wanted. */
  private linkStats(markdown: string): GroundingStats {
    const links = this.request.links ?? [];
    const found = readPage({ markdown }).links;
    const linked = links.filter((link) => found.some((f) => sameAddress(f.url, link.url)));
    const open = links.filter((link) => !linked.includes(link));
    // A page the plan wanted that is still not linked: no sentence took its anchor.
    const unlinked = open.map(
      (link) => this.leftOut.find((page) => page.url === link.url) ?? { url: link.url, reason: "not-written" as const },
    );
    return {
      sources: 0,
      cited: 0,
      links: links.length,
      linksWanted: Math.max(this.linksWanted, linked.length),
      linksPlaced: linked.length,
      unlinked,
    };
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

/** The parts of an article `mend` names, as their text stands: the title (front matter and H1), the description ("" when it has none), and every heading in order. */
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

function kept(markdown: string): Kept {
  const page = readPage({ markdown });
  return {
    links: page.links.length,
    citations: page.citations,
    headings: page.blocks.filter((block) => block.kind === "heading").length + (page.h1 === undefined ? 0 : 1),
  };
}
