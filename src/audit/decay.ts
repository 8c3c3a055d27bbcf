/**
 * Decay: the pages of the site whose clicks from search fell between two periods of Search
 * Console's figures, matched to their files by the audit's addresses (the export's host
 * stripped). A page decays when it had at least `minClicks` clicks before and lost at least
 * `minDrop` of them; what its position and CTR did says why.
 */
import type { ExportRow, PeriodFigures } from "../site/search-console.js";

/** A page's figure before and now. */
export interface Change {
  before: number;
  now: number;
}

/** A decaying page, as the report lists it. */
export interface DecayedPage {
  url: string;
  /** Its file, relative to the folder. */
  file: string;
  clicks: Change;
  impressions: Change;
  /** Clicks over impressions, 0–1. */
  ctr: Change;
  position: Change;
  reason: string;
}

/** When a page counts as decaying. */
export interface DecayThresholds {
  /** Clicks it had before, at least. */
  minClicks: number;
  /** The share of them it lost, at least (0–1). */
  minDrop: number;
}

/** The defaults: clicks down at least 20 % from at least 30. */
export const DECAY: DecayThresholds = { minClicks: 30, minDrop: 0.2 };

/** The decay findings: the pages, most clicks lost first, and the export's URLs that match no page. */
export interface DecayFindings {
  decay: DecayedPage[];
  unmatched: string[];
}

/**
 * The decaying pages of the export. `fileAt` names the page a site path reaches (undefined for
 * none); `previous` is the earlier period's own export, for two single-period exports.
 */
export function decayedPages(
  rows: readonly ExportRow[],
  fileAt: (pathname: string) => string | undefined,
  options: { previous?: readonly ExportRow[]; thresholds?: DecayThresholds } = {},
): DecayFindings {
  const { minClicks, minDrop } = options.thresholds ?? DECAY;
  const pathOf = (url: string) => (URL.canParse(url) ? new URL(url).pathname : url.split(/[?#]/u)[0]!);
  const earlier = new Map((options.previous ?? []).map((row) => [pathOf(row.url), row.now]));
  const unmatched: string[] = [];
  const decay: DecayedPage[] = [];
  const seen = new Set<string>();
  for (const row of [...rows, ...(options.previous ?? [])]) {
    const pathname = pathOf(row.url);
    if (seen.has(pathname)) continue;
    seen.add(pathname);
    const file = fileAt(pathname);
    if (file === undefined) {
      unmatched.push(row.url);
      continue;
    }
    const inNow = rows.includes(row);
    const now = inNow ? row.now : zero;
    const before = inNow ? (row.before ?? earlier.get(pathname)) : row.now;
    if (!before || before.clicks < minClicks || before.clicks - now.clicks < minDrop * before.clicks) continue;
    decay.push({ url: row.url, file, ...changes(before, now), reason: reason(before, now) });
  }
  decay.sort((a, b) => b.clicks.before - b.clicks.now - (a.clicks.before - a.clicks.now) || a.file.localeCompare(b.file));
  return { decay, unmatched };
}

/** A page the later export does not list had no clicks then. */
const zero: PeriodFigures = { clicks: 0, impressions: 0, ctr: 0, position: 0 };

function changes(before: PeriodFigures, now: PeriodFigures): Pick<DecayedPage, "clicks" | "impressions" | "ctr" | "position"> {
  const change = (key: keyof PeriodFigures) => ({ before: before[key], now: now[key] });
  return { clicks: change("clicks"), impressions: change("impressions"), ctr: change("ctr"), position: change("position") };
}

/** Why a page was flagged: its clicks' fall, and whether it lost rank, impressions or only clicks from them. */
function reason(before: PeriodFigures, now: PeriodFigures): string {
  const drop = Math.round((100 * (before.clicks - now.clicks)) / before.clicks);
  const fell = `clicks fell ${drop}% (${before.clicks} → ${now.clicks})`;
  const percent = (ctr: number) => `${(ctr * 100).toFixed(1)}%`;
  if (now.clicks === 0 && now.impressions === 0) return `${fell}: the page had no impressions in the later period`;
  if (now.position > before.position + 0.5)
    return `${fell}: its average position worsened from ${before.position.toFixed(1)} to ${now.position.toFixed(1)}`;
  if (now.impressions < before.impressions * 0.8)
    return `${fell}: impressions fell from ${before.impressions} to ${now.impressions} at a steady position (less search demand)`;
  return `${fell}: CTR fell from ${percent(before.ctr)} to ${percent(now.ctr)} at a steady position (the result draws fewer clicks)`;
}
