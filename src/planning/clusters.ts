/**
 * Topic clusters: keywords merged once each, grouped by the terms they share (stems of their content
 * words, the seed topic's own words left out since every keyword may hold them), each group's
 * primary keyword picked, and a pillar with cluster articles planned, linked both ways so no
 * page is an orphan. A keyword an existing page already targets is not planned again.
 */
import { contentTerms, slugify } from "../article/index.js";
import { LIMITS } from "../contract/request.js";
import { averageLinkage, cutToSize } from "./linkage.js";
import { isModifier } from "./modifiers.js";

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

/** Most keywords one article targets: a generate request's. */
export const MOST_PER_ARTICLE = LIMITS.keywords;

/**
 * Least mean similarity (cosine of their telling terms) of two groups' keyword pairs for them to
 * be one group. A planted group whose keywords chain through shared words (each sharing a term
 * with a few of its group, none with all) holds together down to about 0.17; a keyword naming
 * two topics lifts the mean between their groups by a few hundredths. On the test export
 * (seven topics, 76 keywords) every value from 0.05 to 0.12 gives the same groups.
 */
const LEAST_LINKAGE = 0.08;

/**
 * The keywords once each: case and spacing variants of one keyword are one, standing for all
 * with the most searched variant's spelling (its spaces collapsed), volume and difficulty (the
 * first of equals).
 */
function uniqueKeywords(keywords: readonly PlanKeyword[], language: string): PlanKeyword[] {
  const kept = new Map<string, PlanKeyword>();
  for (const given of keywords) {
    const keyword = { ...given, keyword: given.keyword.trim().replace(/\s+/gu, " ") };
    const key = keyword.keyword.toLocaleLowerCase(language);
    const held = kept.get(key);
    if (!held || (keyword.volume ?? 0) > (held.volume ?? 0)) kept.set(key, keyword);
  }
  return [...kept.values()];
}

/**
 * Keywords grouped by the content terms they share (stems; the seed topic's own words and search
 * modifiers left out, since they say nothing about which group a keyword is in), by average
 * linkage ({@link LEAST_LINKAGE}), so no one shared word chains groups; duplicates merged first
 * ({@link uniqueKeywords}). A group of more than {@link MOST_PER_ARTICLE} is cut into as few
 * parts as that takes, so every keyword has an article and none is dropped.
 */
export function clusterKeywords(given: readonly PlanKeyword[], options: { topic: string; language: string }): Cluster[] {
  const keywords = uniqueKeywords(given, options.language);
  const trees = averageLinkage(similarities(keywords, options), keywords.length, LEAST_LINKAGE);
  return trees
    .flatMap((tree) => cutToSize(tree, MOST_PER_ARTICLE))
    .map((items) => {
      const ranked = items
        .map((i) => keywords[i]!)
        .sort(
          (a, b) => (b.volume ?? 0) - (a.volume ?? 0) || (a.difficulty ?? 0) - (b.difficulty ?? 0) || a.keyword.length - b.keyword.length,
        );
      return { primary: ranked[0]!.keyword, keywords: ranked.map((k) => k.keyword) };
    });
}

/**
 * The cosine similarity of every two keywords' telling terms (neither the seed topic's nor a
 * modifier, each weighing alike), as the n × n matrix average linkage reads: pairs are found
 * through the keywords holding each term, so pairs sharing nothing cost nothing.
 */
function similarities(keywords: readonly PlanKeyword[], options: { topic: string; language: string }): Float64Array {
  const { language } = options;
  const seed = new Set(contentTerms(options.topic, language));
  const count = keywords.length;
  const holders = new Map<string, number[]>();
  const sizes = keywords.map((k, i) => {
    const terms = new Set(contentTerms(k.keyword, language).filter((t) => !seed.has(t) && !isModifier(t, language)));
    for (const term of terms) {
      const list = holders.get(term);
      if (list) list.push(i);
      else holders.set(term, [i]);
    }
    return terms.size;
  });
  const sim = new Float64Array(count * count);
  for (const list of holders.values()) {
    for (const [n, i] of list.entries()) {
      for (const j of list.slice(n + 1)) {
        const share = 1 / Math.sqrt(sizes[i]! * sizes[j]!);
        sim[i * count + j]! += share;
        sim[j * count + i]! += share;
      }
    }
  }
  return sim;
}

/**
 * The articles of a cluster plan: the group sharing most terms with the seed topic (then the
 * most searched) is the pillar; a group whose primary keyword an existing page targets is
 * left to that page. The pillar links every cluster article; each cluster article links the
 * pillar and the next two in the ring of siblings, so each has a sibling linking it too. Each
 * article's address is its slug under `basePath` (a normalised `/posts/`; default `/`).
 */
export function planSite(
  clusters: readonly Cluster[],
  options: { topic: string; language: string; existing?: readonly ExistingPage[]; basePath?: string },
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
  const slugs = new Set<string>();
  const articles: PlannedArticle[] = ordered.map((cluster, i) => {
    const slug = uniqueSlug(slugify(cluster.primary), slugs);
    return {
      topic: cluster.primary,
      keywords: cluster.keywords,
      slug,
      url: `${options.basePath ?? "/"}${slug}/`,
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

/** The slug, or the first of `slug-2`, `slug-3`… no other article has: two keywords may slugify alike ("C++" and "C"). */
function uniqueSlug(slug: string, taken: Set<string>): string {
  let unique = slug;
  for (let n = 2; taken.has(unique); n++) unique = `${slug}-${n}`;
  taken.add(unique);
  return unique;
}
