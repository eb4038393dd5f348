import type { Context } from "moleculer";
import { rootLogger } from "./logger";
import { call as callAction } from "./action";
import { PipelineActions, type StageCallParams } from "./schemas/jobs";

/**
 * How any stage handler reports progress to the pipeline: best effort, never throws (a lost report
 * must not fail the stage, nor escape as an unhandled rejection). Resolves false when the job has
 * moved to another worker, so the superseded run can stop.
 */
export function stageProgressReporter(ctx: Context, call: Pick<StageCallParams, "job_id" | "fence" | "stage_index">) {
  return async (meta: Record<string, unknown>): Promise<boolean> => {
    try {
      const ack = await callAction(ctx, PipelineActions.reportProgress, {
        job_id: call.job_id,
        fence: call.fence,
        stage_index: call.stage_index,
        meta,
      });
      return ack.accepted;
    } catch (err) {
      rootLogger().debug({ err, job_id: call.job_id }, "progress report not delivered");
      return true;
    }
  };
}
