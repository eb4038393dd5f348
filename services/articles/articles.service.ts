import type { ServiceSchema } from "moleculer";
import { dbMixin } from "../../shared/db/mixin";

/** Articles: creation, reading, editing, lifecycle. Its actions arrive with the articles issue. */
const ArticlesServiceSchema: ServiceSchema = {
  name: "articles",
  mixins: [dbMixin("articles", [])],
};

export default ArticlesServiceSchema;
