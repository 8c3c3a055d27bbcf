/**
 * The mend stage as a refresh enters it, in two calls: the plan of the measured article (what
 * it keeps, what it refuses, which of its title and description the outline writes again),
 * then every mend in its order on one writer. The mends each ask the stages before them; the
 * refresh entry asks only these.
 */
import type { resolveStyle } from "../../contract/request.js";
import type { ExistingReport } from "../existing/analyse.js";
import { AvoidList } from "../plan/avoid.js";
import type { Plan } from "../plan/plan.js";
import type { Mending } from "./context.js";
import { linkGrounding, mendCitations, mendLinks } from "./grounding.js";
import { mirrorSections, refreshPlan, type Rewritten } from "./plan.js";
import type { RefreshWriter } from "./session.js";
import type { RefreshState } from "./state.js";
import { mendParagraphs, mendRuns } from "./structure.js";
import { mendBannedHeadings, mendBannedSentences, mendIntroduction, mendLength } from "./text.js";
import { mendTitle, rewrittenFields } from "./title.js";

/** A refresh's plan: the plan of the generate request it stands for, the phrases it refuses, and the fields it writes again. */
export interface RefreshPlan {
  plan: Plan;
  avoid: AvoidList;
  rewritten: Rewritten;
}

/** The plan of a measured article, in the one style the refresh resolved: its keywords and link keywords are never refused. */
export function planRefresh(state: RefreshState, style: ReturnType<typeof resolveStyle>): RefreshPlan {
  const keep = [...(state.report.keywords?.value ?? []), ...(state.request.links ?? []).flatMap((link) => link.keywords)];
  const avoid = new AvoidList({ style, language: state.language, keep });
  const rewritten = rewrittenFields(state, (text) => avoid.holds(text));
  return { plan: refreshPlan(state.request, state.report, { style, rewritten }), avoid, rewritten };
}

/** The mends in the order they run: text first, then links, citations, and the structure the text now has. */
const MENDS: ReadonlyArray<(m: Mending) => void | Promise<void>> = [mendBannedHeadings, mendBannedSentences, mendIntroduction, mendLength];

/**
 * Open the answer (prompt and outline), then mend what fails, check by check, keeping a change
 * only as the state allows; resolves to the report the mends started from (measured against the
 * link plan), the answer's `before`.
 */
export async function mendArticle(
  state: RefreshState,
  writer: RefreshWriter,
  { plan: planned, avoid, rewritten }: RefreshPlan,
): Promise<ExistingReport> {
  const outline = await writer.outline();
  const { plan, title } = mirrorSections(planned, state.located);
  const m: Mending = { state, writer, plan, avoid, title };
  const links = linkGrounding(m);
  if (links) await state.wantLinks(links.wanted, links.leftOut);
  const before = state.report;
  await mendTitle(m, outline, rewritten);
  m.title = state.report.title?.value ?? m.title;
  for (const mend of MENDS) await mend(m);
  if (links) await mendLinks(m, linkGrounding(m)!.grounding);
  await mendCitations(m);
  await mendParagraphs(m);
  await mendRuns(m);
  return before;
}
