/**
 * Prose written on its own at a spot of an existing article (a refresh's mends): one passage in
 * the one passage context, on a document of its own, its gate given the article's sentences the
 * new ones may not repeat. The body pass's steps, gate and keyword schedule write it; and the
 * sources list a refresh appends for its citations, as the body pass ends an article with it.
 */
import { ArticleDocument } from "./document.js";
import { passageContext, writePassage, type Passage, type PassageSetup } from "./passage.js";

/** What prose at a spot is written with: the session's setup (the document is its own), the passage, and what bounds it. */
export interface ProseSetup extends Omit<PassageSetup, "document" | "wordsLeft"> {
  passage: Passage;
  /** Sentences of the article the new ones may not repeat, those right before the spot last. */
  seen: readonly string[];
  /** Body words the new prose may hold at most (the length promise). */
  room: number;
}

/** Prose the model wrote: its Markdown (links and citation markers placed by the grounding) and its sentences. */
export interface WrittenProse {
  markdown: string;
  sentences: string[];
  words: number;
}

/** One passage at a spot, sentence by sentence, as the body pass writes it; empty when the model wrote nothing the gate kept. */
export async function writeProse({ passage, seen, room, ...setup }: ProseSetup): Promise<WrittenProse> {
  const { plan } = setup;
  const document = new ArticleDocument(plan.request.language, [plan.primary, ...plan.secondary]);
  const context = passageContext({ ...setup, document, wordsLeft: () => room - document.wordCount });
  for (const sentence of seen) context.gate.keep(sentence, { articleStart: false, sectionStart: false });
  await writePassage(context, passage);
  document.finish();
  const sentences = document.blocks.flatMap((block) => (block.kind === "prose" ? block.sentences : []));
  return { markdown: document.markdown().trim(), sentences, words: document.wordCount };
}

/** The sources list a written article ends with ({@link ArticleDocument.addSources}), as Markdown of its own: what a refresh appends for its citations. */
export function sourcesList(language: string, label: string | null, cited: Parameters<ArticleDocument["addSources"]>[1]): string {
  const list = new ArticleDocument(language, []);
  list.addSources(label, cited);
  return list.markdown();
}
