/**
 * Work that must never hold the event loop, on worker threads: a request's analysis runs
 * there with a time limit, so the server answers `/healthz` and drains on SIGTERM whatever
 * the input costs. A worker past its limit is stopped (a tight loop included) and replaced.
 */
import { parentPort, Worker } from "node:worker_threads";
import { InkpressError, InvalidFieldError } from "./errors.js";

/**
 * A worker's start: the build's JavaScript module, or, where this runs from the TypeScript
 * sources (tsx), tsx registered in the worker first: a worker does not inherit the loader.
 */
function workerSource(module: URL): string {
  if (!import.meta.url.endsWith(".ts")) return `import(${JSON.stringify(module.href)});`;
  const tsx = import.meta.resolve("tsx/esm/api");
  const source = module.href.replace(/\.js$/u, ".ts");
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
}

/** A task that ran past the pool's time limit; its worker was stopped. */
export class TimeLimitError extends InkpressError {
  constructor(readonly limitMs: number) {
    super(`the work did not finish within ${limitMs / 1000} s`, { status: 503 });
  }
}

/** What a worker answers: a result, or the error its task threw, as plain data. */
type Answer<Out> = { result: Out } | { error: { message: string; status?: number; field?: string; problem?: string } };

interface Task<In, Out> {
  input: In;
  resolve(result: Out): void;
  reject(error: Error): void;
}

/** How many workers, and how long one task may take. */
export interface PoolOptions {
  size: number;
  timeoutMs: number;
}

/** Worker threads that each run one task at a time from a shared queue, each task within the time limit. */
export class WorkerPool<In, Out> {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly queue: Task<In, Out>[] = [];
  /** Each running task's worker, and how to refuse the task when the pool closes. */
  private readonly running = new Map<Worker, () => void>();
  private closed = false;

  /** Up to `size` workers running `module` (which calls {@link serveTasks}), each started when a task first needs it. */
  constructor(
    private readonly module: URL,
    private readonly options: PoolOptions,
  ) {}

  /** Run one task on the next free worker; rejects with {@link TimeLimitError} past the limit, or with the error the task threw. */
  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(shuttingDown());
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.all.size < this.options.size && this.queue.length > this.idle.length) this.spawn();
      this.dispatch();
    });
  }

  /** Refuse queued tasks, give running ones up to `graceMs` to finish, then stop every worker (a task still running is refused). */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(shuttingDown());
    const deadline = Date.now() + graceMs;
    while (this.running.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const stop of [...this.running.values()]) stop();
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private spawn(): void {
    // A young generation of 192 MB (semi-spaces of 64): parsing a long page makes garbage fast, and the default's collections grew faster than the page.
    const worker = new Worker(workerSource(this.module), { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 192 } });
    this.all.add(worker);
    // The worker says it is ready once its module is loaded: only then does a task's time start.
    worker.once("message", () => {
      this.idle.push(worker);
      this.dispatch();
    });
    worker.on("error", () => this.replace(worker));
    worker.unref();
  }

  private replace(worker: Worker): void {
    if (!this.all.delete(worker)) return;
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    void worker.terminate();
    if (!this.closed) this.spawn();
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) this.start(this.idle.pop()!, this.queue.shift()!);
  }

  private start(worker: Worker, task: Task<In, Out>): void {
    const settle = (outcome: () => void) => {
      this.running.delete(worker);
      clearTimeout(timer);
      worker.off("message", onAnswer);
      worker.off("exit", onExit);
      outcome();
    };
    const onAnswer = (answer: Answer<Out>) =>
      settle(() => {
        this.idle.push(worker);
        if ("result" in answer) task.resolve(answer.result);
        else task.reject(revive(answer.error));
        this.dispatch();
      });
    const onExit = () => settle(() => task.reject(new Error("a worker thread stopped during its task")));
    const timer = setTimeout(
      () =>
        settle(() => {
          this.replace(worker);
          task.reject(new TimeLimitError(this.options.timeoutMs));
        }),
      this.options.timeoutMs,
    );
    this.running.set(worker, () => settle(() => task.reject(shuttingDown())));
    worker.on("message", onAnswer);
    worker.once("exit", onExit);
    worker.postMessage(task.input);
  }
}

const shuttingDown = () => new InkpressError("The server is shutting down; send the request again.", { status: 503 });

/** The error a task threw, rebuilt on this side: a field's 422 stays one, an inkpress error keeps its status. */
function revive(error: { message: string; status?: number; field?: string; problem?: string }): Error {
  if (error.field !== undefined) return new InvalidFieldError(error.field, error.problem ?? error.message, error.message);
  if (error.status !== undefined) return new InkpressError(error.message, { status: error.status });
  return new Error(error.message);
}

/** In a worker's module: run `handle` on each task the pool sends (one at a time), and answer its result or its error. */
export function serveTasks<In, Out>(handle: (input: In) => Out | Promise<Out>): void {
  const port = parentPort!;
  port.on("message", async (input: In) => {
    let answer: Answer<Out>;
    try {
      answer = { result: await handle(input) };
    } catch (error) {
      const e = error as Error;
      answer = {
        error:
          e instanceof InvalidFieldError
            ? { message: e.message, field: e.field, problem: e.problem }
            : e instanceof InkpressError
              ? { message: e.message, status: e.status }
              : { message: e?.stack ?? String(error) },
      };
    }
    port.postMessage(answer);
  });
  port.postMessage("ready");
}
