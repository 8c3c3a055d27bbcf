/**
 * An article inkpress did not write (or wrote, and is given back) read from its mdast tree
 * into what the document model holds: the H1 title, then the body as heading and prose
 * blocks in order. Prose is what a reader reads: paragraphs and list items, with links kept
 * as their words and citation markers (`[2]`) dropped; code (fenced or inline), URLs, version
 * strings, tables, raw HTML, images and a closing list of references are not prose, as they are
 * not in an article inkpress writes. The title's emoji are dropped too: they are not its words.
 */
import type { Definition, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { toString } from "mdast-util-to-string";
import { VERSION } from "../text/figures.js";

/** A body block before it is counted (counting needs the article's language). */
export type RawBlock = { kind: "heading"; depth: number; text: string } | { kind: "prose"; text: string; group?: number };

/** A link of the article: where it points and the words that carry it. */
export interface FoundLink {
  url: string;
  text: string;
  /** The line of the text it was read from (1 is the first), where the reader kept positions. */
  line?: number;
}

/** What the tree holds, before counting. */
export interface ArticleStructure {
  /** The text of the H1 the article opens with, when it opens with one. */
  h1: string | undefined;
  /** Body blocks in document order (the opening H1 is not one of them). */
  blocks: RawBlock[];
  /** Every link in the body, reference-style ones resolved. */
  links: FoundLink[];
  /** Citation markers (`[n]`) after sentences: how many distinct numbers. */
  citations: number;
}

/** A citation marker glued to the text before it, as inkpress writes one after a sentence. */
const MARKER = /(?<=\S)\[\d+(?:\s*[,–-]\s*\d+)*\]/gu;
/** A link whose only words are a marker (a cited source with a URL). */
const MARKER_ONLY = /^\[\d+\]$/u;
/** A reference list's item: it opens with its marker. */
const REFERENCE_ITEM = /^\[\d+\]\s/u;
/** A URL written out in the text: an address, not words. */
const URL = /\b(?:https?:\/\/|www\.)[^\s<>()]+[^\s<>().,;:!?'"]/giu;
/**
 * A heading that names code, as a manual heads each entry of its reference: a call
 * (`cursorUp(count)`, `new Negotiator(request)`) or a dotted name (`yallist.tail`). A heading of
 * code spans alone (`processor.use(plugin)` in backticks) is one too.
 */
const SIGNATURE = /^(?:new\s+)?[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*(?:\s*\(.*\)|(?:\.[\p{L}_$][\p{L}\p{N}_$]*))$/u;
/** Pictographs and what joins or styles them: a title's decoration, not its words. */
const EMOJI = /\p{Extended_Pictographic}|\u200d|\ufe0f/gu;

/** Read a parsed article into its title, blocks and links. */
export function readStructure(tree: Root): ArticleStructure {
  const definitions = new Map<string, string>();
  collectDefinitions(tree, definitions);
  const reader = new Reader(definitions);
  let h1: string | undefined;
  for (const node of tree.children) {
    // The title is the H1 before any text: badges, comments and images may come first.
    if (h1 === undefined && reader.blocks.length === 0 && node.type === "heading" && node.depth === 1)
      h1 = reader.inline(node.children).replace(EMOJI, "").replace(/\s+/gu, " ").trim();
    else reader.block(node);
  }
  return { h1, blocks: reader.blocks, links: reader.links, citations: reader.markers.size };
}

function collectDefinitions(node: Nodes, into: Map<string, string>): void {
  if (node.type === "definition") into.set(node.identifier, (node as Definition).url);
  if ("children" in node) for (const child of node.children) collectDefinitions(child, into);
}

/** Walks the tree once, gathering blocks, links and markers. */
class Reader {
  readonly blocks: RawBlock[] = [];
  readonly links: FoundLink[] = [];
  readonly markers = new Set<string>();
  /** Lists and reference entries numbered so far: each is a group of its own (body/document.ts Block). */
  private groups = 0;
  /** The group of the list whose items are read now. */
  private list: number | undefined;
  /** The reference entries open, outermost first: each opened by a heading of code, at its depth, and closed by a heading as high. */
  private entries: Array<{ depth: number; group: number }> = [];

  constructor(private readonly definitions: ReadonlyMap<string, string>) {}

  block(node: RootContent): void {
    switch (node.type) {
      case "heading": {
        const text = this.inline(node.children);
        this.entries = this.entries.filter((entry) => entry.depth < node.depth);
        if ((text === "" && holdsCode(node.children)) || SIGNATURE.test(text))
          this.entries.push({ depth: node.depth, group: ++this.groups });
        this.push({ kind: "heading", depth: node.depth, text });
        return;
      }
      case "paragraph": {
        const group = this.list ?? this.entries.at(-1)?.group;
        this.push({ kind: "prose", text: this.inline(node.children), ...(group === undefined ? {} : { group }) });
        return;
      }
      case "list": {
        if (this.isReferenceList(node.children)) {
          this.dropLabel();
          return;
        }
        const outer = this.list;
        this.list = ++this.groups;
        for (const listItem of node.children) for (const child of listItem.children) this.block(child);
        this.list = outer;
        return;
      }
      case "blockquote":
        for (const child of node.children) this.block(child);
        return;
      default:
        // Code, tables, raw HTML, rules, definitions, footnotes: not prose.
        return;
    }
  }

  /** The words of inline content, links recorded and citation markers dropped, spaces collapsed. */
  inline(nodes: readonly PhrasingContent[]): string {
    const dropMarker = (marker: string) => {
      this.markers.add(marker);
      return "";
    };
    return this.words(nodes).replace(MARKER, dropMarker).replace(URL, " ").replace(VERSION, " ").replace(/\s+/gu, " ").trim();
  }

  private words(nodes: readonly PhrasingContent[]): string {
    let text = "";
    for (const node of nodes) {
      // Inline code is code: what is around it reads on without it.
      if (node.type === "text") text += node.value;
      else if (node.type === "inlineCode") text += " ";
      else if (node.type === "break") text += " ";
      else if (node.type === "link" || node.type === "linkReference") text += this.link(node);
      else if ("children" in node) text += this.words(node.children);
    }
    return text;
  }

  private link(node: Extract<PhrasingContent, { type: "link" | "linkReference" }>): string {
    const words = this.words(node.children);
    const url = node.type === "link" ? node.url : this.definitions.get(node.identifier);
    if (MARKER_ONLY.test(words.trim())) {
      this.markers.add(words.trim());
      return "";
    }
    if (url !== undefined) {
      const line = node.position?.start.line;
      this.links.push({ url, text: words.replace(/\s+/gu, " ").trim(), ...(line ? { line } : {}) });
    }
    return words;
  }

  /** A list whose every item opens with a marker is the sources list, not prose. */
  private isReferenceList(items: readonly { children: readonly RootContent[] }[]): boolean {
    return (
      items.length > 0 &&
      items.every((listItem) => {
        const first = listItem.children[0];
        return first?.type === "paragraph" && REFERENCE_ITEM.test(toString(first));
      })
    );
  }

  /** The heading right above a sources list is its label, not a section of the article. */
  private dropLabel(): void {
    if (this.blocks.at(-1)?.kind === "heading") this.blocks.pop();
  }

  private push(block: RawBlock): void {
    if (block.text) this.blocks.push(block);
  }
}

/** Whether inline content holds code, at any depth (in a link, in emphasis). */
function holdsCode(nodes: readonly PhrasingContent[]): boolean {
  return nodes.some((node) => node.type === "inlineCode" || ("children" in node && holdsCode(node.children)));
}
