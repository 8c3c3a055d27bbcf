/** What the article did with the request's own material: the sources it cites and the links it places. */
import type { CheckId } from "./registry.js";
import { na, plural, verdict, type Measure } from "./article.js";

/** The grounding checks by id. */
export const groundingChecks = {
  "sources-cited": (a) => {
    const g = a.input.grounding;
    if (!g || g.sources === 0) return na("The request gave no sources.");
    const message = `${plural(g.cited, "source")} of ${g.sources} cited (a sentence is cited when it restates a passage).`;
    return verdict(g.cited > 0, message);
  },
  "internal-links": (a) => {
    const g = a.input.grounding;
    if (!g || g.linksWanted === 0) return na(g?.links ? "None of the request's pages is relevant to the article." : "The request gave no links.");
    return verdict(g.linksPlaced >= Math.ceil(g.linksWanted / 2), `${plural(g.linksPlaced, "link")} placed of ${g.linksWanted} wanted (target: at least half).`);
  },
} satisfies Partial<Record<CheckId, Measure>>;
