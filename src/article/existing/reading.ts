/**
 * One reading of an article's Markdown as a refresh takes it: its report (analyse's), where
 * its parts stand, and what a change may not lose. A reading parses and measures the whole
 * article; a refresh reads it again for every change it proposes (`mend/reading.ts` says where).
 */
import { measureExisting, type AnalyseExistingOptions, type ExistingReport } from "./analyse.js";
import { locate, type LocatedArticle } from "./locate.js";
import { readPage } from "./page.js";
import type { GroundingStats } from "../grounding/grounding.js";
import { sameAddress, type UnlinkedPage } from "../grounding/links.js";
import type { RefreshRequest } from "../../contract/refresh.js";

/** Counts a refresh never lowers unless a check asks it to. */
export interface Kept {
  links: number;
  citations: number;
  headings: number;
}

/** What to read: the article's text, measured against the refresh request and the link plan. */
export interface ReadingInput {
  request: RefreshRequest;
  options: AnalyseExistingOptions;
  markdown: string;
  /**
   * The language to read sentences in.
   * @default the language the report finds
   */
  language?: string;
  /**
   * Pages the link plan wanted before any was placed, and those it left out (the internal-links check measures against it).
   * @default no plan yet
   */
  linkPlan?: { wanted: number; leftOut: UnlinkedPage[] };
}

/** A reading of an article: its report, its located parts, what it holds, and the addresses it links. */
export interface Reading {
  report: ExistingReport;
  located: LocatedArticle;
  kept: Kept;
  linked: string[];
}

/** Read an article for a refresh ({@link Reading}): every parse and measure a refresh needs of one text. */
export function readForRefresh({ request, options, markdown, language, linkPlan }: ReadingInput): Reading {
  const page = readPage({ markdown });
  const linked = page.links.map((link) => link.url);
  const grounding = request.links?.length ? linkStats(request, linked, linkPlan) : undefined;
  const { report } = measureExisting({ ...request, markdown }, { ...options, ...(grounding ? { grounding } : {}) });
  const kept = {
    links: page.links.length,
    citations: page.citations,
    headings: page.blocks.filter((block) => block.kind === "heading").length + (page.h1 === undefined ? 0 : 1),
  };
  return { report, located: locate(markdown, language ?? report.language.value), kept, linked };
}

/** The given pages the text links, against the pages the link plan wanted. */
function linkStats(request: RefreshRequest, found: readonly string[], plan: ReadingInput["linkPlan"]): GroundingStats {
  const links = request.links ?? [];
  const linked = links.filter((link) => found.some((url) => sameAddress(url, link.url)));
  const open = links.filter((link) => !linked.includes(link));
  // A page the plan wanted that is still not linked: no sentence took its anchor.
  const unlinked = open.map(
    (link) => plan?.leftOut.find((page) => page.url === link.url) ?? { url: link.url, reason: "not-written" as const },
  );
  return {
    sources: 0,
    cited: 0,
    links: links.length,
    linksWanted: Math.max(plan?.wanted ?? 0, linked.length),
    linksPlaced: linked.length,
    unlinked,
  };
}
