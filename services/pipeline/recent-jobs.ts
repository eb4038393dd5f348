import type { Db } from "mongodb";
import type { z } from "zod";
import type { JobResource, RecentJobsParams } from "../../shared/schemas/jobs";
import { jobs, toJobResource } from "./engine/jobs";

/** The dashboard's jobs view: an organization's most recent jobs, newest first (index `org_created`). */
export async function recentJobs(db: Db, params: z.output<typeof RecentJobsParams>): Promise<{ object: "list"; data: JobResource[] }> {
  const docs = await jobs(db).find({ org_id: params.org_id }).sort({ created_at: -1, _id: -1 }).limit(params.limit).toArray();
  return { object: "list", data: docs.map(toJobResource) };
}
