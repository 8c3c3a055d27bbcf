import * as v from "valibot";
import { ModelRuntime } from "../src/model/runtime.js";
import { GenerateRequestSchema } from "../src/engine/request.js";
import { writeArticle } from "../src/engine/article.js";
const runtime = await ModelRuntime.load({ modelPath: "/work/shared/models/stories260K.gguf", threads: 1, sequences: 1, queueSize: 4 });
for (const structure of ["paragraphs", "sections", "detailed"]) for (const headingTags of [true, false]) for (const length of [300, 800, 2000]) {
  const req = v.parse(GenerateRequestSchema, { topic: "Indoor plants", length, structure, seed: 11, seo: { keywords: "indoor plants, watering schedule, potting soil", headingTags } });
  const t = Date.now();
  const { response } = await writeArticle(req, { runtime });
  const failed = response.seo.checks.filter((c) => c.passed === false).map((c) => c.message);
  console.log(structure, headingTags, length, "words", response.article.wordCount, "score", response.seo.score, Date.now() - t, "ms", failed.join(" | "));
  if (process.argv[2] === "show" && structure === "detailed" && length === 800) console.log(response.article.markdown);
}
await runtime.dispose();
