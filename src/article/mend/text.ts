/**
 * Mends the model writes text for: sentences holding a banned phrase or an AI cliché, headings
 * holding one, the introduction's opening when the keyword is missing there, and a section
 * extended when the article is shorter than asked. Each rewrites only the sentences at fault;
 * the passage's steering keeps what they carried (the keyword the sentence held).
 */
import { countBanned } from "../plan/avoid.js";
import type { CheckId } from "../report/analyse.js";
import { LENGTH_TOLERANCE } from "../plan/limits.js";
import { countWords, hasPhrase, normaliseSentence } from "../text/text.js";
import { bodyStart, contextBefore, noGrounding, room, sectionAt, seenAround, type Mending } from "./context.js";
import { INTRODUCTION, type LocatedSentence, type Span } from "../existing/locate.js";

/** Which check a text holding a phrase to avoid fails: a banned phrase of the request's, or a built-in cliché. */
function bannedCheck(m: Mending, text: string): CheckId {
  return countBanned([text], m.state.request.style?.avoid ?? m.plan.style.avoid).size ? "avoid" : "cliches";
}

/** Whether the check for phrases to avoid fails: the request's bans or the clichés. */
const phrasesFail = (m: Mending) => m.state.fails("avoid") || m.state.fails("cliches");

/** Rewrite every heading that holds a banned phrase (when `mend` holds "headings"), under the heading grammar, keeping the keyword where it stood. */
export async function mendBannedHeadings(m: Mending): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    if (!phrasesFail(m)) return;
    const block = m.state.located.blocks.find((b) => b.kind === "heading" && m.avoid.holds(b.text) && !tried.has(b.text));
    if (block?.kind !== "heading") return;
    tried.add(block.text);
    const check = bannedCheck(m, block.text);
    if (!m.state.asked("headings")) {
      m.state.note(
        check,
        `the heading “${block.text}” is the author's, and a refresh rewrites headings only when the request's \`mend\` holds "headings"`,
      );
      continue;
    }
    const taken = new Set(
      m.state.located.blocks.flatMap((b) => (b.kind === "heading" ? [normaliseSentence(b.text, m.state.language)] : [])),
    );
    const heading = await m.writer.heading({
      context: contextBefore(m, block.span.start - block.depth - 1),
      depth: block.depth,
      keyword: hasPhrase(block.text, m.plan.primary, m.state.language),
      taken: (text) => taken.has(normaliseSentence(text, m.state.language)),
    });
    if (!heading) {
      m.state.note(check, `the model wrote no heading free of banned phrases to replace “${block.text}”`);
      continue;
    }
    m.state.propose(
      [{ ...block.span, text: heading }],
      { section: block.text, check, reason: "The heading holds a phrase to avoid.", before: block.text, after: heading },
      countWords(heading, m.state.language),
    );
  }
}

/** Rewrite every body sentence that holds a banned phrase, keeping the keywords it held. */
export async function mendBannedSentences(m: Mending): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    if (!phrasesFail(m)) return;
    const target = bannedSentence(m, tried);
    if (!target) return;
    tried.add(target.sentence.text);
    const check = bannedCheck(m, target.sentence.text);
    if (!target.sentence.span) {
      m.state.note(check, `the sentence ${quoted(target.sentence.text)} holds Markdown (a link or emphasis) that a rewrite would lose`);
      continue;
    }
    const { text } = target.sentence;
    const language = m.state.language;
    const secondary = m.plan.secondary.filter((k) => hasPhrase(text, k, language));
    await rewrite(m, {
      spans: [target.sentence.span],
      replaced: [text],
      passage: {
        budget: countWords(text, language),
        primaryUses: hasPhrase(text, m.plan.primary, language) ? 1 : 0,
        secondary,
        section: 0,
      },
      check,
      reason: "The sentence holds a phrase to avoid.",
      accept: (written) => !m.avoid.holds(written),
    });
  }
}

/** The next sentence holding a banned phrase, not tried yet. */
function bannedSentence(m: Mending, tried: ReadonlySet<string>): { sentence: LocatedSentence } | undefined {
  for (const block of m.state.located.blocks) {
    if (block.kind !== "paragraph") continue;
    const sentence = block.sentences.find((s) => m.avoid.holds(s.text) && !tried.has(s.text));
    if (sentence) return { sentence };
  }
  for (const block of m.state.located.blocks) {
    if (block.kind === "other") {
      const text = m.state.located.markdown.slice(block.span.start, block.span.end);
      if (m.avoid.holds(text))
        m.state.note(bannedCheck(m, text), "a banned phrase stands in a list, quote or table, which a refresh leaves as it is");
    }
  }
  return undefined;
}

/** Rewrite the introduction's first two sentences so they hold the primary keyword; write an introduction when there is none. */
export async function mendIntroduction(m: Mending): Promise<void> {
  if (!m.state.fails("keyword-in-introduction")) return;
  const { located } = m.state;
  const intro = located.sections[0]!.blocks.map((i) => located.blocks[i]!);
  const first = intro[0];
  const passage = { primaryUses: 1, secondary: [], opening: true, section: 0 };
  if (!first) {
    const at = bodyStart(located);
    const written = await m.writer.prose({
      context: `# ${m.title}\n\n`,
      passage: { ...passage, budget: 40 },
      grounding: noGrounding(m),
      seen: seenAround(located, at),
      room: room(m),
    });
    if (!written.words) return m.state.note("keyword-in-introduction", "the model wrote no opening the sentence gate kept");
    const edit = { start: at, end: at, text: `${at ? "\n\n" : ""}${written.markdown}${at ? "" : "\n\n"}` };
    m.state.propose(
      [edit],
      {
        section: INTRODUCTION,
        check: "keyword-in-introduction",
        reason: "The article had no introduction before its first subheading.",
        before: "",
        after: written.markdown,
      },
      written.words,
    );
    return;
  }
  if (first.kind !== "paragraph")
    return m.state.note("keyword-in-introduction", "the introduction opens with a list, quote or table, which a refresh leaves as it is");
  const opening = first.sentences.slice(0, 2);
  if (opening.some((s) => !s.span))
    return m.state.note(
      "keyword-in-introduction",
      "the introduction's first sentences hold Markdown (a link or emphasis) that a rewrite would lose",
    );
  const words = opening.reduce((n, s) => n + countWords(s.text, m.state.language), 0);
  await rewrite(m, {
    spans: opening.map((s) => s.span!),
    replaced: opening.map((s) => s.text),
    passage: { ...passage, budget: Math.max(12, words) },
    check: "keyword-in-introduction",
    reason: `The primary keyword “${m.plan.primary}” was not in the introduction's first two sentences.`,
    accept: (_written, sentences) => hasPhrase(sentences.slice(0, 2).join(" "), m.plan.primary, m.state.language),
  });
}

/** What one rewrite replaces and how the written prose is judged. */
interface Rewrite {
  /** Consecutive sentence spans of one paragraph. */
  spans: Span[];
  replaced: string[];
  passage: { budget: number; primaryUses: number; secondary: string[]; opening?: boolean; section: number };
  check: CheckId;
  reason: string;
  /** Whether the prose does what the check asked. */
  accept: (markdown: string, sentences: string[]) => boolean;
}

/** Have the model write prose in place of some sentences, from the text before them; propose it when it does what the check asked. */
async function rewrite(m: Mending, r: Rewrite): Promise<void> {
  const start = r.spans[0]!.start;
  const end = r.spans.at(-1)!.end;
  const language = m.state.language;
  const replacedWords = r.replaced.reduce((n, s) => n + countWords(s, language), 0);
  const written = await m.writer.prose({
    context: contextBefore(m, start),
    passage: r.passage,
    grounding: noGrounding(m),
    seen: seenAround(m.state.located, start, r.replaced),
    room: room(m, replacedWords),
  });
  if (!written.words || !r.accept(written.markdown, written.sentences)) {
    m.state.note(r.check, `the model's rewrite of ${quoted(r.replaced[0]!)} did not do what the check asks`);
    return;
  }
  const before = m.state.located.markdown.slice(start, end);
  const section = sectionAt(m.state.located, start).name;
  m.state.propose(
    [{ start, end, text: written.markdown }],
    { section, check: r.check, reason: r.reason, before, after: written.markdown },
    written.words,
  );
}

/** Extend the shortest sections with new paragraphs while the article is shorter than asked (at most one try a section). */
export async function mendLength(m: Mending): Promise<void> {
  const target = m.state.request.length;
  if (target === undefined || !(m.state.fails("length-target") || m.state.fails("text-length"))) return;
  const short = () => m.state.report.wordCount < Math.ceil((target * (100 - LENGTH_TOLERANCE / 2)) / 100);
  if (!short()) return;
  const tried = new Set<string>();
  while (short()) {
    const { located } = m.state;
    const sections = located.sections
      .filter((s) => !tried.has(s.name) && s.blocks.some((i) => located.blocks[i]!.kind === "paragraph"))
      .map((s) => ({
        s,
        words: s.blocks.reduce((n, i) => n + ("words" in located.blocks[i]! ? (located.blocks[i] as { words: number }).words : 0), 0),
      }))
      .sort((a, b) => a.words - b.words);
    const pick = sections[0];
    if (!pick) break;
    tried.add(pick.s.name);
    const last = located.blocks[pick.s.blocks.at(-1)!]!;
    const missing = target - m.state.report.wordCount;
    const written = await m.writer.prose({
      context: `${contextBefore(m, last.span.end)}\n\n`,
      passage: { budget: Math.min(missing, 120), primaryUses: 0, secondary: [], section: 0 },
      grounding: noGrounding(m),
      seen: seenAround(located, last.span.end),
      room: room(m),
    });
    if (!written.words) continue;
    const edit = { start: last.span.end, end: last.span.end, text: `\n\n${written.markdown}` };
    m.state.propose(
      [edit],
      {
        section: pick.s.name,
        check: m.state.fails("length-target") ? "length-target" : "text-length",
        reason: `The article had ${m.state.report.wordCount} words of the ${target} asked for.`,
        before: "",
        after: written.markdown,
      },
      written.words,
    );
  }
  if (short())
    m.state.note(
      m.state.fails("length-target") ? "length-target" : "text-length",
      "every section was extended once and the model wrote no more the checks kept",
    );
}

const quoted = (sentence: string) => `“${sentence.length > 60 ? `${sentence.slice(0, 57)}…` : sentence}”`;
