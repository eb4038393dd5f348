import { ADMIN_ROUTES, API_ROUTES, methodsAt, requiredServices } from "../../services/gateway/routes";

describe("route table", () => {
  it("declares each method and path once", () => {
    const keys = [...API_ROUTES.map((r) => `${r.method} /v1${r.path}`), ...ADMIN_ROUTES.map((r) => `${r.method} /admin${r.path}`)];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("knows which methods a concrete path serves", () => {
    expect(methodsAt("/v1/usage")).toEqual(["GET"]);
    expect(methodsAt("/admin/orgs/5f2b6a4e-1111-4111-8111-111111111111/keys").sort()).toEqual(["GET", "POST"]);
    expect(methodsAt("/v1/nothing")).toEqual([]);
  });

  it("requires the services its actions live in", () => {
    expect(requiredServices()).toEqual(expect.arrayContaining(["auth", "billing"]));
  });
});
