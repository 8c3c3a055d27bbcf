/**
 * Mends the model writes text for: headings holding a banned phrase or an AI cliché (when `mend`
 * names headings), an opening before the introduction when the keyword is missing there, and a
 * section extended when the article is shorter than asked. A sentence the author wrote is never
 * deleted or rewritten: one holding a banned phrase is named, and its check listed unmended.
 */
import { countBanned } from "../plan/avoid.js";
import type { CheckId } from "../../contract/checks.js";
import { LENGTH_TOLERANCE } from "../plan/limits.js";
import { countWords, hasPhrase, normaliseSentence } from "../text/text.js";
import { bodyStart, contextBefore, noGrounding, room, seenAround, type Mending } from "./context.js";
import { INTRODUCTION } from "../existing/locate.js";

/** Which check a text holding a phrase to avoid fails: a banned phrase of the request's, or a built-in cliché. */
function bannedCheck(m: Mending, text: string): CheckId {
  return countBanned([text], m.state.request.style?.avoid ?? m.plan.style.avoid).size ? "avoid" : "cliches";
}

/** The checks for phrases to avoid: the request's bans, and the clichés. */
const PHRASE_CHECKS: readonly CheckId[] = ["avoid", "cliches"];

/** Whether a check for phrases to avoid fails. */
const phrasesFail = (m: Mending) => PHRASE_CHECKS.some((id) => m.state.fails(id));

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
    await m.state.propose(
      [{ ...block.span, text: heading }],
      { section: block.text, check, reason: "The heading holds a phrase to avoid.", before: block.text, after: heading },
      countWords(heading, m.state.language),
    );
  }
}

/**
 * Name every body sentence that holds a banned phrase: the sentences are the author's, which a
 * refresh never deletes or rewrites, so the check is listed unmended with the sentence that fails it.
 */
export function mendBannedSentences(m: Mending): void {
  if (!phrasesFail(m)) return;
  for (const block of m.state.located.blocks) {
    if (block.kind === "paragraph") {
      const sentence = block.sentences.find((s) => m.avoid.holds(s.text));
      if (!sentence) continue;
      // A request's banned phrase may be a cliché as well: both checks name the sentence.
      for (const check of new Set([bannedCheck(m, sentence.text), ...PHRASE_CHECKS.filter((id) => m.state.fails(id))]))
        m.state.note(
          check,
          `the sentence ${quoted(sentence.text)} is the author's, and a refresh never deletes or rewrites what the author wrote`,
        );
    } else if (block.kind === "other") {
      const text = m.state.located.markdown.slice(block.span.start, block.span.end);
      if (m.avoid.holds(text))
        m.state.note(bannedCheck(m, text), "a banned phrase stands in a list, quote or table, which a refresh leaves as it is");
    }
  }
}

/**
 * When the introduction's first two sentences lack the primary keyword, an opening the model
 * writes (holding it) goes before the author's first paragraph, which stays as it was; an
 * article with no introduction gets one before its first subheading.
 */
export async function mendIntroduction(m: Mending): Promise<void> {
  if (!m.state.fails("keyword-in-introduction")) return;
  const { located } = m.state;
  const first = located.sections[0]!.blocks.map((i) => located.blocks[i]!)[0];
  const at = first ? first.span.start : bodyStart(located);
  const written = await m.writer.prose({
    context: `# ${m.title}\n\n`,
    passage: { budget: first ? 24 : 40, primaryUses: 1, secondary: [], opening: true, section: 0 },
    grounding: noGrounding(m),
    seen: seenAround(located, at),
    room: room(m),
  });
  if (!written.words) return m.state.note("keyword-in-introduction", "the model wrote no opening the sentence gate kept");
  if (!hasPhrase(written.sentences.slice(0, 2).join(" "), m.plan.primary, m.state.language))
    return m.state.note("keyword-in-introduction", "the model's opening did not hold the primary keyword");
  const text = first ? `${written.markdown}\n\n` : `${at ? "\n\n" : ""}${written.markdown}${at ? "" : "\n\n"}`;
  await m.state.propose(
    [{ start: at, end: at, text }],
    {
      section: INTRODUCTION,
      check: "keyword-in-introduction",
      reason: first
        ? `The primary keyword “${m.plan.primary}” was not in the introduction's first two sentences: an opening holding it goes before the author's.`
        : "The article had no introduction before its first subheading.",
      before: "",
      after: written.markdown,
    },
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
    await m.state.propose(
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
