/**
 * Structure mends: a paragraph over the length limit split at sentence boundaries (code
 * owns structure: no word changes), and a run of text too long without a subheading given
 * one the model writes under the heading grammar, at the paragraph boundary nearest the
 * middle of the run, when the request's `mend` asks for headings.
 */
import { PARAGRAPH_WORDS, RUN_WORDS } from "../plan/limits.js";
import { countPhrase, countWords, normaliseSentence } from "../text/text.js";
import { contextBefore, type Mending } from "./context.js";
import type { LocatedBlock, LocatedSection } from "../existing/locate.js";

type Paragraph = Extract<LocatedBlock, { kind: "paragraph" }>;

/** Words a split aims each paragraph at: well below the limit, so a part never lands on it. */
const PARAGRAPH_AIM = (PARAGRAPH_WORDS * 2) / 3;

/** Split every paragraph over the limit at the sentence boundaries that part it most evenly. */
export async function mendParagraphs(m: Mending): Promise<void> {
  const tried = new Set<number>();
  for (;;) {
    if (!m.state.fails("paragraph-length")) return;
    const { located } = m.state;
    const long = located.blocks.find(
      (b): b is Paragraph => b.kind === "paragraph" && b.words > PARAGRAPH_WORDS && !tried.has(b.span.start),
    );
    if (!long) return;
    tried.add(long.span.start);
    const cuts = splitPoints(long, m.state.language);
    if (!cuts) {
      m.state.note(
        "paragraph-length",
        `a paragraph of ${long.words} words has a sentence over the limit, or sentences holding Markdown where it would be split`,
      );
      continue;
    }
    const edits = cuts.map((i) => ({ start: long.sentences[i]!.span!.end, end: long.sentences[i + 1]!.span!.start, text: "\n\n" }));
    const before = located.markdown.slice(long.span.start, long.span.end);
    const after = edits.reduceRight(
      (text, e) => text.slice(0, e.start - long.span.start) + e.text + text.slice(e.end - long.span.start),
      before,
    );
    const section = located.sections[long.section]!.name;
    await m.state.propose(edits, {
      section,
      check: "paragraph-length",
      reason: `The paragraph had ${long.words} words (at most ${PARAGRAPH_WORDS}); it is split between sentences, which stay as they were.`,
      before,
      after,
    });
  }
}

/** The sentences after which to break a paragraph into parts of about the aim; undefined when a part would still be too long or a boundary cannot be found. */
function splitPoints(paragraph: Paragraph, language: string): number[] | undefined {
  const words = paragraph.sentences.map((s) => countWords(s.text, language));
  const parts = Math.ceil(paragraph.words / PARAGRAPH_AIM);
  const cuts: number[] = [];
  let sum = 0;
  for (let i = 0; i < words.length - 1; i++) {
    sum += words[i]!;
    const wanted = (paragraph.words * (cuts.length + 1)) / parts;
    // Cut after this sentence when the boundary after it is nearer the wanted share than the next one.
    if (cuts.length < parts - 1 && Math.abs(sum - wanted) <= Math.abs(sum + words[i + 1]! - wanted)) cuts.push(i);
  }
  const bounds = [-1, ...cuts, words.length - 1];
  const sizes = bounds.slice(1).map((end, k) => words.slice(bounds[k]! + 1, end + 1).reduce((a, b) => a + b, 0));
  if (!cuts.length || sizes.some((n) => n > PARAGRAPH_WORDS)) return undefined;
  if (cuts.some((i) => !paragraph.sentences[i]!.span || !paragraph.sentences[i + 1]!.span)) return undefined;
  return cuts;
}

/** Give every run of text longer than the limit a subheading the model writes, until none is (when `mend` holds "headings"). */
export async function mendRuns(m: Mending): Promise<void> {
  if (m.state.fails("subheading-distribution") && !m.state.asked("headings")) {
    m.state.note(
      "subheading-distribution",
      "the headings are the author's, and a refresh adds one only when the request's `mend` holds \"headings\"",
    );
    return;
  }
  const tried = new Set<string>();
  for (;;) {
    if (!m.state.fails("subheading-distribution")) return;
    const run = longestRun(m);
    if (!run || tried.has(`${run.section.name}@${run.at}`)) return;
    tried.add(`${run.section.name}@${run.at}`);
    const { located } = m.state;
    const block = located.blocks[run.at]!;
    const depth = run.section.heading < 0 ? 2 : Math.min(3, run.section.depth + 1);
    const taken = new Set(located.blocks.flatMap((b) => (b.kind === "heading" ? [normaliseSentence(b.text, m.state.language)] : [])));
    const heading = await m.writer.heading({
      context: `${contextBefore(m, block.span.start).trimEnd()}\n\n`,
      depth,
      keyword: keywordShareLow(m),
      taken: (text) => taken.has(normaliseSentence(text, m.state.language)),
    });
    if (!heading) {
      m.state.note(
        "subheading-distribution",
        `the model wrote no subheading free of banned phrases and repeats for a run in “${run.section.name}”`,
      );
      continue;
    }
    const text = `${"#".repeat(depth)} ${heading}\n\n`;
    const kept = await m.state.propose(
      [{ start: block.span.start, end: block.span.start, text }],
      {
        section: run.section.name,
        check: "subheading-distribution",
        reason: `The text ran ${run.words} words without a subheading (at most ${RUN_WORDS}).`,
        before: "",
        after: text.trimEnd(),
      },
      countWords(heading, m.state.language),
    );
    if (!kept) return;
  }
}

/** The longest run over the limit, and the paragraph boundary nearest its middle (the block a heading goes before). */
function longestRun(m: Mending): { section: LocatedSection; at: number; words: number } | undefined {
  const { located } = m.state;
  let best: { section: LocatedSection; at: number; words: number } | undefined;
  for (const section of located.sections) {
    const blocks = section.blocks.map((i) => ({ i, words: (located.blocks[i] as { words: number }).words }));
    const words = blocks.reduce((n, b) => n + b.words, 0);
    if (words <= RUN_WORDS || (best && best.words >= words)) continue;
    let sum = 0;
    let at: { i: number; off: number } | undefined;
    for (const b of blocks.slice(0, -1)) {
      sum += b.words;
      const off = Math.abs(sum - words / 2);
      if (!at || off < at.off) at = { i: b.i + 1, off };
    }
    if (at) best = { section, at: at.i, words };
    else
      m.state.note(
        "subheading-distribution",
        `“${section.name}” is one block of ${words} words: there is no paragraph boundary to put a subheading at`,
      );
  }
  return best;
}

/** Whether fewer than half the subheadings hold the primary keyword: the new one then does (Yoast asks for 30–75 %). */
function keywordShareLow(m: Mending): boolean {
  const headings = m.state.located.blocks.filter((b) => b.kind === "heading" && (b.depth === 2 || b.depth === 3));
  const holding = headings.filter((b) => b.kind === "heading" && countPhrase(b.text, m.plan.primary, m.state.language) > 0).length;
  return holding * 2 < headings.length + 1;
}
