import { createHash } from "node:crypto";
import { planLinks, type Link, type PlannedLink, type UnlinkedPage } from "./links.js";
import { headingText, type Outline } from "../outline/outline.js";
import type { Plan } from "../plan/plan.js";
import { givenWords, excerptsForSections, restates, SourceIndex, type GivenWords, type Source, type Excerpt } from "./sources.js";
import { countPhrase, wordSpans } from "../text/text.js";

/** Tokens of excerpts one section is shown, at most. */
const SECTION_TOKENS = 160;
/** Tokens of excerpts one article is shown, at most: the notes must leave the context room to write in. */
const ARTICLE_TOKENS = 640;

/** A source the article cites, numbered in the order of its first citation. */
export interface CitedSource {
  /** The marker's number: `[n]`. */
  n: number;
  title: string;
  url?: string;
}

/** What an article did with the request's sources and links. */
export interface GroundingStats {
  sources: number;
  cited: number;
  /** Pages the request gave. */
  links: number;
  linksWanted: number;
  linksPlaced: number;
  /** The request's pages the article does not link, and why. */
  unlinked: UnlinkedPage[];
}

/** A link placed in a sentence: which words of it, and where they point. */
export interface PlacedLink {
  /** Offset of the anchor in the sentence, and its length. */
  start: number;
  length: number;
  url: string;
}

/**
 * The request's own material, per section: the source excerpts it is shown (notes forced
 * into the answer before the section, never part of the article) and the pages it links.
 * Tells which source a written sentence restates (its citation) and which planned link a
 * sentence can carry. Without sources and links it does nothing.
 */
export class Grounding {
  /** Excerpts per planned section. */
  private readonly excerpts: Excerpt[][];
  /** Excerpts shown so far: a sentence may restate any of them. */
  private readonly shown: Excerpt[] = [];
  /** Links per planned section that are still to place. */
  private readonly links: PlannedLink[][];
  /** Pages the plan left out, and why. */
  private readonly unlinked: readonly UnlinkedPage[];
  private readonly cited = new Map<number, CitedSource>();
  private readonly sources: readonly Source[];
  /** The request's own words: never evidence that a sentence restates an excerpt. */
  private readonly given: GivenWords;
  private readonly language: string;
  private readonly pages: number;
  private readonly wanted: number;
  private placed = 0;
  /** Anchors placed so far, lower-cased: two links of one article never share an anchor. */
  private readonly anchorsUsed = new Set<string>();

  /** `banned`: whether a text holds a phrase of style.avoid (no anchor does). @default nothing is banned */
  /** The grounding of the plan's request: its sources and links, refusing what the banned phrases hold. */
  static ofPlan(plan: Plan, outline: Outline, avoid: { holds(text: string): boolean }): Grounding {
    const { sources = [], links = [] } = plan.request;
    return new Grounding({ plan, outline, sources, links, banned: (text) => avoid.holds(text) });
  }

  constructor(options: {
    plan: Plan;
    outline: Outline;
    sources?: readonly Source[];
    links?: readonly Link[];
    banned?: (text: string) => boolean;
  }) {
    const { plan, outline } = options;
    this.sources = options.sources ?? [];
    this.pages = options.links?.length ?? 0;
    this.language = plan.request.language;
    this.given = givenWords(requestWords(plan, options.links ?? []), this.language);
    const queries = plan.sections.map((section, i) => {
      const heading = headingText(section, outline.sections[i]!.heading) ?? outline.title;
      return [heading, ...outline.sections[i]!.subheadings, plan.primary, ...section.secondary].join(" ");
    });
    const budget = Math.min(SECTION_TOKENS, Math.floor(ARTICLE_TOKENS / Math.max(1, plan.sections.length)));
    this.excerpts = this.sources.length
      ? excerptsForSections({
          index: new SourceIndex({ sources: this.sources, language: this.language }),
          sections: queries.map((query) => ({ query, budget })),
        })
      : plan.sections.map(() => []);
    const words = plan.sections.map((s) => Math.round((plan.request.length * s.share) / plan.sections.reduce((n, x) => n + x.share, 0)));
    const linkPlan = options.links?.length
      ? planLinks({
          links: options.links,
          sections: queries.map((query, i) => ({
            query,
            words: words[i]!,
            ...(plan.sections[i]!.kind === "takeaways" ? { paragraphs: 0 } : {}),
          })),
          length: plan.request.length,
          language: this.language,
          article: `${plan.request.topic} ${[plan.primary, ...plan.secondary].join(" ")}`,
          primary: plan.primary,
          ...(options.banned ? { banned: options.banned } : {}),
        })
      : { sections: plan.sections.map(() => []), unlinked: [] };
    // The phrases this article's seed picks come first, so a page's anchor varies from article to article.
    for (const link of linkPlan.sections.flat()) {
      const pick = createHash("sha256").update(`${plan.request.seed} ${link.url}`).digest().readUInt32BE(0) % link.anchors.length;
      link.anchors = [...link.anchors.slice(pick), ...link.anchors.slice(0, pick)];
    }
    this.links = linkPlan.sections;
    this.unlinked = linkPlan.unlinked;
    this.wanted = this.links.reduce((n, l) => n + l.length, 0);
  }

  /** What was done with the request's material, for the report: a planned link still owed at the end was never written. */
  stats(): GroundingStats {
    const unwritten = this.links.flat().map((link): UnlinkedPage => ({ url: link.url, reason: "not-written" }));
    return {
      sources: this.sources.length,
      cited: this.cited.size,
      links: this.pages,
      linksWanted: this.wanted,
      linksPlaced: this.placed,
      unlinked: [...this.unlinked, ...unwritten],
    };
  }

  /** What a section draws on, as an outline names it: its first excerpt's source title, else the first page it links; undefined when neither. */
  drawsOn(section: number): string | undefined {
    const excerpt = this.excerpts[section]?.[0];
    return excerpt ? this.sources[excerpt.source]!.title : this.links[section]?.[0]?.url;
  }

  /** The notes a section's writing starts from: its excerpts as plain lines, or nothing. */
  notes(section: number): string {
    const excerpts = this.excerpts[section] ?? [];
    this.shown.push(...excerpts);
    return excerpts.map((p) => `Note: ${p.text}`).join("\n");
  }

  /** The source a sentence restates, numbered for its marker, or undefined. */
  cite(sentence: string): CitedSource | undefined {
    if (!this.shown.length) return undefined;
    const citation = restates({ sentence, excerpts: this.shown, language: this.language, given: this.given });
    if (!citation) return undefined;
    let cited = this.cited.get(citation.source);
    if (!cited) {
      const source = this.sources[citation.source]!;
      cited = { n: this.cited.size + 1, title: source.title, ...(source.url ? { url: source.url } : {}) };
      this.cited.set(citation.source, cited);
    }
    return cited;
  }

  /** Every source cited so far, in marker order. */
  citedSources(): CitedSource[] {
    return [...this.cited.values()];
  }

  /**
   * The anchor phrases of the link a section still owes, to steer into a sentence, where the
   * model writes one of them: half of those no link of the article has taken yet (at least
   * one), from the one this article's seed put first, so that articles differ where the model
   * would pick alike. Undefined when none is owed or left.
   */
  owedAnchors(section: number): string[] | undefined {
    const anchors = this.links[section]?.[0]?.anchors.filter((anchor) => !this.anchorsUsed.has(this.anchorKey(anchor)));
    return anchors?.length ? anchors.slice(0, Math.ceil(anchors.length / 2)) : undefined;
  }

  /** An anchor as compared: lower-cased. */
  private anchorKey(anchor: string): string {
    return anchor.toLocaleLowerCase(this.language);
  }

  /** Links the section still owes. */
  owes(section: number): boolean {
    return (this.links[section]?.length ?? 0) > 0;
  }

  /** The section's next link if the sentence holds one of its anchors; the link is then placed. */
  place(section: number, sentence: string): PlacedLink | undefined {
    const owed = this.links[section];
    const link = owed?.[0];
    if (!link) return undefined;
    for (const anchor of link.anchors) {
      if (this.anchorsUsed.has(this.anchorKey(anchor)) || countPhrase(sentence, anchor, this.language) === 0) continue;
      const at = findPhrase(sentence, anchor, this.language);
      if (at === undefined) continue;
      owed.shift();
      this.placed++;
      this.anchorsUsed.add(this.anchorKey(anchor));
      return { start: at.start, length: at.length, url: link.url };
    }
    return undefined;
  }
}

/**
 * The texts the request supplied, which code also steers into sentences (keywords, anchors
 * drawn from the links): its topic, keywords, given title and description, tone, voice, and
 * each link's title and keywords.
 */
function requestWords(plan: Plan, links: readonly Link[]): string[] {
  const { request, style } = plan;
  const texts = [request.topic, plan.primary, ...plan.secondary, request.seo.title, request.seo.description, request.tone, style.voice];
  return [...texts, ...links.flatMap((link) => [link.title, ...link.keywords])].filter((text): text is string => Boolean(text));
}

/** Where a phrase stands in a text, matched on word boundaries without case. */
function findPhrase(text: string, phrase: string, language: string): { start: number; length: number } | undefined {
  const words = wordSpans(text, language);
  const want = wordSpans(phrase, language).map((w) => w.word.toLocaleLowerCase(language));
  for (let i = 0; i + want.length <= words.length; i++) {
    if (want.every((w, j) => words[i + j]!.word.toLocaleLowerCase(language) === w)) {
      const last = words[i + want.length - 1]!;
      return { start: words[i]!.index, length: last.index + last.word.length - words[i]!.index };
    }
  }
  return undefined;
}
