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
const CONTRACT = path.join(SRC, "contract") + path.sep;

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

/** Where a file of src/ sits: its top-level folder, or its own name for a file at the top. */
const folderOf = (file: string) => rel(file).split(path.sep)[0]!;

/** The import cycles between the top-level folders (and files) of src/, each as the edges that close it. */
function folderCycles(): string[] {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of GRAPH)
    for (const target of targets)
      if (folderOf(file) !== folderOf(target)) edges.set(folderOf(file), (edges.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
  // Each edge a → b that b reaches back from closes a cycle.
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    if (from === to) return true;
    seen.add(from);
    return [...(edges.get(from) ?? [])].some((next) => !seen.has(next) && reaches(next, to, seen));
  };
  return [...edges].flatMap(([a, targets]) => [...targets].filter((b) => reaches(b, a)).map((b) => `${a} -> ${b}`));
}

/** The article engine's stages in the order a request walks them; each imports only those before it. */
const STAGES = ["text", "gbnf", "plan", "outline", "grounding", "body", "report", "existing", "output", "mend"];

/** Where a file of src/article/ sits: a stage or the top level. */
const stageOf = (file: string) => {
  const parts = path.relative(ARTICLE, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : "top";
};

describe("the source's structure", () => {
  it("has no import cycle in src/", () => {
    expect(cycles()).toEqual([]);
  });

  it("has no import cycle between the top-level folders of src/", () => {
    expect(folderCycles()).toEqual([]);
  });

  it("keeps the contract (src/contract/) at the bottom: it imports only itself and the two leaves it shares, the error base and field-name suggestions", () => {
    const LEAVES = [path.join(SRC, "errors.ts"), path.join(SRC, "did-you-mean.ts")];
    const above = SOURCES.filter((file) => file.startsWith(CONTRACT)).flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => !target.startsWith(CONTRACT) && !LEAVES.includes(target))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    const leavesImporting = LEAVES.filter((leaf) => GRAPH.get(leaf)!.length > 0).map(rel);
    expect([...above, ...leavesImporting]).toEqual([]);
  });

  it("keeps model/ below the engine: no module of src/model/ imports one of src/article/", () => {
    const MODEL = path.join(SRC, "model") + path.sep;
    const upward = SOURCES.filter((file) => file.startsWith(MODEL)).flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => target.startsWith(ARTICLE + path.sep))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(upward).toEqual([]);
  });

  it("types the engine's state with its own types: no stage module imports a contract answer type, and the report becomes the wire's in answer.ts alone", () => {
    const ANSWER = path.join(ARTICLE, "answer.ts");
    /** The contract's answer types (`…Response`) a file imports, each as `file: name`. */
    const answerTypes = (file: string) =>
      [...text.get(file)!.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["'](\.{1,2}\/[^"']+)["']/g)]
        .filter((match) => path.resolve(path.dirname(file), match[2]!).startsWith(CONTRACT))
        .flatMap((match) => [...match[1]!.matchAll(/\b(\w+Response)\b/g)].map((name) => `${rel(file)}: ${name[1]}`));
    const engine = SOURCES.filter((file) => file.startsWith(ARTICLE + path.sep));
    const stages = engine.filter((file) => stageOf(file) !== "top").flatMap(answerTypes);
    // The entries at the top answer in the contract's types; the analysis answer and the SEO report are converted in one module.
    const analysis = engine.filter((file) => file !== ANSWER && /\bAnalysisResponse\b|\["seo"\]/.test(text.get(file)!)).map(rel);
    expect([...stages, ...analysis]).toEqual([]);
    expect(answerTypes(ANSWER).length).toBeGreaterThan(0);
  });

  it("draws every sampling seed from one seed sequence (article/plan/seeds.ts): no other file adds a multiple of a constant to a seed", () => {
    const SEEDS = path.join(ARTICLE, "plan", "seeds.ts");
    const formulas = SOURCES.filter((file) => file !== SEEDS && /seed\s*\+[^;\n]*\*\s*\d/.test(text.get(file)!));
    expect(formulas.map(rel)).toEqual([]);
    expect(/seed\s*\+[^;\n]*\*\s*\d/.test(text.get(SEEDS)!)).toBe(true);
  });

  it("keeps the engine's door narrow: src/article/index.ts exports at most 30 names", () => {
    const door = ts.createSourceFile("index.ts", text.get(path.join(ARTICLE, "index.ts"))!, ts.ScriptTarget.Latest);
    const names = door.statements.flatMap((statement) =>
      ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map((element) => element.name.text)
        : [],
    );
    expect(names.length, names.join(", ")).toBeGreaterThan(0);
    expect(names.length, names.join(", ")).toBeLessThanOrEqual(30);
    expect(door.statements.filter((statement) => !ts.isExportDeclaration(statement)).length).toBe(0);
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

  it("enters the article engine through its one door (src/article/index.ts)", () => {
    const DOOR = path.join(ARTICLE, "index.ts");
    // The playground's browser bundle parses Markdown and bounds budgets as the engine does, and only that: through the door it would bundle the model runtime.
    const BROWSER = path.join(SRC, "http", "pages", "client") + path.sep;
    const PURE = [
      path.join(ARTICLE, "text", "markdown.ts"),
      path.join(ARTICLE, "text", "html.ts"),
      path.join(ARTICLE, "plan", "limits.ts"),
    ];
    const around = SOURCES.filter((file) => !file.startsWith(ARTICLE + path.sep)).flatMap((file) =>
      GRAPH.get(file)!
        .filter((target) => target.startsWith(ARTICLE + path.sep) && target !== DOOR)
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

  it("walks the article engine's stages one way", () => {
    const backwards: string[] = [];
    for (const file of SOURCES.filter((f) => f.startsWith(ARTICLE + path.sep))) {
      const from = stageOf(file);
      for (const target of GRAPH.get(file)!.filter((t) => t.startsWith(ARTICLE + path.sep))) {
        const to = stageOf(target);
        if (from === to || from === "top") continue;
        // The writer's ledger wraps the one writer every stage talks to the model through.
        if (to === "top" && path.basename(target) === "ledger.ts") continue;
        if (to === "top" || STAGES.indexOf(to) >= STAGES.indexOf(from)) backwards.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it("keeps the wire contract in one folder (src/contract/): every schema the API documents, and all the client's types read", () => {
    const documented = SOURCES.filter((file) => !file.startsWith(CONTRACT) && /\bv\.description\(|\bdescribed\(/.test(text.get(file)!));
    const client = GRAPH.get(path.join(SRC, "client", "types.ts"))!.filter((target) => !target.startsWith(CONTRACT));
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
