/** The shapes of what the bench measures, saved with a run and rendered by the report. */
import type { BenchModel } from "./bench-models.js";
import type { Profile } from "./bench-probe.js";

/** The machine the bench ran on. */
export interface Machine {
  cores: number;
  cpu: string;
  node: string;
  nodeLlamaCpp: string;
  memTotal: number;
  loadavg: number[];
  commit: string;
  /** Uncommitted changes in src/: the run measures the working tree. */
  dirtySrc: number;
}

/** The engine's own time per token (scripts/bench-engine.ts) while it writes sentences of one length. */
export interface TokenCost {
  /** Words per sentence the fake writer wrote. */
  words: number;
  /** Generated tokens of the body pass (median over the runs). */
  tokens: number;
  /** The engine's own µs per token: the median of `runs`. */
  usPerToken: number;
  runs: number[];
  /** What the fake writer itself cost per piece, taken out of every run. */
  writerUsPerToken: number;
}

/** Completion tokens generated and then cut from the answer, by why (`usage.discardedTokens`, when the engine reports it). */
export type Discarded = Partial<Record<string, number>>;

/** What the generate endpoint reports of its work. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  durationMs: number;
  discardedTokens?: Discarded;
}

/** One article of the comparison with the previous engine, as the client saw it. */
export interface EngineAnswer {
  seed: number;
  /** Client wall, request to the whole JSON answer. */
  wallMs: number;
  usage: Usage;
  /** `article.wordCount`. */
  words: number;
}

/** One model and length, written by today's engine and the previous one, the requests interleaved. */
export interface EngineComparison {
  model: string;
  length: number;
  seeds: number[];
  today: EngineAnswer[];
  previous: EngineAnswer[];
  /** Seeds the budget left out, and why. */
  skipped?: string;
}

/** The comparison with the previous engine (scripts/bench-previous.ts). */
export interface PreviousRun {
  commit: string;
  cases: EngineComparison[];
  /** The section's wall, install and server starts included. */
  ms: number;
  /** Models or seeds not run, and why. */
  skipped: string[];
}

/** A whole run, as it is saved (BENCH_REPORT_FROM renders the report again from it). */
export interface BenchRun {
  /** The sections run (BENCH_SECTIONS); absent from runs saved before there were sections (all ran). */
  sections?: Section[];
  results: ModelResult[];
  /** Measured with the models section. */
  bw?: Bandwidth;
  info: Machine;
  runMs: number;
  /** The load average at the end. */
  loadEnd: number[];
  /** The engine section: 5-word against 30-word sentences. */
  tokenCost?: TokenCost[];
  previous?: PreviousRun;
}

/** The parts of `npm run bench` BENCH_SECTIONS picks: the models' rows, the engine's time per token, the previous engine. */
export type Section = "models" | "engine" | "previous";

/** Memory read bandwidth. */
export interface Bandwidth {
  /** Single thread, memcmp of two buffers (Buffer.compare), bytes read per second. */
  memcmp1: number;
  /** Two threads, each comparing its own pair at once. */
  memcmp2: number;
  bufferBytes: number;
}

/** A process's resident memory (`/proc/<pid>/status`), bytes. */
export interface Rss {
  vmRss: number;
  rssAnon: number;
  rssFile: number;
}

/** A JSON answer of the generate endpoint and its wall time. */
export interface HttpResult {
  wallMs: number;
  json: { usage?: { promptTokens: number; completionTokens: number; durationMs: number }; article?: { wordCount: number } };
}

/** One article over SSE: when each event arrived, from the request's start. */
export interface SseRun {
  headersMs: number;
  firstEvent: string;
  firstEventMs: number;
  metaMs: number;
  outlineMs: number;
  firstDeltaMs: number;
  /** To `done`. */
  wallMs: number;
  deltas: number;
  words: number;
  usage: Usage;
  profile: Profile | undefined;
}

/** Aggregate throughput at one concurrency level. */
export interface Level {
  /** The server's --sequences. */
  sequences: number;
  clients: number;
  requests: number;
  tokens: number;
  wallMs: number;
  aggregate: number;
  p50: number;
  p95: number;
  /** Tokens per single-step decode batch: 2 when both sequences always decode together. */
  tokensPerStep: number;
  /** Share of the wall time the native forward pass ran. */
  busy: number;
}


/** (1): raw decoding in-process. */
export interface RawRun {
  /** Every run's wall time when repeated; the best is the one reported. */
  walls?: number[];
  tokens: number;
  totalMs: number;
  /** Prompt evaluation and the first sample, summed over segments. */
  prefillMs: number;
  promptTokens: number;
  segments: number;
  /** Later tokens per second. */
  decodeRate: number;
  profile: Profile;
}


/** The service's writer alone against raw decoding. */
export interface WriterRun {
  tokens: number;
  totalMs: number;
  decodeRate: number;
  /** The same prompt and token count decoded raw. */
  rawDecodeRate: number;
}


/** One delta of the long article: where its time went. */
export interface DeltaStat {
  wallMs: number;
  /** Time outside node-llama-cpp's token generators: the engine's own work (wall). */
  ownMs: number;
  /** The main thread's CPU time in the interval: the engine's JS and node-llama-cpp's (forward passes and sampling run on worker threads). */
  cpuMs: number;
  /** Time the main thread waited for a core (other processes, the decode thread). */
  waitMs: number;
  /** Native forward passes and sampling in the interval. */
  modelMs: number;
  /** Tokens decoded one at a time in the interval (generated tokens). */
  tokens: number;
  eraseMs: number;
}

/** (3): the long article, delta by delta. */
export interface LongRun {
  length: number;
  wallMs: number;
  words: number;
  usage: { promptTokens: number; completionTokens: number; durationMs: number };
  contextSize: number;
  deltas: DeltaStat[];
}


/** A V8 CPU profile, as far as the summary reads it. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time of a CPU profile by function and by where the code lives. */
export interface CpuSummary {
  top: Array<{ name: string; ms: number; share: number }>;
  categories: Array<{ name: string; ms: number; share: number }>;
  file: string;
}


/** The server's RSS over many articles. */
export interface RssResult {
  startup: Rss;
  warm: Rss;
  /** At the last article of the loop. */
  final: Rss;
  finalNoGc: Rss;
  /** Readings after GC during the loop to 50. */
  series: Array<{ articles: number; vmRss: number }>;
  /** Readings after GC past 50, while time allows. */
  extended: Array<{ articles: number; vmRss: number }>;
  articles: number;
  memoryStartup?: NodeJS.MemoryUsage;
  memoryWarm?: NodeJS.MemoryUsage;
  memoryFinal?: NodeJS.MemoryUsage;
  capped: boolean;
}

/** The prompt tokens of the (2) article, by kind. */
export interface PromptSplit {
  /** The instructions: the first call's prompt. */
  instructions: number;
  /** Tokens evaluated in all: should equal usage.promptTokens. */
  evaluated: number;
  /** Answer text the engine appended (title, headings, keyword openings, breaks), evaluated once. */
  forced: number;
  /** Tokens evaluated again at a position they had been evaluated at before (after a cut). */
  again: number;
  /** Words of the instruction text (system + user, or the completion text). */
  words: number;
}

/** Everything measured on one model. */
export interface ModelResult {
  model: BenchModel;
  prompting: string;
  service: { runs: SseRun[]; best: SseRun; loadMs: number; cpuProfile?: CpuSummary };
  /** Extra runs the client left after the first event. */
  firstEvents: SseRun[];
  raw: RawRun;
  writer?: WriterRun;
  long?: LongRun;
  levels: Level[];
  rss?: RssResult;
  unique: { evaluated: number; unique: number; calls: number };
  prompt: PromptSplit;
  /** Optional rows not run, and why. */
  skipped: string[];
}


/** One target on one model: measured, met or not, and why. */
export interface Verdict {
  target: string;
  model: string;
  value: string;
  /** The goal, where the target's name does not hold it. @default in the target */
  goal?: string;
  met: boolean | undefined;
  why: string;
}
