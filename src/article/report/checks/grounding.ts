/** What the article did with the request's own material: the sources it cites and the links it places. */
import type { CheckId } from "./registry.js";
import { na, plural, verdict, type Measure } from "./article.js";

/** The grounding checks by id. */
export const groundingChecks = {
  "sources-cited": (article) => {
    const grounding = article.input.grounding;
    if (!grounding || grounding.sources === 0) return na("The request gave no sources.");
    const message = `${plural(grounding.cited, "source")} of ${grounding.sources} cited (a sentence is cited when it restates a passage beyond the request's own words).`;
    return verdict(grounding.cited > 0, message);
  },
  "internal-links": (article) => {
    const grounding = article.input.grounding;
    if (!grounding || grounding.linksWanted === 0) return na(grounding?.links ? "None of the request's pages is relevant to the article." : "The request gave no links.");
    return verdict(grounding.linksPlaced >= Math.ceil(grounding.linksWanted / 2), `${plural(grounding.linksPlaced, "link")} placed of ${grounding.linksWanted} wanted (target: at least half).`);
  },
} satisfies Partial<Record<CheckId, Measure>>;
