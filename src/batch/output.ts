import { writeFileAtomic } from "../atomic.js";
import { stringify, type ScalarTag, type Tags } from "yaml";
import type { GenerateRequest } from "../contract/request.js";
import type { ArticleResponse } from "../contract/response.js";
import { withPostRecorded } from "../publish/record.js";
import { groundingData } from "./grounding.js";

/** What the files of a row are made from: the generate JSON answer, of the local model or a server. */
export type Article = Pick<ArticleResponse, "created" | "publish"> & {
  article: Pick<ArticleResponse["article"], "title" | "metaDescription" | "keywords" | "language" | "markdown">;
};

/** The row's sources and links, which the front matter lists (`sources`, and the `links` the article placed). */
type Grounded = Pick<GenerateRequest, "sources" | "links">;

/** How a row's Markdown file is written. */
export interface MarkdownFileOptions {
  /**
   * The row's sources and links, which the front matter lists.
   * @default none
   */
  request?: Grounded;
  /**
   * Keep the article's `# Title` line under the front matter. Hugo, Astro, Jekyll and Eleventy
   * themes print the front matter's title as the page's heading, so by default the title is
   * there alone and a page shows it once.
   * @default false
   */
  h1?: boolean;
  /**
   * The page's site path, written as front matter `url` so the page is served where the plan's links point.
   * @default none
   */
  address?: string;
}

/**
 * The article as Markdown with YAML front matter, the fields Hugo, Astro, Jekyll and
 * Eleventy read. Written as YAML 1.1, which those readers speak: a language such as `no`
 * or a keyword such as `on` is quoted (YAML 1.1 reads them as booleans), and the date is
 * a timestamp with its time zone (UTC, `Z`). `slug` is the file's name, unique in the folder, so two pages never share a URL;
 * `url`, when the row gave one, is where the page is served, whatever folder it is written to.
 */
export function markdownWithFrontMatter({ created, article }: Article, slug: string, options: MarkdownFileOptions = {}): string {
  const { request = {}, h1 = false, address } = options;
  const data = {
    title: article.title,
    description: article.metaDescription,
    slug,
    ...(address ? { url: address } : {}),
    keywords: article.keywords,
    language: article.language,
    date: new Date(created * 1000),
    ...groundingData(request, article.markdown),
  };
  // The engine writes the title as the first line, `# Title`, whenever the article has headings.
  const body = h1 ? article.markdown : article.markdown.replace(/^# [^\n]*\n+/, "");
  return `---\n${stringify(data, { version: "1.1", lineWidth: 0, customTags: withZone })}---\n\n${body}`;
}

/**
 * YAML 1.1's timestamp, written with its time zone: the yaml package writes a UTC date
 * without its `Z`, which a site generator then reads in its own zone, hours off.
 */
function withZone(tags: Tags): Tags {
  return tags.map((tag) =>
    typeof tag === "object" && !tag.collection && tag.tag === "tag:yaml.org,2002:timestamp"
      ? ({ ...tag, stringify: ({ value }) => (value as Date).toISOString().replace(/\.000Z$/, "Z") } satisfies ScalarTag)
      : tag,
  );
}

/**
 * Write a row's Markdown and its full JSON answer (whose `article.markdown` keeps its H1, as the
 * API's does). A published article's Markdown records its post, so a refresh finds that post by id.
 */
export async function writeArticleFiles(
  [markdownFile, jsonFile]: [string, string],
  response: Article,
  slug: string,
  options?: MarkdownFileOptions,
): Promise<void> {
  await writeFileAtomic(jsonFile, `${JSON.stringify(response, null, 2)}\n`, { userFile: true });
  const markdown = markdownWithFrontMatter(response, slug, options);
  const post = response.publish && "id" in response.publish ? response.publish : undefined;
  await writeFileAtomic(markdownFile, post ? withPostRecorded(markdown, post.target, post.id) : markdown, { userFile: true });
}
