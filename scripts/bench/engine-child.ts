/**
 * One engine on the scripted writer, for scripts/bench/engine.ts, in a process of its own:
 * `node --import tsx --expose-gc engine-child.ts <checkout>`. It loads that checkout's
 * `writeArticle`, request schema and fake backend, found by what their files export (so any
 * folder layout serves), and answers each `{ words, length }` message with the CPU time of one
 * article whose body the fake model writes in distinct sentences of `words` words.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.argv[2]!;

/** What this script asks of the checkout's modules: the shapes every engine since the fake backend's `prose` option has. */
type WriteArticle = (request: object, options: { backend: FakeBackend; onOutline: () => void }) => Promise<unknown>;
type Schema = { "~standard": { validate(value: unknown): { value?: Record<string, unknown>; issues?: unknown } } };
type Writer = { usage: { completionTokens: number }; dispose(): Promise<void> };
type FakeBackend = { writer(signal?: AbortSignal): Promise<Writer>; dispose(): Promise<void> };

/** The one export `name` of the one file in the checkout that matches `pattern`. */
async function load<T>(pattern: string, name: string): Promise<T> {
  const files = ["src", "scripts", "test"]
    .flatMap((folder) => readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" }).map((file) => path.join(folder, file)))
    .filter((file) => file.endsWith(".ts") && new RegExp(pattern, "m").test(readFileSync(path.join(root, file), "utf8")));
  if (files.length !== 1) throw new Error(`${root}: ${files.length} files match ${pattern}`);
  return ((await import(pathToFileURL(path.join(root, files[0]!)).href)) as Record<string, T>)[name]!;
}

const writeArticle = await load<WriteArticle>("^export async function writeArticle\\(", "writeArticle");
const schema = await load<Schema>("^export const GenerateRequestSchema ", "GenerateRequestSchema");
const Backend = await load<new (options: { prose: () => Iterator<string> }) => FakeBackend>("^export class FakeBackend ", "FakeBackend");

const OPENERS = [
  "Often",
  "Usually",
  "Sometimes",
  "Later",
  "Today",
  "Meanwhile",
  "Ideally",
  "Naturally",
  "Eventually",
  "Clearly",
  "Typically",
];
const WORDS = (
  "home gardeners city growers careful beginners busy families school groups allotment keepers patient farmers weekend helpers " +
  "add turn check water cover sort gather dry leaves coffee grounds grass clippings vegetable peelings shredded cardboard eggshell " +
  "pieces straw bundles wood chips near the garden shed before first frost after heavy rain early morning steady hand"
).split(" ");

/** Endless distinct sentences of `words` words: the two lists' lengths are coprime, so none repeats and neighbours never open alike. */
function* sentencesOf(words: number): Generator<string> {
  for (let n = 0; ; n++)
    yield `${OPENERS[n % OPENERS.length]} ${Array.from({ length: words - 1 }, (_, j) => WORDS[(n * 7 + j * 13) % WORDS.length]).join(" ")}.`;
}

/** The process's CPU time, ms: other work on a shared machine does not count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One article: the body pass's CPU time and tokens (the outline written to the writer given back), and the whole article's CPU time. */
async function run({ words, length }: { words: number; length: number }) {
  const parsed = schema["~standard"].validate({
    topic: "Home composting for beginners",
    length,
    structure: "sections",
    seed: 1,
    seo: { keywords: "compost bin, garden waste" },
  });
  if (!parsed.value) throw new Error(`the bench request is not valid here: ${JSON.stringify(parsed.issues)}`);
  const { stream: _stream, ...request } = parsed.value;
  const backend = new Backend({ prose: () => sentencesOf(words) });
  let writer: Writer | undefined;
  let start: ReturnType<typeof mark> | undefined;
  let end: ReturnType<typeof mark> | undefined;
  const mark = () => ({ t: cpuMs(), tokens: writer!.usage.completionTokens });
  const borrow = backend.writer.bind(backend);
  // The body pass ends where the engine gives its writer back: one mark there, none per sentence.
  backend.writer = async (signal?: AbortSignal) => {
    const lent = (writer = await borrow(signal));
    const giveBack = lent.dispose.bind(lent);
    lent.dispose = () => {
      end = mark();
      return giveBack();
    };
    return lent;
  };
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = cpuMs();
  await writeArticle(request, { backend, onOutline: () => (start = mark()) });
  const articleMs = cpuMs() - t0;
  await backend.dispose();
  if (!start || !end) throw new Error(`${root}: writeArticle called no onOutline`);
  return { bodyMs: end.t - start.t, bodyTokens: end.tokens - start.tokens, articleMs };
}

process.on("message", (message: { words: number; length: number }) => {
  run(message).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ error: String(error instanceof Error ? error.stack : error) }),
  );
});
process.send!({ ready: true });
