/** What the article did with the request's own material: the sources it cites and the links it places. */
import type { UnlinkedPage, UnlinkedReason } from "../../grounding/links.js";
import type { CheckId } from "../../../contract/checks.js";
import { na, plural, verdict, type Measure } from "./article.js";

/** Why a page is not linked, as the report says it. */
const REASONS: Record<UnlinkedReason, string> = {
  "no-anchor":
    "no descriptive anchor: neither its title nor its keywords hold a phrase of 2–6 words naming it that is not the article's primary keyword",
  banned: "every descriptive anchor its title and keywords offer holds a phrase of style.avoid",
  irrelevant: "not relevant to the article",
  budget: "past the article's links (about one per 200 words, one per paragraph)",
  "not-written": "the model did not write its anchor",
  duplicate: "the same address as an earlier page",
};

/** Pages named per reason, at most: a sitemap's worth of irrelevant pages is counted, not listed. */
const NAMED = 5;

/** The pages left out, grouped by why: " Not linked: /a, /b (why); /c (why)." or nothing. */
function leftOut(unlinked: readonly UnlinkedPage[]): string {
  const groups = (Object.keys(REASONS) as UnlinkedReason[]).flatMap((reason) => {
    const urls = unlinked.filter((page) => page.reason === reason).map((page) => page.url);
    if (!urls.length) return [];
    const more = urls.length > NAMED ? ` and ${urls.length - NAMED} more` : "";
    return [`${urls.slice(0, NAMED).join(", ")}${more} (${REASONS[reason]})`];
  });
  return groups.length ? ` Not linked: ${groups.join("; ")}.` : "";
}

/** The grounding checks by id. */
export const groundingChecks = {
  "sources-cited": (article) => {
    const grounding = article.input.grounding;
    if (!grounding || grounding.sources === 0) return na("The request gave no sources.");
    const message =
      `${plural(grounding.cited, "source")} of ${grounding.sources} cited (a sentence is cited when it restates a passage beyond the ` +
      `request's own words).`;
    return verdict(grounding.cited > 0, message);
  },
  "internal-links": (article) => {
    const grounding = article.input.grounding;
    if (!grounding?.links) return na("The request gave no links.");
    if (grounding.linksWanted === 0) return na(`None of the request's pages can be linked.${leftOut(grounding.unlinked)}`);
    const placed = `${plural(grounding.linksPlaced, "link")} placed of ${grounding.linksWanted} wanted (target: at least half).`;
    return verdict(grounding.linksPlaced >= Math.ceil(grounding.linksWanted / 2), `${placed}${leftOut(grounding.unlinked)}`);
  },
} satisfies Partial<Record<CheckId, Measure>>;
