/**
 * `batch --refresh DIR --queries FILE`: the queries each page ranks 8–20 for (an export of
 * queries by page), offered to its refresh as secondary keywords after its own, most
 * impressions first. Such a query already brings the page impressions but few clicks: the
 * refresh may work it into the text. A page without keywords of its own gets none, since a
 * query would then become its primary keyword.
 */
import { readMarkdown } from "../article/index.js";
import { LIMITS } from "../contract/limits.js";
import { readQueriesExport } from "../site/search-console.js";
import { pageFinder } from "../site/addresses.js";
import type { RefreshPlan } from "./refresh.js";

/** The positions a query is offered from: on the first page's foot to the second page's. */
export const STRIKING = { from: 8, to: 20 } as const;
/** Most queries offered a page. */
const MOST_QUERIES = 5;

/** Add each pending page's queries to its request's keywords; resolves to how many pages got some. */
export async function offerQueries(plan: RefreshPlan, file: string): Promise<number> {
  const rows = await readQueriesExport(file);
  const fields = plan.pending.map((item) => ("markdown" in item.request ? readMarkdown(item.request.markdown).frontMatter : {}));
  const find = pageFinder(plan.pending.map((item, i) => ({ file: item.name, fields: fields[i]! })));
  const byPage = new Map<number, { query: string; impressions: number }[]>();
  for (const row of rows) {
    if (!row.query || row.position < STRIKING.from || row.position > STRIKING.to) continue;
    const at = find(URL.canParse(row.url) ? new URL(row.url).pathname : row.url);
    if (at !== undefined) byPage.set(at, [...(byPage.get(at) ?? []), row]);
  }
  let offered = 0;
  for (const [at, queries] of byPage) {
    const request = plan.pending[at]!.request;
    const raw = fields[at]!.keywords;
    const own = request.seo.keywords?.length
      ? request.seo.keywords
      : Array.isArray(raw)
        ? raw.map(String)
        : typeof raw === "string"
          ? raw.split(",")
          : [];
    const keywords = own.map((k) => k.trim()).filter(Boolean);
    if (keywords.length === 0) continue;
    const known = new Set(keywords.map((k) => k.toLowerCase()));
    const extra = queries
      .sort((a, b) => b.impressions - a.impressions)
      .map((q) => q.query.trim())
      .filter((q) => q.length <= LIMITS.keyword && !known.has(q.toLowerCase()) && known.add(q.toLowerCase()));
    request.seo.keywords = [...keywords, ...extra.slice(0, MOST_QUERIES)].slice(0, LIMITS.keywords);
    offered++;
  }
  return offered;
}
