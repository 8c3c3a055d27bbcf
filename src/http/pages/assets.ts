/**
 * The pages' scripts, served as files of their own under `/assets/` so that a page's
 * Content-Security-Policy can allow this origin's scripts and nothing inline.
 *
 * Each script is a typed browser module in `client/` (type-checked with the rest), bundled by
 * esbuild with everything it imports (the Markdown renderer, the package's own API client)
 * into one self-contained module. `npm run build` writes the bundles beside this file
 * (scripts/bundle-pages.ts), so a built or installed server only reads them; a server run
 * from the TypeScript sources (tsx) bundles each script once, on first use. esbuild is a
 * devDependency, like tsx. No hand-written JavaScript copy exists to drift.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Where the scripts are served. */
const ASSETS_PATH = "/assets/";

/** The modules of `client/` that pages load: each is bundled, and only these are served. */
export const PAGE_SCRIPTS = ["playground"] as const;

/** Whether a name is one of the {@link PAGE_SCRIPTS}. */
export function isScriptName(name: string): name is (typeof PAGE_SCRIPTS)[number] {
  return (PAGE_SCRIPTS as readonly string[]).includes(name);
}

/** The URL a page loads a script from. */
export function scriptUrl(name: string): string {
  return `${ASSETS_PATH}${name}.js`;
}

/** The bundle of a page script from its TypeScript source: one ES module, minified, importing nothing. */
export async function bundleScript(name: (typeof PAGE_SCRIPTS)[number]): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./client/${name}.ts`, import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    // Error classes keep their names (InkpressError names each error after its class).
    keepNames: true,
    write: false,
  });
  return result.outputFiles[0]!.text;
}

const bundles = new Map<string, Promise<string | undefined>>();

/** A page script as the browser runs it: the build's bundle, or one made now from the sources; undefined for any other name. */
export function scriptSource(name: string): Promise<string | undefined> {
  if (!isScriptName(name)) return Promise.resolve(undefined);
  let source = bundles.get(name);
  if (!source) {
    source = load(name);
    // A failure is not kept: the next request tries again.
    source.catch(() => bundles.delete(name));
    bundles.set(name, source);
  }
  return source;
}

async function load(name: (typeof PAGE_SCRIPTS)[number]): Promise<string> {
  try {
    return await readFile(new URL(`./client/${name}.js`, import.meta.url), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return bundleScript(name);
}
