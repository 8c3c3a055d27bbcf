/** A worker thread of the analysis pool: each task is one article analysed as it is (see {@link analyseExisting}). */
import { serveTasks } from "../worker-pool.js";
import type { AnalysisTask } from "./analysis-pool.js";
import { analyseExisting } from "./existing/analyse.js";

serveTasks(({ request, options }: AnalysisTask) => analyseExisting(request, options).analysis);
