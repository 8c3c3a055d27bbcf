/** A worker thread of an audit: measures each page file it is sent and answers the result. */
import { serveTasks } from "../worker-pool.js";
import { measurePage } from "./page.js";
import type { PageTask } from "./pool.js";

serveTasks(({ file, options }: PageTask) => measurePage(file, options));
