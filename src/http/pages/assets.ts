/**
 * The pages' scripts, served as files of their own under `/assets/` so that a page's
 * Content-Security-Policy can allow this origin's scripts and nothing inline.
 *
 * Each script is a typed browser module in `client/`, type-checked with the rest. The build
 * (`tsc`) compiles it beside this file; a server run from the TypeScript sources (tsx) has no
 * compiled copy, so it strips the types itself with esbuild, once per script. No hand-written
 * JavaScript copy exists to drift.
 */
import { readFile } from "node:fs/promises";

/** Where the scripts are served. */
export const ASSETS_PATH = "/assets/";

/** The modules of `client/` a browser may load: the playground's entry and what it imports. */
const SCRIPTS = ["playground", "dom", "markdown", "report", "sse"] as const;

/** The name of one of the scripts. */
export type ScriptName = (typeof SCRIPTS)[number];

/** Whether a name is one of the scripts. */
export function isScriptName(name: string): name is ScriptName {
  return (SCRIPTS as readonly string[]).includes(name);
}

/** The URL a page loads a script from. */
export function scriptUrl(name: ScriptName): string {
  return `${ASSETS_PATH}${name}.js`;
}

const compiled = new Map<ScriptName, Promise<string>>();

/** A script as the browser runs it: the build's JavaScript, or the TypeScript source compiled on first use. */
export function scriptSource(name: ScriptName): Promise<string> {
  let source = compiled.get(name);
  if (!source) {
    source = load(name);
    // A failure is not kept: the next request tries again.
    source.catch(() => compiled.delete(name));
    compiled.set(name, source);
  }
  return source;
}

async function load(name: ScriptName): Promise<string> {
  try {
    return await readFile(new URL(`./client/${name}.js`, import.meta.url), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const typescript = await readFile(new URL(`./client/${name}.ts`, import.meta.url), "utf8");
  // esbuild is a devDependency, like tsx that runs the sources; a built server never gets here.
  const { transform } = await import("esbuild");
  const { code } = await transform(typescript, { loader: "ts", format: "esm", target: "es2022", sourcefile: `${name}.ts` });
  return code;
}
