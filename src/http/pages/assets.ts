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
const ASSETS_PATH = "/assets/";

/** Whether a name can be a module of `client/`: lower-case words joined by hyphens, so no path can be formed. */
export function isScriptName(name: string): boolean {
  return /^[a-z]+(-[a-z]+)*$/.test(name);
}

/** The URL a page loads a script from. */
export function scriptUrl(name: string): string {
  return `${ASSETS_PATH}${name}.js`;
}

const compiled = new Map<string, Promise<string | undefined>>();

/**
 * A module of `client/` as the browser runs it: the build's JavaScript, or the TypeScript
 * source compiled on first use; undefined when `client/` has no such module.
 */
export function scriptSource(name: string): Promise<string | undefined> {
  let source = compiled.get(name);
  if (!source) {
    source = load(name);
    // A failure is not kept: the next request tries again.
    source.catch(() => compiled.delete(name));
    compiled.set(name, source);
  }
  return source;
}

/** A file's text, or undefined when it does not exist. */
async function readIfThere(url: URL): Promise<string | undefined> {
  try {
    return await readFile(url, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function load(name: string): Promise<string | undefined> {
  const built = await readIfThere(new URL(`./client/${name}.js`, import.meta.url));
  if (built !== undefined) return built;
  const typescript = await readIfThere(new URL(`./client/${name}.ts`, import.meta.url));
  if (typescript === undefined) return undefined;
  // esbuild is a devDependency, like tsx that runs the sources; a built server never gets here.
  const { transform } = await import("esbuild");
  const { code } = await transform(typescript, { loader: "ts", format: "esm", target: "es2022", sourcefile: `${name}.ts` });
  return code;
}
