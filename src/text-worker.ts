/** A worker thread of the text pool (`TextPool`, text-pool.ts): each task is one text read, analysed or rendered as the engine does it. */
import { analyseExisting, learnVoice, readMarkdown, textsHere, wordVectors } from "./article/index.js";
import { articleOfMarkdown, bodyHtml } from "./publish/post.js";
import type { Publication, TextTask } from "./text-pool.js";
import { serveTasks } from "./worker-pool.js";

// The on-topic check's word vectors, loaded before the worker says it is ready: no analysis's
// time limit counts the load (a second on a loaded machine), nor does a replaced worker's first task.
wordVectors();
serveTasks((task: TextTask): unknown => {
  if (task.kind === "analyse") return analyseExisting(task.request, task.options).analysis;
  if (task.kind === "read") return void readMarkdown(task.text, task.field);
  if (task.kind === "refresh-reading") return textsHere.read(task.input);
  if (task.kind === "refreshed-article") return textsHere.article(task.input);
  if (task.kind === "voice") return learnVoice(task.request);
  const { article, recordedId } = articleOfMarkdown(task.markdown, task.target);
  const publication: Publication = { article: { ...article, renderedBody: bodyHtml(article) }, ...(recordedId ? { recordedId } : {}) };
  return publication;
});
