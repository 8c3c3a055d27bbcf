/**
 * Articles byte-identical across a change: `npx tsx scripts/digests.ts [COMMIT]` asks 24 generate
 * requests (12 on stories260K, 12 on the ChatML test model) and the refresh test's planted article
 * at 10 seeds of `inkpress serve` of this tree, or of COMMIT's files (installed once, as the bench
 * does), and prints one SHA-256 per answer of what the model and the engine decide (the article,
 * the report, the token counts; not ids, times or dates). Two runs print the same lines exactly
 * when the engine's output did not change; `diff` them. With `DIGESTS_ANSWERS=DIR`, each generate
 * answer is also written to DIR as `<model>-<n>.json`, for `scripts/editor-measure.ts` to read.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { API_KEY, MODEL, ROOT } from "./bench/common.js";
import { checkout, type Server, serve } from "./bench/checkout.js";
import { plantedArticle } from "./fixtures/refresh.js";
import { writeTestModel } from "./make-test-model.js";

const TOPIC = { topic: "Caring for indoor plants", tone: "friendly", seo: { keywords: "indoor plants, watering schedule, potting soil" } };
const PAGES = [
  { url: "/guides/repotting/", title: "Repotting a root-bound plant", keywords: ["repotting"] },
  { url: "/guides/light/", title: "How much light houseplants need", keywords: ["bright light"] },
];
const SOURCE = {
  title: "Watering notes",
  text: "Most indoor plants want water when the top two centimetres of soil are dry. Pots need drainage holes. Rain water suits ferns.",
};

/** The 12 generate requests each model answers: every preset, both heading settings, three languages, bans, sources, links, an edited outline. */
const REQUESTS: object[] = [
  ...(["paragraphs", "sections", "detailed", "listicle", "how-to"] as const).map((structure, i) => ({
    ...TOPIC,
    structure,
    length: 300,
    seed: 10 + i,
  })),
  { ...TOPIC, structure: "sections", length: 800, seed: 20 },
  { ...TOPIC, structure: "detailed", length: 300, seed: 21, seo: { ...TOPIC.seo, headingTags: false } },
  { topic: "Zimmerpflanzen richtig gießen", language: "de", length: 300, seed: 22, seo: { keywords: "Zimmerpflanzen" } },
  { topic: "観葉植物の水やり", language: "ja", length: 300, seed: 23, seo: { keywords: "観葉植物" } },
  { ...TOPIC, length: 300, seed: 24, style: { avoid: ["very", "delve", "in conclusion"], cliches: false } },
  { ...TOPIC, length: 300, seed: 25, sources: [SOURCE], links: PAGES },
  {
    ...TOPIC,
    length: 300,
    seed: 26,
    outline: {
      title: "Indoor plants that thrive on a schedule",
      introduction: 60,
      headings: [
        { level: 2, text: "Why a watering schedule helps", words: 100 },
        { level: 2, text: "Choosing potting soil", words: 80 },
        { level: 3, text: "Drainage first", words: 40 },
      ],
    },
  },
];

/** The answer without what differs between two runs of the same engine: ids, clocks and dates. */
function stable(answer: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(answer), (key, value) =>
    ["id", "created", "durationMs", "datePublished", "dateModified", "requestId"].includes(key) ? undefined : value,
  );
}

/** Where generate answers are kept (`DIGESTS_ANSWERS`), if anywhere. */
const ANSWERS = process.env.DIGESTS_ANSWERS;

/** POST `body` to `route` and the digest of its answer; `keep` names the answer's file under {@link ANSWERS}. */
async function digest(server: Server, route: string, body: object, keep?: string): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) return `status ${response.status}: ${text.slice(0, 200)}`;
  if (ANSWERS && keep) await mkdir(ANSWERS, { recursive: true }).then(() => writeFile(path.join(ANSWERS, `${keep}.json`), text));
  return createHash("sha256")
    .update(JSON.stringify(stable(JSON.parse(text))))
    .digest("hex");
}

/** Every request of one model against one server, a line each. */
async function run(root: string, model: string, name: string, withRefresh: boolean): Promise<void> {
  const server = await serve(root, ["--model", model, "--threads", "1"]);
  try {
    for (const [i, body] of REQUESTS.entries())
      console.log(`${name} generate ${i + 1}: ${await digest(server, "generate", body, `${name}-${i + 1}`)}`);
    if (!withRefresh) return;
    const { request } = plantedArticle();
    for (let seed = 0; seed < 10; seed++)
      console.log(`${name} refresh seed ${seed}: ${await digest(server, "refresh", { ...request, seed })}`);
  } finally {
    await server.stop();
  }
}

const commit = process.argv[2];
const root = commit ? checkout(commit) : ROOT;
const chat = await writeTestModel({
  path: path.join(await mkdtemp(path.join(os.tmpdir(), "inkpress-digests-")), "tiny-chat.gguf"),
  variant: "chat",
});
await run(root, MODEL, "stories260K", true);
await run(root, chat, "chat", false);
