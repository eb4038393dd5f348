import { LastUsedRecorder, RequestCounter, type RequestCount } from "../../services/gateway/admission/recorders";

describe("a gateway's batched usage records", () => {
  it("counts requests per organization and UTC day, across midnight, in one batch", async () => {
    const sent: RequestCount[][] = [];
    const counter = new RequestCounter(async (counts) => void sent.push(counts));
    const beforeMidnight = new Date("2026-11-24T23:59:59.999Z");
    const afterMidnight = new Date("2026-11-25T00:00:00.000Z");
    for (const at of [beforeMidnight, beforeMidnight, afterMidnight]) counter.record("org-a", at);
    counter.record("org-b", afterMidnight);
    counter.record("org-a", beforeMidnight); // a late request of the day before still counts on its own day
    await counter.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0].sort((x, y) => `${x.org_id}${x.day}`.localeCompare(`${y.org_id}${y.day}`))).toEqual([
      { org_id: "org-a", day: "2026-11-24", requests: 3 },
      { org_id: "org-a", day: "2026-11-25", requests: 1 },
      { org_id: "org-b", day: "2026-11-25", requests: 1 },
    ]);
  });

  it("keeps a batch whose sending failed for the next flush, merged with what came meanwhile", async () => {
    let fail = true;
    const sent: { key_id: string; at: number }[][] = [];
    const lastUsed = new LastUsedRecorder(async (uses) => {
      if (fail) throw new Error("auth unreachable");
      sent.push(uses);
    });
    lastUsed.record("k1", new Date(2_000));
    await expect(lastUsed.flush()).rejects.toThrow("auth unreachable");
    lastUsed.record("k1", new Date(1_000)); // older: never moves last_used_at back
    lastUsed.record("k2", new Date(3_000));
    fail = false;
    await lastUsed.flush();
    expect(sent).toEqual([[{ key_id: "k1", at: 2_000 }, { key_id: "k2", at: 3_000 }]]);
  });
});
