import type { ServiceSchema } from "moleculer";
import { dbMixin } from "../../shared/db/mixin";

/** Brand profiles, knowledge-base sources, ingestion and retrieval. Its actions arrive with the brand knowledge issue. */
const BrandKnowledgeServiceSchema: ServiceSchema = {
  name: "brand-knowledge",
  mixins: [dbMixin("brand-knowledge", [])],
};

export default BrandKnowledgeServiceSchema;
