import type { Heading, List, Paragraph, PhrasingContent, Root, RootContent } from "mdast";
import { serialiseMarkdown } from "../text/markdown.js";
import { countWords, splitSentences } from "../text/text.js";
import { countForms } from "../text/forms.js";

/** A block of the article body as the analyser reads it. */
export type Block =
  | { kind: "heading"; depth: number; text: string; words: number }
  | {
      kind: "prose";
      text: string;
      words: number;
      sentences: string[];
      /**
       * The list (or, in an article given as it is, the reference entry: a section under a heading
       * of code) the block stands in, numbered from 1 in the body: its sentences repeat only the
       * sentences of their own group, as a manual says a note again entry by entry. Absent for a paragraph.
       */
      group?: number;
    };

const text = (value: string) => ({ type: "text" as const, value });

/** What a sentence carries besides its words. */
export interface SentenceAttachments {
  /** Words of the sentence (the model wrote them) that link a page: code wraps them, nothing more. */
  link?: { start: number; length: number; url: string };
  /** The source the sentence restates: a marker `[n]` after it, linking the source's URL when it has one. */
  citation?: { n: number; url?: string };
}

/** A sentence as inline nodes: its text, the linked words as a link, the citation marker after it. */
function inlineNodes(sentence: string, attached: SentenceAttachments): PhrasingContent[] {
  const { link, citation } = attached;
  const nodes: PhrasingContent[] = link
    ? [
        ...(link.start > 0 ? [text(sentence.slice(0, link.start))] : []),
        { type: "link", url: link.url, children: [text(sentence.slice(link.start, link.start + link.length))] },
        ...(link.start + link.length < sentence.length ? [text(sentence.slice(link.start + link.length))] : []),
      ]
    : [text(sentence)];
  if (citation) {
    const marker = `[${citation.n}]`;
    nodes.push(citation.url ? { type: "link", url: citation.url, children: [text(marker)] } : text(marker));
  }
  return nodes;
}

/**
 * The article as it is written: an mdast tree that only ever grows at its end, with its
 * own counts (body words, keyword occurrences) and its Markdown, produced delta by delta
 * as nodes are appended. Nothing is serialised or counted twice: the Markdown is the
 * deltas joined, the SSE `delta` events are the deltas, and the analyser reads the blocks.
 */
export class ArticleDocument {
  readonly tree: Root = { type: "root", children: [] };
  /** Body blocks in document order (the H1 title is not part of the body). */
  readonly blocks: Block[] = [];
  /** Words of the body (everything but the H1). */
  wordCount = 0;
  /** Whether the tree starts with the H1 title. */
  hasTitle = false;
  private readonly deltas: string[] = [];
  private readonly keywordCounts: Map<string, number>;
  private openParagraph: { node: Paragraph; block: Extract<Block, { kind: "prose" }> } | undefined;
  private openList: List | undefined;
  /** Lists written so far: the last one's number is its items' group. */
  private lists = 0;
  private linkedParagraph = false;

  constructor(
    private readonly language: string,
    private readonly keywords: readonly string[],
    /** Receives each Markdown delta as it is appended. */
    private readonly onDelta?: (markdown: string) => void,
  ) {
    this.keywordCounts = new Map(keywords.map((k) => [k, 0]));
  }

  /** Occurrences of a keyword in the body so far, any word form of its words (as the report counts them). */
  occurrences(keyword: string): number {
    return this.keywordCounts.get(keyword) ?? 0;
  }

  /** The H1 title: the first node, not part of the body. */
  addTitle(title: string): void {
    this.hasTitle = true;
    this.push({ type: "heading", depth: 1, children: [text(title)] });
  }

  addHeading(depth: 2 | 3, value: string): void {
    this.close();
    this.count(value);
    this.blocks.push({ kind: "heading", depth, text: value, words: countWords(value, this.language) });
    this.push({ type: "heading", depth, children: [text(value)] } satisfies Heading);
  }

  /**
   * A sentence at the end of the open paragraph, or opening a new one. What it carries (a link on
   * words the model wrote, a citation marker after it) are nodes of their own; the marker is
   * not a word of the article.
   */
  addSentence(sentence: string, newParagraph: boolean, attached: SentenceAttachments = {}): void {
    const words = this.count(sentence);
    this.openList = undefined;
    const inline = inlineNodes(sentence, attached);
    if (attached.link) this.linkedParagraph = true;
    if (!this.openParagraph || newParagraph) {
      const node: Paragraph = { type: "paragraph", children: inline };
      const block = { kind: "prose" as const, text: sentence, words, sentences: [sentence] };
      this.blocks.push(block);
      this.push(node);
      this.openParagraph = { node, block };
      this.linkedParagraph = attached.link !== undefined;
      return;
    }
    const { node, block } = this.openParagraph;
    node.children.push(text(" "), ...inline);
    block.text += ` ${sentence}`;
    block.words += words;
    block.sentences.push(sentence);
    // Escaped as a paragraph of its own: the safe side, whatever came before it on the line.
    this.delta(` ${serialiseMarkdown({ type: "paragraph", children: inline })}`);
  }

  /** Whether the open paragraph holds a link already (a paragraph links one page at most). */
  get paragraphLinked(): boolean {
    return this.openParagraph !== undefined && this.linkedParagraph;
  }

  /**
   * The list of cited sources at the end, under its label when headings are shown: each
   * `[n]` with the source's title, linking its URL when it has one. A reference list, not
   * prose: its words are not counted and the analyser does not read it.
   */
  addSources(label: string | null, sources: ReadonlyArray<{ n: number; title: string; url?: string }>): void {
    if (!sources.length) return;
    this.close();
    if (label) this.push({ type: "heading", depth: 2, children: [text(label)] } satisfies Heading);
    const items = sources.map((s) => ({
      type: "listItem" as const,
      spread: false,
      children: [
        {
          type: "paragraph" as const,
          children: [text(`[${s.n}] `), s.url ? { type: "link" as const, url: s.url, children: [text(s.title)] } : text(s.title)],
        },
      ],
    }));
    this.push({ type: "list", ordered: false, spread: false, children: items });
  }

  /** A bullet of the open list, or of a new one. */
  addListItem(item: string): void {
    const words = this.count(item);
    this.openParagraph = undefined;
    const paragraph: Paragraph = { type: "paragraph", children: [text(item)] };
    if (!this.openList) this.lists++;
    this.blocks.push({ kind: "prose", text: item, words, sentences: splitSentences(item, this.language), group: this.lists });
    if (this.openList) {
      this.openList.children.push({ type: "listItem", spread: false, children: [paragraph] });
      this.delta(
        `\n${serialiseMarkdown({ type: "list", ordered: false, spread: false, children: [{ type: "listItem", spread: false, children: [paragraph] }] })}`,
      );
      return;
    }
    const list: List = {
      type: "list",
      ordered: false,
      spread: false,
      children: [{ type: "listItem", spread: false, children: [paragraph] }],
    };
    this.push(list);
    this.openList = list;
  }

  /** The next sentence starts a new paragraph. */
  close(): void {
    this.openParagraph = undefined;
    this.openList = undefined;
  }

  /** The H2 and H3 headings the document shows, in order, as outline entries. */
  headings(): Array<{ level: 2 | 3; text: string; shown: true }> {
    return this.blocks.flatMap((b) =>
      b.kind === "heading" && (b.depth === 2 || b.depth === 3) ? [{ level: b.depth as 2 | 3, text: b.text, shown: true as const }] : [],
    );
  }

  /** Words in the open paragraph. */
  get paragraphWords(): number {
    return this.openParagraph?.block.words ?? 0;
  }

  /** The last delta: the final newline of the Markdown. */
  finish(): void {
    this.close();
    if (this.deltas.length) this.delta("\n");
  }

  /** The Markdown of everything appended. */
  markdown(): string {
    return this.deltas.join("");
  }

  private count(value: string): number {
    const words = countWords(value, this.language);
    this.wordCount += words;
    for (const keyword of this.keywords)
      this.keywordCounts.set(keyword, this.occurrences(keyword) + countForms(value, keyword, this.language));
    return words;
  }

  /** A new top-level node, separated from the one before by a blank line. */
  private push(node: RootContent): void {
    this.tree.children.push(node);
    this.delta(`${this.deltas.length ? "\n\n" : ""}${serialiseMarkdown(node)}`);
  }

  private delta(markdown: string): void {
    this.deltas.push(markdown);
    this.onDelta?.(markdown);
  }
}
