import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { SHARED_TIERS } from "../../vitest.config.js";

/**
 * The house rules a newcomer relies on, read from the source itself: imports go one way,
 * the article engine's stages are entered in order, errors share one base, pieces stay small.
 */

const SRC = path.resolve(import.meta.dirname, "../../src");
const ARTICLE = path.join(SRC, "article");

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : /\.ts$/.test(entry.name) ? [full] : [];
  });

const SOURCES = files(SRC);
const text = new Map(SOURCES.map((file) => [file, readFileSync(file, "utf8")]));

/** Every file of src/ a file imports (static, re-exported or dynamic), type-only imports included. */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const match of text.get(file)!.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, ".ts"));
    if (text.has(target)) found.push(target);
  }
  return found;
}

const GRAPH = new Map(SOURCES.map((file) => [file, importsOf(file)]));
const rel = (file: string) => path.relative(SRC, file);

/** The import cycles of the graph: each strongly connected component of more than one file (Tarjan). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of GRAPH.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(rel(member));
    } while (member !== file);
    if (component.length > 1 || GRAPH.get(file)!.includes(file)) found.push(component);
  };
  for (const file of SOURCES) if (!index.has(file)) visit(file);
  return found;
}

/** The article engine's stages in the order a request walks them; each imports only those before it. */
const STAGES = ["text", "gbnf", "plan", "outline", "grounding", "body", "report", "existing", "output", "mend"];

/** The stages that read the request (the wire contract): each is the engine's entry of one request. */
const READERS = ["plan", "existing", "mend"];

/** Where a file of src/article/ sits: a stage, `wire` (the HTTP contract) or the top level. */
const stageOf = (file: string) => {
  const parts = path.relative(ARTICLE, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : "top";
};

describe("the source's structure", () => {
  it("has no import cycle in src/", () => {
    expect(cycles()).toEqual([]);
  });

  it("keeps cli/ and http/ apart: each uses the feature folders, never the other", () => {
    const crossing = SOURCES.flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => {
          const [from, to] = [rel(file).split(path.sep)[0], rel(target).split(path.sep)[0]];
          return (from === "cli" && to === "http") || (from === "http" && to === "cli");
        })
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(crossing).toEqual([]);
  });

  it("enters the article engine through its one door (src/article/index.ts), and reads the wire contract from src/article/wire/", () => {
    const DOOR = path.join(ARTICLE, "index.ts");
    const WIRE = path.join(ARTICLE, "wire") + path.sep;
    // The playground's browser bundle parses Markdown and bounds budgets as the engine does, and only that: through the door it would bundle the model runtime.
    const BROWSER = path.join(SRC, "http", "pages", "client") + path.sep;
    const PURE = [
      path.join(ARTICLE, "text", "markdown.ts"),
      path.join(ARTICLE, "text", "html.ts"),
      path.join(ARTICLE, "plan", "limits.ts"),
    ];
    const around = SOURCES.filter((file) => !file.startsWith(ARTICLE + path.sep)).flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => target.startsWith(ARTICLE + path.sep) && target !== DOOR && !target.startsWith(WIRE))
        .filter((target) => !(file.startsWith(BROWSER) && PURE.includes(target)))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(around).toEqual([]);
  });

  it("reads a site's page files (pages, slugs, links and source files) through src/site/: audit, batch and refresh never reach sideways", () => {
    // batch --refresh runs the refresh feature on each file: the one crossing, downward to a feature it drives.
    const SIDEWAYS = ["audit>batch", "audit>refresh", "refresh>audit", "refresh>batch", "batch>audit"];
    const crossing = SOURCES.flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => SIDEWAYS.includes(`${rel(file).split(path.sep)[0]}>${rel(target).split(path.sep)[0]}`))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(crossing).toEqual([]);
  });

  it("walks the article engine's stages one way, and only the request's entry reads the wire contract", () => {
    const backwards: string[] = [];
    for (const file of SOURCES.filter((f) => f.startsWith(ARTICLE + path.sep))) {
      const from = stageOf(file);
      for (const target of GRAPH.get(file)!.filter((t) => t.startsWith(ARTICLE + path.sep))) {
        const to = stageOf(target);
        if (from === to || from === "wire" || from === "top") continue;
        // The writer's ledger wraps the one writer every stage talks to the model through.
        if (to === "top" && path.basename(target) === "ledger.ts") continue;
        // Where a request becomes engine decisions, the one stage of each request that reads it: the plan
        // (generate), an existing article's targets (analyse) and the mending (refresh).
        if (to === "wire" && READERS.includes(from)) continue;
        // The structured data the output stage builds is typed by the contract's schema of it, a leaf of the contract.
        if (to === "wire" && from === "output" && path.basename(target) === "jsonld.ts") continue;
        if (to === "wire" || to === "top" || STAGES.indexOf(to) >= STAGES.indexOf(from)) backwards.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it("keeps the wire contract in one folder (article/wire/): every schema the API documents, and all the client's types read", () => {
    const WIRE = path.join(ARTICLE, "wire") + path.sep;
    const documented = SOURCES.filter((file) => !file.startsWith(WIRE) && /\bv\.description\(|\bdescribed\(/.test(text.get(file)!));
    const client = GRAPH.get(path.join(SRC, "client", "types.ts"))!.filter((target) => !target.startsWith(WIRE));
    expect([...documented.map(rel), ...client.map(rel)]).toEqual([]);
  });

  it("keeps scripts/ (the bench, the fixtures) off the test folders: what both need lives in scripts/ or src/", () => {
    const SCRIPTS = path.resolve(SRC, "../scripts");
    const reaching = files(SCRIPTS).filter((file) => /(?:from|import)\s*\(?\s*["'](?:\.\.\/)+test\//.test(readFileSync(file, "utf8")));
    expect(reaching.map((file) => path.relative(SCRIPTS, file))).toEqual([]);
  });

  it("keeps the tiers that share loaded modules (unit, http) free of module mocks and stubbed env, globals or timers", () => {
    const TEST = path.resolve(SRC, "../test");
    const shared = SHARED_TIERS.flatMap((tier) => files(path.join(TEST, tier)));
    const stubbing = shared.filter((file) => /\bvi\.(?:mock|doMock|stubEnv|stubGlobal|useFakeTimers)\(/.test(readFileSync(file, "utf8")));
    expect(stubbing.map((file) => path.relative(TEST, file))).toEqual([]);
  });

  it("reads and writes Markdown through one module, the one processor (text/markdown.ts)", () => {
    // Packages that parse or serialise Markdown; unified alone, remark-rehype and rehype turn a tree into HTML and read no Markdown.
    const MARKDOWN =
      /^(?:remark|remark-(?:parse|stringify|gfm|frontmatter)|mdast-util-(?:from-markdown|to-markdown|gfm|frontmatter)|micromark(?:-.*)?)$/;
    const importing = SOURCES.filter((file) =>
      [...text.get(file)!.matchAll(/(?:from|import)\s*\(?\s*["']([^"'.][^"']*)["']/g)].some((match) => MARKDOWN.test(match[1]!)),
    );
    expect(importing.map(rel)).toEqual([path.join("article", "text", "markdown.ts")]);
  });

  it("writes grammar text (GBNF rules) only in article/gbnf/", () => {
    const GBNF = path.join(ARTICLE, "gbnf") + path.sep;
    // The remote backend's probe asks a server for one fixed word; model/ sits below the engine and cannot use its builder.
    const PROBE = path.join(SRC, "model", "remote", "openai.ts");
    // Ollama's pattern reads the engine's grammars (to send each as a JSON-schema pattern); it writes none.
    const READER = path.join(SRC, "model", "remote", "pattern.ts");
    const writing = SOURCES.filter((file) => !file.startsWith(GBNF) && file !== PROBE && file !== READER && /::=/.test(text.get(file)!));
    expect(writing.map(rel)).toEqual([]);
  });

  it("raises errors through the one base (src/errors.ts)", () => {
    const outside = SOURCES.filter(
      (file) => file !== path.join(SRC, "errors.ts") && /\bextends\s+(Error|TypeError|RangeError)\b/.test(text.get(file)!),
    );
    expect(outside.map(rel)).toEqual([]);
  });

  it("keeps files under 400 lines and functions under 80", () => {
    const long: string[] = [];
    for (const file of SOURCES) {
      const source = ts.createSourceFile(file, text.get(file)!, ts.ScriptTarget.Latest, true);
      const lines = (node: ts.Node) =>
        source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      if (source.getLineAndCharacterOfPosition(source.getEnd()).line + 1 > 400) long.push(`${rel(file)}: over 400 lines`);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && "body" in node && node.body && lines(node) > 80)
          long.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: a function of ${lines(node)} lines`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
