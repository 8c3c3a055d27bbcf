/**
 * Link markup placed around words a page already holds: `[` before them and `](url)` after,
 * nothing else. Every placement is checked by reading the page back: each new link holds
 * exactly its words, and the page has exactly that many more links; removing the markup
 * gives the page's bytes back.
 */
import type { Nodes } from "mdast";
import { parseMarkdown } from "../article/index.js";

/** One link to place: the anchor's words at `offset` in the page's text. */
export interface Placement {
  offset: number;
  anchor: string;
  url: string;
}

/** A link's destination as Markdown writes it: in angle brackets when it holds a space or a parenthesis. */
const destination = (url: string) => (/[\s()<>]/u.test(url) ? `<${url}>` : url);

/** The page's text with every placement's markup added (placements must not overlap). */
export function withLinks(text: string, placements: readonly Placement[]): string {
  let out = "";
  let at = 0;
  for (const placement of [...placements].sort((a, b) => a.offset - b.offset)) {
    out += `${text.slice(at, placement.offset)}[${placement.anchor}](${destination(placement.url)})`;
    at = placement.offset + placement.anchor.length;
  }
  return out + text.slice(at);
}

/** Whether the page's text, with the placements, reads as the page with exactly those links more, each on its own words. */
export function placesCleanly(text: string, placements: readonly Placement[]): boolean {
  const before = linkTexts(text);
  const after = linkTexts(withLinks(text, placements));
  if (after.length !== before.length + placements.length) return false;
  const added = [...after];
  const take = (link: string) => {
    const i = added.indexOf(link);
    return i >= 0 && added.splice(i, 1).length === 1;
  };
  return before.every(take) && placements.every((placement) => take(`${placement.url}\u0000${placement.anchor}`));
}

/** Every link of a page as its destination and its text, the text exactly as the reader sees it. */
function linkTexts(text: string): string[] {
  const out: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "link")
      out.push(`${node.url}\u0000${node.children.map((child) => ("value" in child ? child.value : "\u0001")).join("")}`);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(text.startsWith("\uFEFF") ? text.slice(1) : text));
  return out;
}
