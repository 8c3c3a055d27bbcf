/**
 * Grounding mends, through the grounding stage: internal links planned per section of the
 * article (the same plan as generate's: about one per 200 words, one per paragraph) and placed
 * on words a sentence already holds, else in a sentence the model writes with the anchor
 * steered in; and citation markers after the sentences that restate a given source, with the
 * list of sources cited at the end.
 */
import { sourcesList } from "../body/prose.js";
import { Grounding } from "../grounding/grounding.js";
import { sameAddress, type UnlinkedPage } from "../grounding/links.js";
import { contextBefore, room, seenAround, type Mending } from "./context.js";
import type { LocatedBlock } from "../existing/locate.js";
import { mirrorSections } from "./plan.js";

type Paragraph = Extract<LocatedBlock, { kind: "paragraph" }>;

/** The pages still to link, and the grounding that plans them over the article's sections. */
export function linkGrounding(m: Mending): { grounding: Grounding; wanted: number; leftOut: UnlinkedPage[] } | undefined {
  const links = m.state.request.links ?? [];
  if (!links.length) return undefined;
  const found = m.state.held.linked;
  const open = links.filter((link) => !found.some((url) => sameAddress(url, link.url)));
  const { plan, outline } = mirrorSections(m.plan, m.state.located);
  const grounding = new Grounding({ plan, outline, links: open });
  const stats = grounding.stats();
  return {
    grounding,
    wanted: stats.linksWanted + (links.length - open.length),
    leftOut: stats.unlinked.filter((page) => page.reason !== "not-written"),
  };
}

/** Place every planned link: on an anchor a sentence of its section holds, else in one sentence the model writes there. */
export async function mendLinks(m: Mending, grounding: Grounding): Promise<void> {
  const sections = m.state.located.sections.length;
  for (let s = 0; s < sections; s++) {
    for (let tries = 0; grounding.owes(s) && tries < 4; tries++) {
      if (await placeOnSentence(m, grounding, s)) continue;
      if (!(await writeLinked(m, grounding, s))) break;
    }
  }
  for (const page of grounding.stats().unlinked)
    if (page.reason === "not-written") m.state.note("internal-links", `no sentence could carry a link to ${page.url}`);
}

/** Link words a sentence of section `s` holds; true when a link was placed. */
async function placeOnSentence(m: Mending, grounding: Grounding, s: number): Promise<boolean> {
  const { located } = m.state;
  const paragraphs = located.sections[s]!.blocks.map((i) => located.blocks[i]!).filter(
    (b): b is Paragraph => b.kind === "paragraph" && !b.linked,
  );
  for (const [p, paragraph] of paragraphs.entries()) {
    for (const [i, sentence] of paragraph.sentences.entries()) {
      // Never the article's first sentence, as generate never links it.
      if (!sentence.span || (s === 0 && p === 0 && i === 0)) continue;
      // Only a sentence that stands in the text exactly as read (no line break inside) takes a link at its offsets.
      if (located.markdown.slice(sentence.span.start, sentence.span.end) !== sentence.text) continue;
      const link = grounding.place(s, sentence.text);
      if (!link) continue;
      const at = sentence.span.start + link.start;
      const words = sentence.text.slice(link.start, link.start + link.length);
      const text = `[${words}](${link.url})`;
      const after = `${sentence.text.slice(0, link.start)}${text}${sentence.text.slice(link.start + link.length)}`;
      await m.state.propose([{ start: at, end: at + link.length, text }], {
        section: located.sections[s]!.name,
        check: "internal-links",
        reason: `A sentence held an anchor for ${link.url}.`,
        before: sentence.text,
        after,
      });
      return true;
    }
  }
  return false;
}

/** One sentence the model writes at the end of section `s`'s last paragraph, the owed anchor steered into it; false when the section has no paragraph. */
async function writeLinked(m: Mending, grounding: Grounding, s: number): Promise<boolean> {
  const { located } = m.state;
  const last = [...located.sections[s]!.blocks]
    .reverse()
    .map((i) => located.blocks[i]!)
    .find((b): b is Paragraph => b.kind === "paragraph");
  if (!last) return false;
  const before = grounding.stats().linksPlaced;
  const written = await m.writer.prose({
    context: contextBefore(m, last.span.end),
    passage: { budget: 24, primaryUses: 0, secondary: [], section: s },
    grounding,
    seen: seenAround(located, last.span.end),
    room: room(m),
  });
  // The model did not write the anchor: the section tries again with the next seed, a few times.
  if (grounding.stats().linksPlaced === before || !written.words) return true;
  const edit = { start: last.span.end, end: last.span.end, text: ` ${written.markdown.replace(/\n\n/gu, " ")}` };
  await m.state.propose(
    [edit],
    {
      section: located.sections[s]!.name,
      check: "internal-links",
      reason: "No sentence held an anchor for a page the section links.",
      before: "",
      after: written.markdown,
    },
    written.words,
  );
  return true;
}

/** Citation markers after the sentences that restate a given source, and the list of sources cited. */
export async function mendCitations(m: Mending): Promise<void> {
  const sources = m.state.request.sources ?? [];
  if (!sources.length) return;
  if (m.state.held.kept.citations > 0) {
    m.state.note("sources-cited", "the article has citation markers of its own; new ones are not numbered beside them");
    return;
  }
  const { plan, outline } = mirrorSections(m.plan, m.state.located);
  const grounding = new Grounding({ plan, outline, sources });
  const { located } = m.state;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [s, section] of located.sections.entries()) {
    grounding.notes(s);
    for (const i of section.blocks) {
      const block = located.blocks[i]!;
      if (block.kind !== "paragraph") continue;
      for (const sentence of block.sentences) {
        const cited = sentence.span && grounding.cite(sentence.text);
        if (cited && sentence.span)
          edits.push({
            start: sentence.span.end,
            end: sentence.span.end,
            text: cited.url ? `[[${cited.n}]](${cited.url})` : `[${cited.n}]`,
          });
      }
    }
  }
  const cited = grounding.citedSources();
  if (!cited.length) {
    m.state.note("sources-cited", "no sentence of the article restates a passage of the given sources");
    return;
  }
  const list = sourcesList(m.state.language, m.state.request.seo.headingTags ? m.plan.labels.sources || null : null, cited);
  const end = m.state.markdown.trimEnd().length;
  edits.push({ start: end, end, text: `\n\n${list}` });
  await m.state.propose(edits, {
    section: "Sources",
    check: "sources-cited",
    reason: `${cited.length} of ${sources.length} given sources are restated by sentences of the article.`,
    before: "",
    after: list,
  });
}
