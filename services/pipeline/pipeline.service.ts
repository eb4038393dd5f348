import type { ServiceSchema } from "moleculer";
import { dbMixin } from "../../shared/db/mixin";

/** Durable jobs, their workers and stages. Its actions arrive with the job engine issue. */
const PipelineServiceSchema: ServiceSchema = {
  name: "pipeline",
  mixins: [dbMixin("pipeline", [])],
};

export default PipelineServiceSchema;
