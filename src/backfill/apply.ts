/**
 * The review file of link proposals, written and applied. `inkpress links DIR -o FILE` writes
 * one proposal a line; the user deletes the lines they reject; `--apply FILE` places the rest.
 * Every line is checked before any page is touched: a line that is not a proposal, or names a
 * file outside the folder, refuses the whole file by its line. Each page is then written
 * atomically beside a `.bak` of its bytes, only while it still holds what was read, with no
 * change but the link markup; a proposal whose anchor is no longer on its line, or whose
 * target the page now links, is skipped and said so.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { FileChangedError, fileVersion, writeFileAtomic } from "../atomic.js";
import { InkpressError } from "../errors.js";
import { MARKDOWN_PAGES } from "../site/pages.js";
import { readTextFile } from "../text-file.js";
import { placesCleanly, type Placement, withLinks } from "./markup.js";
import { readLinkablePage } from "./prose.js";
import type { Proposal } from "./propose.js";

/** A review file, or a line of it, that cannot be applied: its message names the file and line. */
export class LinksError extends InkpressError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 400 });
  }
}

/** The proposals as the review file's lines. */
export const reviewLines = (proposals: readonly Proposal[]) => proposals.map((p) => `${JSON.stringify(p)}\n`).join("");

/** A kept proposal: the fields `--apply` reads. */
type Kept = Pick<Proposal, "file" | "line" | "anchor" | "target"> & { at: string };

/** What applying a review file did. */
export interface Applied {
  /** Links placed. */
  links: number;
  /** Pages written (each beside its `.bak`). */
  files: string[];
  /** Proposals not placed, each with why. */
  skipped: string[];
}

/** Place the review file's proposals in the pages of `dir`. */
export async function applyLinks(dir: string, review: string, text: string): Promise<Applied> {
  const root = await realpath(dir).catch(() => {
    throw new LinksError(`${dir}: no such folder`);
  });
  const kept = await Promise.all(
    text.split("\n").flatMap((line, i) => (line.trim() ? [keptLine(root, dir, `${review}:${i + 1}`, line)] : [])),
  );
  const byFile = new Map<string, Kept[]>();
  for (const k of kept) byFile.set(k.file, [...(byFile.get(k.file) ?? []), k]);
  const applied: Applied = { links: 0, files: [], skipped: [] };
  for (const [file, proposals] of byFile) await applyFile(root, file, proposals, applied);
  return applied;
}

/** One line of the review file, checked: a proposal for a Markdown page inside the folder. */
async function keptLine(root: string, dir: string, at: string, line: string): Promise<Kept> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new LinksError(`${at}: not a JSON line; nothing was changed`);
  }
  const { file, line: number, anchor, target } = (value ?? {}) as Record<string, unknown>;
  if (typeof file !== "string" || !file) throw new LinksError(`${at}: needs "file", the page's path in ${dir}; nothing was changed`);
  if (!(Number.isInteger(number) && (number as number) >= 1))
    throw new LinksError(`${at}: needs "line", a line number; nothing was changed`);
  if (typeof anchor !== "string" || !anchor.trim()) throw new LinksError(`${at}: needs "anchor", the words to link; nothing was changed`);
  if (typeof target !== "string" || !target.trim() || /[\s<>]/u.test(target))
    throw new LinksError(`${at}: needs "target", a URL without spaces; nothing was changed`);
  const absolute = path.resolve(root, file);
  const real = await realpath(absolute).catch(() => absolute);
  const inside = (p: string) => !path.relative(root, p).startsWith("..") && !path.isAbsolute(path.relative(root, p));
  if (path.isAbsolute(file) || !inside(absolute) || !inside(real))
    throw new LinksError(`${at}: ${file} is outside ${dir}, so it is refused; nothing was changed`);
  if (!MARKDOWN_PAGES.has(path.extname(file).toLowerCase()))
    throw new LinksError(`${at}: ${file} is not a Markdown page; nothing was changed`);
  return { file: path.relative(root, real).split(path.sep).join("/"), line: number as number, anchor, target, at };
}

/** Place one page's kept proposals, and write it beside a `.bak` of what it held. */
async function applyFile(root: string, file: string, proposals: readonly Kept[], applied: Applied): Promise<void> {
  const absolute = path.join(root, file);
  let read: Awaited<ReturnType<typeof readTextFile>>;
  let page: ReturnType<typeof readLinkablePage>;
  try {
    read = await readTextFile(absolute);
    page = readLinkablePage(read.text, file);
  } catch (error) {
    if (!(error instanceof InkpressError || (error as NodeJS.ErrnoException).code)) throw error;
    applied.skipped.push(...proposals.map((p) => `${p.at}: ${file} cannot be read (${(error as Error).message}); skipped`));
    return;
  }
  const version = await fileVersion(absolute, read.bytes);
  const linked = new Set(page.links.map((link) => link.url));
  const placements: Placement[] = [];
  for (const p of proposals) {
    const stretches = page.stretches.filter((s) => s.line === p.line);
    const offset = stretches.flatMap((s) => anchorAt(s.text, p.anchor).map((i) => s.offset + i)).find((o) => free(placements, o, p.anchor));
    if (linked.has(p.target)) applied.skipped.push(`${p.at}: ${file} already links ${p.target}; skipped`);
    else if (offset === undefined)
      applied.skipped.push(`${p.at}: "${p.anchor}" is no longer plain prose on line ${p.line} of ${file}; skipped`);
    else if (!placesCleanly(read.text, [...placements, { offset, anchor: p.anchor, url: p.target }]))
      applied.skipped.push(`${p.at}: "${p.anchor}" on line ${p.line} of ${file} would not read as a link; skipped`);
    else {
      placements.push({ offset, anchor: p.anchor, url: p.target });
      linked.add(p.target);
    }
  }
  if (placements.length === 0) return;
  await writeFileAtomic(`${absolute}.bak`, read.bytes, { userFile: true });
  try {
    await writeFileAtomic(absolute, withLinks(read.text, placements), { userFile: true, unchanged: version });
  } catch (error) {
    if (!(error instanceof FileChangedError)) throw error;
    applied.skipped.push(...proposals.map((p) => `${p.at}: ${file} changed while the links were placed; skipped`));
    return;
  }
  applied.links += placements.length;
  applied.files.push(file);
}

/** Where the anchor stands in a stretch as whole words. */
function anchorAt(text: string, anchor: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(anchor); i >= 0; i = text.indexOf(anchor, i + 1)) {
    const before = text[i - 1] ?? " ";
    const after = text[i + anchor.length] ?? " ";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) at.push(i);
  }
  return at;
}

const free = (placements: readonly Placement[], offset: number, anchor: string) =>
  placements.every((p) => offset + anchor.length <= p.offset || p.offset + p.anchor.length <= offset);
