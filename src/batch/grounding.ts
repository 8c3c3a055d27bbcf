import type { Nodes } from "mdast";
import { parseMarkdown, sameAddress } from "../article/index.js";
import type { GenerateRequest } from "../contract/request.js";

/** What a row's front matter says of its grounding; each list only when it has entries. */
export interface GroundingData {
  /** The sources the row gave: title, and URL where it has one. */
  sources?: Array<{ title: string; url?: string }>;
  /** The row's pages that the article links, in the order it links them. */
  links?: string[];
}

/** The grounding of a written row, for its front matter: the sources it was given and the pages its Markdown links. */
export function groundingData(request: Pick<GenerateRequest, "sources" | "links">, markdown: string): GroundingData {
  const sources = (request.sources ?? []).map(({ title, url }) => ({ title, ...(url ? { url } : {}) }));
  const pages = request.links ?? [];
  const links: string[] = [];
  if (pages.length) {
    const walk = (node: Nodes): void => {
      const page = node.type === "link" ? pages.find((p) => sameAddress(p.url, node.url)) : undefined;
      if (page && !links.includes(page.url)) links.push(page.url);
      if ("children" in node) for (const child of node.children) walk(child);
    };
    walk(parseMarkdown(markdown));
  }
  return { ...(sources.length ? { sources } : {}), ...(links.length ? { links } : {}) };
}
