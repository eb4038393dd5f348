import type { ServiceSchema } from "moleculer";
import { dbMixin } from "../../shared/db/mixin";

/** Webhook endpoints, signing and durable delivery. Its actions arrive with the webhooks issue. */
const WebhooksServiceSchema: ServiceSchema = {
  name: "webhooks",
  mixins: [dbMixin("webhooks", [])],
};

export default WebhooksServiceSchema;
