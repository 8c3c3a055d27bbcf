/**
 * Topic clusters: keywords grouped by their word forms and shared terms (stems of their content
 * words, the seed topic's own words left out since every keyword may hold them), each group's
 * primary keyword picked, and a pillar with cluster articles planned, linked both ways so no
 * page is an orphan. A keyword an existing page already targets is not planned again.
 */
import { contentTerms, slugify } from "../article/index.js";

/** One keyword as a keyword tool exports it. */
export interface PlanKeyword {
  keyword: string;
  /** Monthly searches. @default 0 */
  volume?: number;
  /** Ranking difficulty, 0–100. @default 0 */
  difficulty?: number;
}

/** A group of keywords one article targets. */
export interface Cluster {
  /** The keyword the article is written for: the group's most searched (then easiest, then shortest). */
  primary: string;
  /** Every keyword of the group, the primary first. */
  keywords: string[];
}

/** An existing page and the keyword it targets (from `audit`'s analysis). */
export interface ExistingPage {
  url: string;
  keyword: string;
}

/** One planned article: a row of the batch file. */
export interface PlannedArticle {
  topic: string;
  keywords: string[];
  slug: string;
  url: string;
  role: "pillar" | "cluster";
  /** The planned articles it links: the pillar every cluster article, a cluster article its pillar and two siblings. */
  links: Array<{ url: string; title: string; keywords: string[] }>;
}

/** The plan: its articles, and the groups an existing page covers already. */
export interface SitePlan {
  articles: PlannedArticle[];
  covered: Array<{ primary: string; page: string }>;
}

/**
 * Keywords grouped by shared content terms (connected components: two keywords sharing a
 * stem are in one group). A term many keywords hold (over a quarter and over ten, besides the seed's) says
 * nothing about which group a keyword is in, and joins none.
 */
export function clusterKeywords(keywords: readonly PlanKeyword[], options: { topic: string; language: string }): Cluster[] {
  const seed = new Set(contentTerms(options.topic, options.language));
  const terms = keywords.map((k) => [...new Set(contentTerms(k.keyword, options.language))].filter((t) => !seed.has(t)));
  const holders = new Map<string, number[]>();
  for (const [i, list] of terms.entries()) for (const term of list) holders.set(term, [...(holders.get(term) ?? []), i]);
  const parent = keywords.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (const members of holders.values()) {
    if (members.length > Math.max(10, keywords.length / 4)) continue;
    for (const other of members.slice(1)) parent[root(other)] = root(members[0]!);
  }
  const groups = new Map<number, PlanKeyword[]>();
  for (const [i, keyword] of keywords.entries()) groups.set(root(i), [...(groups.get(root(i)) ?? []), keyword]);
  return [...groups.values()].map((group) => {
    const ranked = [...group].sort(
      (a, b) => (b.volume ?? 0) - (a.volume ?? 0) || (a.difficulty ?? 0) - (b.difficulty ?? 0) || a.keyword.length - b.keyword.length,
    );
    return { primary: ranked[0]!.keyword, keywords: ranked.map((k) => k.keyword) };
  });
}

/**
 * The articles of a cluster plan: the group sharing most terms with the seed topic (then the
 * most searched) is the pillar; a group whose primary keyword an existing page targets is
 * left to that page. The pillar links every cluster article; each cluster article links the
 * pillar and the next two in the ring of siblings, so each has a sibling linking it too.
 */
export function planSite(
  clusters: readonly Cluster[],
  options: { topic: string; language: string; existing?: readonly ExistingPage[] },
): SitePlan {
  const lower = (text: string) => text.toLocaleLowerCase(options.language);
  const pages = new Map((options.existing ?? []).map((page) => [lower(page.keyword), page.url]));
  const covered = clusters
    .filter((c) => pages.has(lower(c.primary)))
    .map((c) => ({ primary: c.primary, page: pages.get(lower(c.primary))! }));
  const open = clusters.filter((c) => !pages.has(lower(c.primary)));
  const seed = new Set(contentTerms(options.topic, options.language));
  const overlap = (c: Cluster) => c.keywords.flatMap((k) => contentTerms(k, options.language)).filter((t) => seed.has(t)).length;
  const ordered = [...open].sort((a, b) => overlap(b) - overlap(a) || b.keywords.length - a.keywords.length);
  const articles: PlannedArticle[] = ordered.map((cluster, i) => {
    const slug = slugify(cluster.primary);
    return {
      topic: cluster.primary,
      keywords: cluster.keywords.slice(0, 20),
      slug,
      url: `/${slug}/`,
      role: i === 0 ? "pillar" : "cluster",
      links: [],
    };
  });
  const [pillar, ...rest] = articles;
  if (!pillar) return { articles, covered };
  const link = (a: PlannedArticle) => ({ url: a.url, title: a.topic, keywords: a.keywords.slice(0, 10) });
  pillar.links = rest.map(link);
  for (const [i, article] of rest.entries()) {
    const siblings = [1, 2].map((step) => rest[(i + step) % rest.length]!).filter((s) => s !== article);
    article.links = [link(pillar), ...[...new Set(siblings)].map(link)];
  }
  return { articles, covered };
}
